/// A key press read from a terminal, as a player binds it.
public enum Key: Equatable, Hashable, Sendable {
    /// A printable character, one per Unicode scalar typed; never a space or a control character.
    case character(Character)
    case space
    /// Return or Enter, whether the terminal sends CR or (with ICRNL, the default) LF.
    case enter
    case up
    case down
    case left
    case right
    /// Escape on its own, told apart from the start of a sequence only by `KeyDecoder.flush()`.
    case escape
    /// Any other C0 control byte or DEL, e.g. 0x09 for Tab, 0x0C for ^L, 0x7F for Backspace.
    case control(UInt8)
}
