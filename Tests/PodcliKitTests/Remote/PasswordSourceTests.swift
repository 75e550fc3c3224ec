import Foundation
import Testing

@testable import PodcliKit

/// The sync server's password: the environment's over the command's first line, and a command
/// that gives none said so in one line that names the setting and never holds what it printed.
@Suite struct PasswordSourceTests {
    @Test func theCommandsFirstLineIsThePasswordAndTheEnvironmentOverridesIt() throws {
        let command = "printf 'correct horse battery\\nsecond line\\n'"
        #expect(try PasswordSource.password(command: command, environment: [:]) == "correct horse battery")
        // A password with no newline after it, or a CRLF, is the same password.
        #expect(try PasswordSource.password(command: "printf 's3cret'", environment: [:]) == "s3cret")
        #expect(try PasswordSource.password(command: "printf 's3cret\\r\\n'", environment: [:]) == "s3cret")
        // Spaces are the password's own.
        #expect(try PasswordSource.password(command: "echo ' a b '", environment: [:]) == " a b ")
        let environment = [PasswordSource.environmentVariable: "from the environment"]
        #expect(try PasswordSource.password(command: "exit 1", environment: environment) == "from the environment")
        #expect(try PasswordSource.password(command: nil, environment: environment) == "from the environment")
    }

    @Test(arguments: [
        ("echo hunter2; exit 3", "gpodder-password-command exited with 3"),
        ("true", "gpodder-password-command printed no password"),
        ("echo; echo hunter2", "gpodder-password-command printed no password"),
        ("kill -9 $$", "gpodder-password-command was killed by a signal"),
    ])
    func aCommandThatGivesNoPasswordIsOneLineNamingTheSetting(command: String, message: String) throws {
        #expect {
            try PasswordSource.password(command: command, environment: [:])
        } throws: { error in
            "\(error)" == message && !"\(error)".contains("hunter2")
        }
    }

    @Test func noCommandAndNoVariableIsNoPassword() throws {
        #expect(throws: PodcliError.self) { try PasswordSource.password(command: nil, environment: [:]) }
        let empty = [PasswordSource.environmentVariable: ""]
        #expect {
            try PasswordSource.password(command: nil, environment: empty)
        } throws: { error in
            "\(error)".hasPrefix("gpodder-server is set but no password is: set gpodder-password-command")
        }
    }

    @Test func aCommandThatHangsIsKilledAtTheTimeLimit() throws {
        let started = Date()
        #expect {
            try PasswordSource.password(command: "echo hunter2; sleep 30; echo more", environment: [:], timeLimit: 0.5)
        } throws: { error in
            "\(error)" == "gpodder-password-command did not finish within 0.5 s"
        }
        #expect(Date().timeIntervalSince(started) < 10)
    }
}
