import Playback
import Terminal

/// What each key does while playing.
public struct Keymap: Sendable {
    public var skipBack: Double
    public var skipForward: Double

    public init(skipBack: Double, skipForward: Double) {
        self.skipBack = skipBack
        self.skipForward = skipForward
    }

    public func command(for key: Key) -> PlayerCommand? {
        switch key {
        case .space: return .togglePause
        case .left: return .seek(by: -skipBack)
        case .right: return .seek(by: skipForward)
        case .character(","): return .seek(by: -5)
        case .character("."): return .seek(by: 5)
        case .up: return .changeVolume(by: 5)
        case .down: return .changeVolume(by: -5)
        case .character("n"): return .next
        case .character("p"): return .previous
        case .character("m"): return .markPlayed
        case .character("b"): return .bookmark(note: nil, ticket: nil)
        case .character("<"): return .previousChapter
        case .character(">"): return .nextChapter
        case .character("["): return .changeSpeed(by: -0.1)
        case .character("]"): return .changeSpeed(by: 0.1)
        case .character("\\"): return .setSpeed(1)
        case .character("z"): return .cycleSleepTimer
        case .character("q"): return .quit
        default: return nil
        }
    }
}
