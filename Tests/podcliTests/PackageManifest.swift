import Foundation

/// The targets of a `Package.swift`, read from its text: enough of Swift's lexical rules (comments,
/// string literals, brackets) to take each `.target(...)` call apart, not a Swift parser.
struct PackageManifest {
    enum Kind: String {
        case target, executableTarget, systemLibrary, testTarget, plugin, macro, binaryTarget
    }

    struct Dependency: Hashable {
        var name: String
        var line: Int
    }

    struct Target {
        var name: String
        var kind: Kind
        var path: String?
        var dependencies: [Dependency]
        var line: Int

        /// Where SwiftPM looks for the target's files when `path:` is not given.
        var directory: String {
            if let path { return path }
            switch kind {
            case .testTarget: return "Tests/" + name
            case .plugin: return "Plugins/" + name
            default: return "Sources/" + name
            }
        }
    }

    enum ReadError: Error, CustomStringConvertible {
        case unbalanced(line: Int)
        case unnamedTarget(line: Int)

        var description: String {
            switch self {
            case .unbalanced(let line): "Package.swift:\(line): a bracket is never closed"
            case .unnamedTarget(let line): "Package.swift:\(line): a target without a literal name:"
            }
        }
    }

    var targets: [Target]

    init(text: String) throws {
        let tokens = Token.read(text)
        var targets: [Target] = []
        var index = 0
        while index + 2 < tokens.count {
            defer { index += 1 }
            guard tokens[index].text == ".", let kind = Kind(rawValue: tokens[index + 1].text),
                tokens[index + 2].text == "("
            else { continue }
            let close = try Self.closing(tokens, from: index + 2)
            let arguments = tokens[(index + 3)..<close]
            // Only the top-level of a `.target(` call: the `name:` of a `.product(name:)` inside
            // `dependencies:` is not the target's.
            guard let name = Self.topLevelString(labelled: "name", in: arguments) else {
                throw ReadError.unnamedTarget(line: tokens[index].line)
            }
            var dependencies: [Dependency] = []
            if let list = try Self.topLevelList(labelled: "dependencies", in: arguments) {
                dependencies = Self.strings(in: list)
            }
            targets.append(
                Target(
                    name: name, kind: kind, path: Self.topLevelString(labelled: "path", in: arguments),
                    dependencies: dependencies, line: tokens[index].line))
            index = close
        }
        self.targets = targets
    }

    /// The string literals of a dependency list, leaving out what follows a `package:` label.
    private static func strings(in list: ArraySlice<Token>) -> [Dependency] {
        var result: [Dependency] = []
        var afterPackageLabel = false
        for token in list {
            if token.isString {
                if !afterPackageLabel { result.append(Dependency(name: token.text, line: token.line)) }
                afterPackageLabel = false
            } else if token.text == "package" {
                afterPackageLabel = true
            }
        }
        return result
    }

    private static func closing(_ tokens: [Token], from open: Int) throws -> Int {
        var depth = 0
        for index in open..<tokens.count where !tokens[index].isString {
            switch tokens[index].text {
            case "(", "[": depth += 1
            case ")", "]":
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
        }
        throw ReadError.unbalanced(line: tokens[open].line)
    }

    /// The positions of `label:` at the top level of a call's arguments.
    private static func topLevel(labelled label: String, in arguments: ArraySlice<Token>) -> Int? {
        var depth = 0
        for index in arguments.indices where !arguments[index].isString {
            switch arguments[index].text {
            case "(", "[": depth += 1
            case ")", "]": depth -= 1
            case label where depth == 0 && index + 1 < arguments.endIndex && arguments[index + 1].text == ":":
                return index + 2
            default: break
            }
        }
        return nil
    }

    private static func topLevelString(labelled label: String, in arguments: ArraySlice<Token>) -> String? {
        guard let value = topLevel(labelled: label, in: arguments), value < arguments.endIndex,
            arguments[value].isString
        else { return nil }
        return arguments[value].text
    }

    private static func topLevelList(labelled label: String, in arguments: ArraySlice<Token>) throws
        -> ArraySlice<Token>?
    {
        guard let value = topLevel(labelled: label, in: arguments), value < arguments.endIndex,
            arguments[value].text == "["
        else { return nil }
        let tokens = Array(arguments)
        let start = value - arguments.startIndex
        let close = try closing(tokens, from: start)
        return tokens[(start + 1)..<close]
    }

    /// A string literal's contents, an identifier or one punctuation character, with its line.
    struct Token {
        var text: String
        var isString: Bool
        var line: Int

        static func read(_ text: String) -> [Token] {
            let characters = Array(text)
            var tokens: [Token] = []
            var line = 1
            var index = 0
            while index < characters.count {
                let character = characters[index]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                if character == "\n" {
                    line += 1
                    index += 1
                } else if character == "/" && next == "/" {
                    while index < characters.count && characters[index] != "\n" { index += 1 }
                } else if character == "/" && next == "*" {
                    index += 2
                    while index + 1 < characters.count && !(characters[index] == "*" && characters[index + 1] == "/") {
                        if characters[index] == "\n" { line += 1 }
                        index += 1
                    }
                    index += 2
                } else if character == "\"" {
                    // Package manifests need no escapes or multi-line strings; a backslash keeps
                    // the next character whatever it is.
                    var literal = ""
                    index += 1
                    while index < characters.count && characters[index] != "\"" {
                        if characters[index] == "\\" { index += 1 }
                        if index < characters.count { literal.append(characters[index]) }
                        index += 1
                    }
                    tokens.append(Token(text: literal, isString: true, line: line))
                    index += 1
                } else if character.isLetter || character == "_" {
                    var word = ""
                    while index < characters.count
                        && (characters[index].isLetter || characters[index].isNumber || characters[index] == "_")
                    {
                        word.append(characters[index])
                        index += 1
                    }
                    tokens.append(Token(text: word, isString: false, line: line))
                } else {
                    if !character.isWhitespace {
                        tokens.append(Token(text: String(character), isString: false, line: line))
                    }
                    index += 1
                }
            }
            return tokens
        }
    }
}
