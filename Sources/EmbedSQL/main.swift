import Foundation

let args = CommandLine.arguments.dropFirst()
let output = args.first!
var text =
    "// Generated from Migrations/*.sql by the EmbedMigrations plugin. Do not edit.\nlet embeddedMigrations: [(name: String, sql: String)] = [\n"
for path in args.dropFirst().sorted() {
    let name = URL(fileURLWithPath: path).lastPathComponent
    let sql = try String(contentsOfFile: path, encoding: .utf8)
    text += "  (name: \(String(reflecting: name)), sql: \(String(reflecting: sql))),\n"
}
text += "]\n"
try text.write(toFile: output, atomically: true, encoding: .utf8)
