#!/usr/bin/env bash
# Completion benchmark (issue 27): what a Tab costs. `podcli __complete KIND`, which the completion
# scripts run at every Tab on an episode, feed or device, on a library of a million episodes,
# against `podcli --version` (start-up) and the sqlite3 CLI reading the same newest 100 episodes
# with their feeds' titles (what SQLite alone needs for the answer); and a whole Tab in bash
# (`podcli play <Tab>`: the script's function, the `__complete` it runs, compgen) against bash
# completing a file name. `episode 1` and `episode 99999` are a prefix typed: the newest of the
# 111,111 numbers starting with 1, and of the 11 starting with 99999. See bench/README.md ("complete.sh").
#
# Environment:
#   EPISODES=1000000     library size (made by gen_search_library.py, shared with search.sh)
#   ROUNDS=10            timed rounds of each command (the median is reported)
#   PODCLI=              a podcli binary; unset: build release into SCRATCH_PATH (default .build)
#   SEARCH_WORK=         scratch dir (kept, libraries reused); unset: a temporary one, deleted
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PACKAGE=$(cd "$BENCH_DIR/.." && pwd)
EPISODES=${EPISODES:-1000000}
ROUNDS=${ROUNDS:-10}
SCRATCH_PATH=${SCRATCH_PATH:-.build}
[[ $SCRATCH_PATH = /* ]] || SCRATCH_PATH=$PACKAGE/$SCRATCH_PATH
PY=/usr/bin/python3
TARGET_FACTOR=3 # a Tab's __complete within 3x podcli --version

die() { echo "complete.sh: $*" >&2; exit 1; }
command -v sqlite3 >/dev/null || die "missing sqlite3: scripts/install-deps.sh"
[[ -x /usr/bin/time ]] || die "missing GNU time (/usr/bin/time): scripts/install-deps.sh"
stop_nginx() { :; }
source "$BENCH_DIR/lib.sh"
use_workdir "${SEARCH_WORK:-}" podcli-complete
REPORT=$WORK/complete-report.txt
: >"$REPORT"
build_podcli
MEASURE_WIDTH=20
plain_library "$EPISODES"
"$PODCLI" --home "$PLAIN" list -n 1 >/dev/null 2>&1 # migrated before timing
"$PODCLI" completions bash >"$WORK/podcli.bash"

# A Tab in bash as readline makes it: COMP_WORDS set, the registered function called.
tab() {
    cat <<TAB
source '$WORK/podcli.bash'
COMP_WORDS=(podcli $1 '') COMP_CWORD=2 COMP_LINE='podcli $1 ' COMP_POINT=\${#COMP_LINE} COMPREPLY=()
_podcli podcli '' $1
printf '%s\\n' "\${COMPREPLY[@]}"
TAB
}
newest="SELECT episodes.id, episodes.title, feeds.title FROM episodes
  LEFT JOIN feeds ON feeds.id = episodes.feed_id ORDER BY episodes.sort_date DESC, episodes.id LIMIT 100"

say "# podcli completion benchmark, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
say "machine: $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
say "podcli: $PODCLI (source $(git -C "$PACKAGE" describe --always --dirty 2>/dev/null || echo unknown)); $(sqlite3 --version | cut -d' ' -f1-2 | sed 's/^/sqlite3 /'); rounds: $ROUNDS"
say "raw (wall, user, sys in s):"
rounds version "$PODCLI" --version
rounds episode "$PODCLI" --home "$PLAIN" __complete episode
rounds episode-1 "$PODCLI" --home "$PLAIN" __complete episode 1
rounds episode-99999 "$PODCLI" --home "$PLAIN" __complete episode 99999
rounds feed "$PODCLI" --home "$PLAIN" __complete feed
rounds device "$PODCLI" __complete device
rounds sqlite3-newest sqlite3 -readonly "$PLAIN/podcli.db" "$newest"
rounds bash-tab-play env PODCLI_HOME="$PLAIN" PATH="$(dirname "$PODCLI"):$PATH" bash --norc -c "$(tab play)"
rounds bash-tab-file bash --norc -c "cd '$PLAIN'; compgen -f -- '' | wc -l"

ms() { awk -v s="$(col_median "$1" "${2:-1}")" 'BEGIN { printf "%.1f", s * 1000 }'; }
startup=$(col_median version 1)
say ""
say "## $EPISODES episodes, $(wc -l <"$WORK/feed.out") feeds"
say "podcli --version: $(ms version) ms; sqlite3 reading the newest 100 with feeds: $(ms sqlite3-newest) ms; bash completing a file name: $(ms bash-tab-file) ms"
say "$(printf '%-16s %8s %8s %8s %8s %6s  %s' case 'wall ms' 'x start' 'x sqlite' 'rss KiB' lines "target: wall <= ${TARGET_FACTOR}x start")"
for name in episode episode-1 episode-99999 feed device bash-tab-play; do
    factor=$(ratio "$(col_median "$name" 1)" "$startup")
    verdict=$(awk -v f="$factor" -v t=$TARGET_FACTOR 'BEGIN { print (f <= t) ? "pass" : "FAIL" }')
    say "$(printf '%-16s %8s %8s %8s %8s %6s  %s' "$name" "$(ms "$name")" "${factor}x" \
        "$(ratio "$(col_median "$name" 1)" "$(col_median sqlite3-newest 1)")x" "$(col_median "$name" 3 | cut -d. -f1)" \
        "$(wc -l <"$WORK/$name.out")" "$verdict")"
done
