import Testing

@testable import PodcliKit

/// The sync server's password: the environment's over the command's first line, and a command
/// that gives none said so in one line that names the setting and never holds what it printed.
@Suite struct PasswordSourceTests {
    @Test func theCommandsFirstLineIsThePasswordAndTheEnvironmentOverridesIt() throws {
        let command = "printf 'correct horse battery\\nsecond line\\n'"
        #expect(try PasswordSource.password(command: command, environment: [:]) == "correct horse battery")
        let environment = [PasswordSource.environmentVariable: "from the environment"]
        #expect(try PasswordSource.password(command: "exit 1", environment: environment) == "from the environment")
        #expect(try PasswordSource.password(command: nil, environment: environment) == "from the environment")
    }

    @Test func aCommandThatGivesNoPasswordIsOneLineNamingTheSetting() throws {
        #expect {
            try PasswordSource.password(command: "echo hunter2; exit 3", environment: [:])
        } throws: { error in
            "\(error)" == "gpodder-password-command gave no secret: it exited with status 3"
        }
    }

    @Test func noCommandAndNoVariableIsNoPassword() throws {
        let empty = [PasswordSource.environmentVariable: ""]
        #expect {
            try PasswordSource.password(command: nil, environment: empty)
        } throws: { error in
            "\(error)".hasPrefix("gpodder-server is set but no password is: set gpodder-password-command")
        }
    }
}
