import Testing

@testable import Terminal

@Suite struct TerminalTests {
    @Test func columnsAreTheTerminalsWidth() throws {
        let pty = try Pty(columns: 73)
        #expect(Terminal.columns(of: pty.slave) == 73)
        #expect(Terminal.columns(of: pty.master) == 73)
    }

    @Test func columnsAreUnknownForAZeroSizedTerminalOrAPipe() throws {
        let pty = try Pty(columns: 0)
        #expect(Terminal.columns(of: pty.slave) == nil)
        withPipe { read, _ in #expect(Terminal.columns(of: read) == nil) }
        #expect(Terminal.columns(of: -1) == nil)
    }
}
