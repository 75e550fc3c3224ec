import Testing

@testable import Terminal

#if canImport(Glibc)
    import Glibc
#endif

/// TerminalMode on a real pseudo-terminal: what a program reading the slave end would see.
@Suite struct TerminalModeTests {
    static let rawFlags = tcflag_t(ICANON | ECHO | IEXTEN)

    @Test func entersRawModeKeepingSignals() throws {
        let pty = try Pty()
        let mode = try #require(TerminalMode(descriptor: pty.slave))
        #expect(pty.localFlags() & Self.rawFlags == Self.rawFlags)

        try mode.enterRaw()
        #expect(mode.isRaw)
        #expect(pty.localFlags() & Self.rawFlags == 0)
        #expect(pty.localFlags() & tcflag_t(ISIG) != 0)
        #expect(pty.controlCharacter(VMIN) == 1)
        #expect(pty.controlCharacter(VTIME) == 0)
    }

    @Test func restoreBringsBackTheSavedModeAndCanBeRepeated() throws {
        let pty = try Pty()
        let before = pty.localFlags()
        let mode = try #require(TerminalMode(descriptor: pty.slave))
        try mode.enterRaw()

        mode.restore()
        #expect(pty.localFlags() == before)
        #expect(!mode.isRaw)
        mode.restore()
        #expect(pty.localFlags() == before)

        // Raw again after a restore, as after SIGCONT.
        try mode.enterRaw()
        #expect(pty.localFlags() & Self.rawFlags == 0)
    }

    @Test func deinitRestores() throws {
        let pty = try Pty()
        let before = pty.localFlags()
        do {
            let mode = try #require(TerminalMode(descriptor: pty.slave))
            try mode.enterRaw()
            #expect(pty.localFlags() != before)
        }
        #expect(pty.localFlags() == before)
    }

    @Test func isNilForAPipe() {
        withPipe { read, write in
            #expect(TerminalMode(descriptor: read) == nil)
            #expect(TerminalMode(descriptor: write) == nil)
        }
    }
}
