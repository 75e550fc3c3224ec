#if canImport(Glibc)
    import Glibc
#endif

/// A real pseudo-terminal pair for a test, closed when the test lets go of it.
final class Pty {
    let master: Int32
    let slave: Int32

    init(columns: UInt16 = 0) throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        var size = winsize(ws_row: 24, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &size) == 0 else { throw PtyError(errno: errno) }
        self.master = master
        self.slave = slave
    }

    deinit {
        close(slave)
        close(master)
    }

    /// The slave's local flags, as a program on that terminal sees them.
    func localFlags() -> tcflag_t {
        var settings = termios()
        _ = tcgetattr(slave, &settings)
        return settings.c_lflag
    }

    func controlCharacter(_ index: Int32) -> UInt8 {
        var settings = termios()
        _ = tcgetattr(slave, &settings)
        return withUnsafeBytes(of: &settings.c_cc) { $0[Int(index)] }
    }
}

struct PtyError: Error {
    let errno: Int32
}

/// Both ends of a pipe, which is not a terminal.
func withPipe(_ body: (_ read: Int32, _ write: Int32) throws -> Void) rethrows {
    var ends: [Int32] = [-1, -1]
    precondition(pipe(&ends) == 0)
    defer {
        close(ends[0])
        close(ends[1])
    }
    try body(ends[0], ends[1])
}
