import Foundation
import PackagePlugin

@main struct EmbedMigrations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let dir = context.package.directoryURL.appending(path: "Migrations")
        let files = try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "sql" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) migrations", executable: try context.tool(named: "EmbedSQL").url,
                arguments: [output.path] + files.map(\.path), inputFiles: files, outputFiles: [output])
        ]
    }
}
