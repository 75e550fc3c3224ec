import Foundation

/// Runs a completion script in a real shell, without a terminal, and returns what the shell's
/// completion would offer for a command line (the last word being the one completed).
///
/// - bash: the function the script registers (`complete -p`) is called with `COMP_WORDS` and
///   `COMP_CWORD` set, as readline would; `COMPREPLY` is the answer.
/// - zsh: `compadd` works only inside a completion widget, so it is replaced by one that prints the
///   candidates matching `PREFIX` (what zsh's matching does without a matcher), and `compdef`
///   by one that records the function the script registers; the function is then called with
///   `words` and `CURRENT` set.
/// - fish: `complete -C` completes a command line non-interactively.
public enum CompletionShells {
    public static let bashPath = "/usr/bin/bash"
    public static let zshPath = "/usr/bin/zsh"
    public static let fishPath = "/usr/bin/fish"

    public static func bash(script: String, words: [String], environment: [String: String]) throws -> [String] {
        try bash(script: script, line: words.joined(separator: " "), words: words, environment: environment)
    }

    /// Completes `line` as bash does at a Tab at its end: readline splits it into `COMP_WORDS` at
    /// blanks and around `=` and `:` (COMP_WORDBREAKS: `--device=hw:0` is `--device`, `=`, `hw`,
    /// `:`, `0`), and the word it completes (the function's `$2`, what a reply replaces) is what
    /// follows the last of them. Checked with bash 5.2 in a terminal.
    public static func bash(script: String, line: String, environment: [String: String]) throws -> [String] {
        var words: [String] = []
        for blankSeparated in line.split(separator: " ") {
            var word = ""
            for character in blankSeparated {
                if character == "=" || character == ":" {
                    if !word.isEmpty { words.append(word) }
                    words.append(String(character))
                    word = ""
                } else {
                    word.append(character)
                }
            }
            if !word.isEmpty { words.append(word) }
        }
        if line.hasSuffix(" ") { words.append("") }
        return try bash(script: script, line: line, words: words, environment: environment)
    }

    private static func bash(script: String, line: String, words: [String], environment: [String: String]) throws
        -> [String]
    {
        let driver = #"""
            source "$1" || exit 1
            COMP_LINE=$2
            shift 2
            command=$1
            completer=$(complete -p "$command" | sed -E 's/.* -F ([^ ]+) .*/\1/')
            COMP_WORDS=("$@")
            COMP_CWORD=$(($# - 1))
            COMP_POINT=${#COMP_LINE}
            COMPREPLY=()
            current=${COMP_WORDS[COMP_CWORD]}
            [[ $current == [=:] ]] && current=
            "$completer" "$command" "$current" "${COMP_WORDS[COMP_CWORD - 1]}"
            ((${#COMPREPLY[@]})) && printf '%s\n' "${COMPREPLY[@]}"
            exit 0
            """#
        return try run(
            bashPath, ["--norc", "--noprofile", "-c", driver, "bash"], script: script, [line] + words, environment)
    }

    public static func zsh(script: String, words: [String], environment: [String: String]) throws -> [String] {
        let driver = #"""
            compadd() {
                local i=${@[(i)--]} w
                for w in "${@[i+1,-1]}"; do [[ $w == "$PREFIX"* ]] && print -r -- $w; done
                return 0
            }
            _files() { return 0 }
            compdef() { completer=$1 }
            source "$1" || exit 1
            shift
            words=("$@")
            CURRENT=$#
            PREFIX=$words[CURRENT]
            $completer
            exit 0
            """#
        return try run(zshPath, ["-f", "-c", driver, "zsh"], script: script, words, environment)
    }

    /// With `descriptions`, each candidate as fish shows it: `value<TAB>description`.
    public static func fish(
        script: String, words: [String], environment: [String: String], descriptions: Bool = false
    ) throws -> [String] {
        let driver = #"""
            source $argv[1]; or exit 1
            complete -C (string join ' ' -- $argv[2..-1])
            """#
        return try run(fishPath, ["--no-config", "-c", driver], script: script, words, environment)
            .map { descriptions ? $0 : String($0.prefix { $0 != "\t" }) }
    }

    private static func run(
        _ shell: String, _ arguments: [String], script: String, _ words: [String], _ environment: [String: String]
    ) throws -> [String] {
        let directory = try TemporaryDirectory(prefix: "completion")
        let file = try directory.write(script, to: "script")
        let result = try RunningProcess(
            executable: URL(fileURLWithPath: shell), arguments: arguments + [file.path] + words,
            environment: environment
        ).waitUntilExit(timeout: 30)
        guard result.status == 0, result.stderr.isEmpty else {
            throw TestSupportError("\(shell) completing \(words): \(result)")
        }
        return result.stdout.split(separator: "\n").map(String.init)
    }
}
