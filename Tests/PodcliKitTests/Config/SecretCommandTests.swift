import Foundation
import PodcliKit
import Testing

/// A `*-secret-command`'s first output line is the secret; a command that fails or prints none is
/// one error naming the setting, never what it printed.
@Suite struct SecretCommandTests {
    @Test func theFirstLineIsTheSecretWithoutItsSpaces() throws {
        #expect(try SecretCommand.firstLine(of: "printf '  s3cr|t \\nsecond\\n'", setting: "x-command") == "s3cr|t")
        #expect(try SecretCommand.firstLine(of: "printf 'no newline'", setting: "x-command") == "no newline")
        // The command reads nothing: stdin is /dev/null, so it cannot wait on the terminal.
        #expect(try SecretCommand.firstLine(of: "cat; echo done", setting: "x-command") == "done")
        // A line ended CRLF.
        #expect(try SecretCommand.firstLine(of: "printf 's3cret\\r\\n'", setting: "x-command") == "s3cret")
    }

    @Test func aCommandThatHangsIsKilledWithWhatItStartedAtTheTimeLimit() throws {
        let started = Date()
        #expect {
            try SecretCommand.firstLine(of: "echo leaked; sleep 30; echo more", setting: "x-command", timeLimit: 0.5)
        } throws: { error in
            "\(error)" == "x-command gave no secret: it did not finish within 0.5 s"
        }
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test(arguments: [
        ("echo leaked; exit 3", "x-command gave no secret: it exited with status 3"),
        ("echo; echo second", "x-command gave no secret: it printed no secret"),
        ("true", "x-command gave no secret: it printed no secret"),
        ("kill -9 $$", "x-command gave no secret: it was killed"),
        ("head -c 70000 /dev/zero | tr '\\0' x", "x-command gave no secret: it printed more than a line"),
    ])
    func aCommandThatGivesNoSecretSaysWhyAndNothingOfItsOutput(command: String, message: String) {
        do {
            let secret = try SecretCommand.firstLine(of: command, setting: "x-command")
            Issue.record("gave '\(secret)'")
        } catch {
            #expect(error.description == message)
            #expect(!error.description.contains("leaked"))
        }
    }
}
