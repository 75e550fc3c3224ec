#!/usr/bin/env bash
# Installs podcli under a prefix: the binary, its man page, bash/zsh/fish completions and the
# systemd user units for `podcli sync`; records every file and directory it made in a manifest,
# so --uninstall removes exactly those and nothing else.
#
#   scripts/install.sh [--prefix DIR] [--binary PATH] [--uninstall]
#
#   --prefix DIR   where to install (default: ~/.local for a user, /usr/local for root)
#   --binary PATH  install this podcli instead of building one with `swift build -c release`
#                  (also PODCLI_BINARY=PATH)
#   --uninstall    remove what the last install under DIR recorded
#
# What goes where under the prefix, and what reads it there:
#   bin/podcli
#   share/man/man1/podcli.1                      man (manpath looks beside every bin on PATH)
#   share/bash-completion/completions/podcli     bash-completion ($XDG_DATA_HOME, $XDG_DATA_DIRS)
#   share/zsh/vendor-completions/_podcli         zsh: Debian's fpath has /usr/share/zsh/vendor-completions;
#                                                for ~/.local add `fpath+=(~/.local/share/zsh/vendor-completions)`
#                                                to ~/.zshrc before compinit
#     (share/zsh/site-functions/_podcli under /usr/local: in zsh's default fpath)
#   share/fish/vendor_completions.d/podcli.fish  fish ($XDG_DATA_HOME, $XDG_DATA_DIRS)
#   share/systemd/user/podcli-sync.service, .timer
#                                                systemd --user reads ~/.local/share/systemd/user and
#                                                /usr/local/share/systemd/user (`systemd-analyze --user
#                                                unit-paths`); then `systemctl --user daemon-reload &&
#                                                systemctl --user enable --now podcli-sync.timer`
#   lib/podcli/install-manifest                  what was installed, for --uninstall
set -euo pipefail

die() {
    echo "install.sh: $*" >&2
    exit 1
}

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ $(id -u) -eq 0 ]]; then prefix=/usr/local; else prefix=${HOME:?HOME is not set}/.local; fi
binary=${PODCLI_BINARY:-}
uninstall=false
while (($#)); do
    case $1 in
        --prefix) (($# >= 2)) || die "--prefix needs a directory"; prefix=$2; shift 2 ;;
        --prefix=*) prefix=${1#--prefix=}; shift ;;
        --binary) (($# >= 2)) || die "--binary needs a path"; binary=$2; shift 2 ;;
        --binary=*) binary=${1#--binary=}; shift ;;
        --uninstall) uninstall=true; shift ;;
        -h | --help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done
[[ -n $prefix ]] || die "--prefix is empty"
[[ $prefix == /* ]] || prefix=$PWD/$prefix
prefix=${prefix%/}
manifest_path=lib/podcli/install-manifest
manifest=$prefix/$manifest_path

# A manifest line is `f PATH` (a file) or `d PATH` (a directory the install made), PATH relative
# to the prefix. Lines that could reach outside it are refused, not followed.
read_manifest() {
    local kind path
    while IFS=' ' read -r kind path; do
        [[ ($kind == f || $kind == d) && -n $path && $path != /* && /$path/ != */../* ]] ||
            die "$manifest: unexpected line '$kind $path'; nothing removed past it"
        printf '%s %s\n' "$kind" "$path"
    done <"$manifest"
}

remove_installed() {
    local lines kind path dirs=()
    lines=$(read_manifest)
    while IFS=' ' read -r kind path; do
        if [[ $kind == f ]]; then rm -f -- "$prefix/$path"; else dirs+=("$path"); fi
    done <<<"$lines"
    rm -f -- "$manifest"
    # Deepest first: made in order from the top down.
    local i
    for ((i = ${#dirs[@]} - 1; i >= 0; i--)); do
        rmdir --ignore-fail-on-non-empty -- "$prefix/${dirs[i]}" 2>/dev/null || true
    done
}

if $uninstall; then
    [[ -f $manifest ]] || die "nothing recorded under $prefix ($manifest_path is missing)"
    remove_installed
    echo "Removed podcli from $prefix"
    exit 0
fi

if [[ -z $binary ]]; then
    (cd "$repo" && swift build -c release --product podcli)
    binary=$(cd "$repo" && swift build -c release --show-bin-path)/podcli
fi
[[ -x $binary ]] || die "$binary is not an executable file"
# The completion scripts come from the binary: refuse before installing anything.
for shell in bash zsh fish; do
    "$binary" completions "$shell" >/dev/null 2>&1 ||
        die "$binary cannot print its $shell completions ('podcli completions $shell' failed): build a podcli that has them"
done

# Installing again replaces the last install's files.
if [[ -f $manifest ]]; then remove_installed; fi

records=()
# Makes DIR (relative to the prefix) and records each directory that did not exist yet.
make_directory() {
    local path=$1 partial=""
    local IFS=/
    for part in $path; do
        partial=${partial:+$partial/}$part
        if [[ ! -d $prefix/$partial ]]; then
            mkdir -p -- "$prefix/$partial"
            records+=("d $partial")
        fi
    done
}

# Copies standard input to PATH (relative to the prefix) with MODE, and records it.
put() {
    local path=$1 mode=$2
    make_directory "$(dirname "$path")"
    install -m "$mode" /dev/stdin "$prefix/$path"
    records+=("f $path")
}

# Writes what COMMAND... prints to PATH (not through a pipe: `put` must run in this shell to record).
generate() {
    local path=$1 text
    shift
    text=$("$@") || die "'$*' failed"
    put "$path" 644 <<<"$text"
}

mkdir -p -- "$prefix"
put bin/podcli 755 <"$binary"
installed=$prefix/bin/podcli
generate share/man/man1/podcli.1 "$installed" man
generate share/bash-completion/completions/podcli "$installed" completions bash
if [[ $prefix == /usr/local ]]; then zsh_dir=share/zsh/site-functions; else zsh_dir=share/zsh/vendor-completions; fi
generate "$zsh_dir/_podcli" "$installed" completions zsh
generate share/fish/vendor_completions.d/podcli.fish "$installed" completions fish
# The units as the README gives them, but running this install's binary whatever PATH holds.
unit_text() {
    local line
    while IFS= read -r line || [[ -n $line ]]; do
        if [[ $line == "ExecStart=/usr/bin/env podcli "* ]]; then
            line="ExecStart=$installed ${line#ExecStart=/usr/bin/env podcli }"
        fi
        printf '%s\n' "$line"
    done <"$repo/scripts/systemd/$1"
}
for unit in podcli-sync.service podcli-sync.timer; do
    generate "share/systemd/user/$unit" unit_text "$unit"
done

make_directory "$(dirname "$manifest_path")"
printf '%s\n' "${records[@]}" >"$manifest.tmp"
mv -- "$manifest.tmp" "$manifest"
echo "Installed podcli in $prefix ($(grep -c '^f ' "$manifest") files, listed in $manifest_path)"
