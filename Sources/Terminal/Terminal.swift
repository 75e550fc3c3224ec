import CSystem

/// Facts about the terminal the player draws on.
public enum Terminal {
    /// The terminal's width in columns, or nil when the descriptor is not a terminal or its size is
    /// unknown (some serial consoles and fresh ptys report 0).
    public static func columns(of descriptor: Int32) -> Int? {
        // ioctl is variadic, so Swift cannot call it: CSystem asks TIOCGWINSZ for us.
        let columns = csystem_terminal_columns(descriptor)
        return columns > 0 ? Int(columns) : nil
    }
}
