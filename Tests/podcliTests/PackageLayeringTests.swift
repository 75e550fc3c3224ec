import Foundation
import TestSupport
import Testing

/// The layers of the package, held against `Package.swift` and every `import` in `Sources/`:
/// the executable over PodcliKit over the Swift modules over the C modules; and every import of
/// `Tests/` declared. SwiftPM lets a module import any module built before it, declared or not, so
/// only a reading of the sources keeps the declarations true.
@Suite struct PackageLayeringTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardized

    @Test func everyImportIsADeclaredDependencyDownTheLayers() throws {
        let findings = try PackageLayering(packageRoot: Self.packageRoot).findings()
        for finding in findings { Issue.record(Comment(rawValue: finding.description)) }
    }

    /// The check itself, on a package made to break each rule once.
    @Test func aPackageThatBreaksEachRuleGetsOneFindingPerBreak() throws {
        let root = try TemporaryDirectory()
        let files = [
            "Package.swift": """
            // swift-tools-version:6.0
            import PackageDescription
            let package = Package(name: "p", targets: [
                .target(name: "CShim", dependencies: ["Low"]),  // "High" in a comment is no dependency
                .target(name: "Low", dependencies: [.product(name: "Outside", package: "other")]),
                .target(name: "Mid", dependencies: ["Low", "CShim"]),
                .target(name: "PodcliKit", dependencies: ["Mid"]),
                .executableTarget(name: "podcli", dependencies: ["PodcliKit", "Low"]),
                .testTarget(name: "MidTests", dependencies: ["Mid"]),
            ])
            """,
            "Sources/CShim/include/shim.h": "int shim(void);\n",
            "Sources/Low/Low.swift": "import Glibc\nimport PodcliKit\n",
            "Sources/Mid/Mid.swift": """
            @preconcurrency import CShim
            @_implementationOnly import Low
            public import struct Foundation.Date
            let text = \"""
            import Nothing
            \"""
            """,
            "Sources/PodcliKit/Kit.swift": "internal import Mid\n@testable import Low\n",
            "Sources/podcli/main.swift": "import PodcliKit\n",
            "Tests/MidTests/MidTests.swift": "import Foundation\n@testable import Mid\nimport Low\n",
        ]
        for (path, text) in files { try root.write(Data(text.utf8), to: path) }
        let findings = try PackageLayering(packageRoot: root.url).findings().map(\.description)
        #expect(
            findings == [
                "Tests/MidTests/MidTests.swift:3: MidTests imports Low, which Package.swift does not declare among its dependencies",
                "Package.swift:4: CShim (a C module) depends on Low (a Swift module): dependencies run down the layers",
                "Sources/Low/Low.swift:2: Low (a Swift module) imports PodcliKit (the application layer): imports run down the layers",
                "Sources/Low/Low.swift:2: Low imports PodcliKit, which Package.swift does not declare among its dependencies",
                "Package.swift:5: Low declares Outside and never imports it",
                "Sources/Mid/Mid.swift:3: Mid imports Foundation, which Package.swift does not declare among its dependencies",
                "Sources/PodcliKit/Kit.swift:2: PodcliKit imports Low, which Package.swift does not declare among its dependencies",
                "Package.swift:8: podcli declares Low and never imports it",
            ])
    }
}

/// What `Package.swift` and the imports of `Sources/` say about the layers, as findings that name
/// the file and line to change.
struct PackageLayering {
    enum Layer: Int, Comparable, CustomStringConvertible {
        case cModule, swiftModule, application, executable

        static func < (lhs: Layer, rhs: Layer) -> Bool { lhs.rawValue < rhs.rawValue }

        var description: String {
            switch self {
            case .cModule: "a C module"
            case .swiftModule: "a Swift module"
            case .application: "the application layer"
            case .executable: "an executable"
            }
        }
    }

    struct Finding: CustomStringConvertible {
        var file: String
        var line: Int
        var message: String

        var description: String { "\(file):\(line): \(message)" }
    }

    /// Modules of the toolchain any target may import. Foundation is not among them: it costs every
    /// run of podcli megabytes of memory (LinkageTests).
    static let systemModules: Set<String> = ["FoundationEssentials", "Glibc", "Synchronization", "Dispatch"]
    /// EmbedSQL runs at build time and is not linked into podcli.
    static let moreSystemModules: [String: Set<String>] = ["EmbedSQL": ["Foundation"]]
    /// What tests may import besides: the test libraries, and Foundation (nothing of a test ships).
    static let testModules: Set<String> = ["Foundation", "Testing", "XCTest", "Darwin"]
    /// The one target between the executable and the modules.
    static let applicationTarget = "PodcliKit"

    let packageRoot: URL
    let manifest: PackageManifest

    init(packageRoot: URL) throws {
        self.packageRoot = packageRoot
        let text = try String(contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        manifest = try PackageManifest(text: text)
    }

    func findings() throws -> [Finding] {
        // Plugins run in SwiftPM; tests and their support sit above the layers and may import any
        // module they declare.
        let built = manifest.targets.filter { $0.kind != .plugin }
        let targets = built.filter { $0.directory.hasPrefix("Sources/") }
        var findings: [Finding] = []
        for test in built where !test.directory.hasPrefix("Sources/") {
            let allowed = Self.systemModules.union(Self.testModules)
            for file in try swiftFiles(in: test.directory) {
                let text = try String(contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8)
                for (line, module) in Self.imports(in: text)
                where !allowed.contains(module) && !test.dependencies.contains(where: { $0.name == module }) {
                    findings.append(Self.undeclared(module, by: test.name, at: file, line))
                }
            }
        }
        var layers: [String: Layer] = [:]
        var swiftFiles: [String: [String]] = [:]
        for target in targets {
            swiftFiles[target.name] = try self.swiftFiles(in: target.directory)
            layers[target.name] = layer(of: target, hasSwift: !(swiftFiles[target.name] ?? []).isEmpty)
        }
        for target in targets {
            guard let layer = layers[target.name] else { continue }
            let declared = Set(target.dependencies.map(\.name))
            for dependency in target.dependencies {
                guard let other = layers[dependency.name], Self.runsUp(from: layer, to: other) else { continue }
                findings.append(
                    Finding(
                        file: "Package.swift", line: dependency.line,
                        message: "\(target.name) (\(layer)) depends on \(dependency.name) (\(other)): "
                            + "dependencies run down the layers"))
            }
            var imported: Set<String> = []
            let allowed = Self.systemModules.union(Self.moreSystemModules[target.name] ?? [])
            for file in swiftFiles[target.name] ?? [] {
                let text = try String(contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8)
                for (line, module) in Self.imports(in: text) where !allowed.contains(module) {
                    imported.insert(module)
                    if let other = layers[module], Self.runsUp(from: layer, to: other) {
                        findings.append(
                            Finding(
                                file: file, line: line,
                                message: "\(target.name) (\(layer)) imports \(module) (\(other)): "
                                    + "imports run down the layers"))
                    }
                    if !declared.contains(module) {
                        findings.append(Self.undeclared(module, by: target.name, at: file, line))
                    }
                }
            }
            // A C module's dependencies are used by #include, which this does not read.
            guard layer != .cModule else { continue }
            for dependency in target.dependencies where !imported.contains(dependency.name) {
                findings.append(
                    Finding(
                        file: "Package.swift", line: dependency.line,
                        message: "\(target.name) declares \(dependency.name) and never imports it"))
            }
        }
        return findings
    }

    static func undeclared(_ module: String, by target: String, at file: String, _ line: Int) -> Finding {
        Finding(
            file: file, line: line,
            message: "\(target) imports \(module), which Package.swift does not declare among its dependencies")
    }

    /// Swift modules may import each other (SwiftPM refuses cycles), and C modules each other;
    /// nothing imports the application layer or an executable but what sits above it.
    static func runsUp(from layer: Layer, to other: Layer) -> Bool {
        other > layer || (other == layer && layer >= .application)
    }

    func layer(of target: PackageManifest.Target, hasSwift: Bool) -> Layer {
        if target.kind == .executableTarget { return .executable }
        if target.name == Self.applicationTarget { return .application }
        return hasSwift ? .swiftModule : .cModule
    }

    /// The package-relative paths of a directory's Swift files, sorted.
    func swiftFiles(in directory: String) throws -> [String] {
        let url = packageRoot.appendingPathComponent(directory)
        guard let paths = FileManager.default.subpaths(atPath: url.path) else { return [] }
        return paths.filter { $0.hasSuffix(".swift") }.sorted().map { directory + "/" + $0 }
    }

    /// The line and module of every import: `import X`, `import struct X.Y`, `@testable import X`,
    /// `@_implementationOnly import X`, `public import X`; not the lines of a multi-line string.
    static func imports(in text: String) -> [(line: Int, module: String)] {
        let modifiers: Set<Substring> = ["public", "package", "internal", "fileprivate", "private"]
        let kinds: Set<Substring> = ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let"]
        var result: [(line: Int, module: String)] = []
        var inMultilineString = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let wasInString = inMultilineString
            // `\"""` inside a multi-line string is three quotes, not its end.
            let unescaped = line.replacingOccurrences(of: "\\\"\"\"", with: "")
            if unescaped.components(separatedBy: "\"\"\"").count % 2 == 0 { inMultilineString.toggle() }
            guard !wasInString else { continue }
            var words = line.split(whereSeparator: \.isWhitespace)[...]
            while let first = words.first, first.hasPrefix("@") || modifiers.contains(first) { words.removeFirst() }
            guard words.first == "import" else { continue }
            words.removeFirst()
            if let first = words.first, kinds.contains(first) { words.removeFirst() }
            guard let path = words.first, let module = path.split(separator: ".").first else { continue }
            result.append((index + 1, String(module.trimmingCharacters(in: CharacterSet(charactersIn: ";")))))
        }
        return result
    }
}
