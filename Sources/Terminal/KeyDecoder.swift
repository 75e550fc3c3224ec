/// Turns the bytes a raw-mode terminal sends into key presses, keeping any sequence a read split.
///
/// Understood: printable UTF-8, space, CR/LF as Enter, other control bytes, and the arrows in both
/// the CSI form (`ESC [ A`, normal cursor mode) and the SS3 form (`ESC O A`, application cursor
/// mode). Arrows with modifiers (`ESC [ 1 ; 5 C`, Ctrl+Right) decode as the plain arrow: a player
/// seeks the same way. Every other CSI or SS3 sequence (function keys, Home, PageUp, ...) is
/// swallowed whole so its bytes never come out as characters. ESC followed by anything else (Alt+key)
/// is an Escape and then that key. Invalid UTF-8 is dropped.
///
/// A lone ESC looks like the start of a sequence, so it stays pending until more bytes come or the
/// caller, after a short quiet time (mpv and vim wait tens of milliseconds), calls `flush()`.
public struct KeyDecoder: Sendable {
    private enum State: Sendable {
        case ground
        /// After ESC.
        case escape
        /// After ESC [: parameter and intermediate bytes are skipped until the final byte.
        case csi
        /// After ESC O: the next byte is the final one.
        case ss3
        /// Inside a multi-byte UTF-8 character: the bytes so far and how many the whole has.
        case utf8([UInt8], length: Int)
    }

    private var state = State.ground

    public init() {}

    /// The keys these bytes complete, in order. A sequence left unfinished is kept for the next call.
    public mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
        var keys: [Key] = []
        for byte in bytes { feed(byte, into: &keys) }
        return keys
    }

    /// Ends whatever is pending because no more bytes came: a pending ESC is the Escape key; a partial
    /// sequence or character is dropped.
    public mutating func flush() -> [Key] {
        defer { state = .ground }
        if case .escape = state { return [.escape] }
        return []
    }

    private mutating func feed(_ byte: UInt8, into keys: inout [Key]) {
        switch state {
        case .ground:
            ground(byte, into: &keys)
        case .escape:
            switch byte {
            case UInt8(ascii: "["): state = .csi
            case UInt8(ascii: "O"): state = .ss3
            default:
                keys.append(.escape)
                state = .ground
                ground(byte, into: &keys)
            }
        case .csi:
            switch byte {
            case 0x20...0x3F: break  // parameters ("1;5") and intermediates
            case 0x40...0x7E:
                if let arrow = Self.arrow(byte) { keys.append(arrow) }
                state = .ground
            default:  // not part of a sequence: drop the broken sequence, keep the byte
                state = .ground
                ground(byte, into: &keys)
            }
        case .ss3:
            state = .ground
            if (0x40...0x7E).contains(byte) {
                if let arrow = Self.arrow(byte) { keys.append(arrow) }
            } else {
                ground(byte, into: &keys)
            }
        case .utf8(var pending, let length):
            guard byte & 0xC0 == 0x80 else {
                state = .ground
                ground(byte, into: &keys)
                return
            }
            pending.append(byte)
            if pending.count < length {
                state = .utf8(pending, length: length)
                return
            }
            state = .ground
            // The decoding validates: overlong forms and surrogates become U+FFFD, dropped below.
            for scalar in String(decoding: pending, as: UTF8.self).unicodeScalars { append(scalar, to: &keys) }
        }
    }

    private mutating func ground(_ byte: UInt8, into keys: inout [Key]) {
        switch byte {
        case 0x1B: state = .escape
        case 0x0D, 0x0A: keys.append(.enter)
        case 0x20: keys.append(.space)
        case 0x00...0x1F, 0x7F: keys.append(.control(byte))
        case 0x21...0x7E: keys.append(.character(Character(Unicode.Scalar(byte))))
        case 0xC2...0xDF: state = .utf8([byte], length: 2)
        case 0xE0...0xEF: state = .utf8([byte], length: 3)
        case 0xF0...0xF4: state = .utf8([byte], length: 4)
        default: break  // a stray continuation byte or one that never starts UTF-8
        }
    }

    private func append(_ scalar: Unicode.Scalar, to keys: inout [Key]) {
        // C1 controls and the replacement for invalid input are not keys anyone typed.
        guard scalar.properties.generalCategory != .control, scalar != "\u{FFFD}" else { return }
        keys.append(.character(Character(scalar)))
    }

    private static func arrow(_ final: UInt8) -> Key? {
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        default: return nil
        }
    }
}
