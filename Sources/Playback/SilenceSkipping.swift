/// How much of the silences in an episode is skipped (after Pocket Casts' Trim Silence).
public enum SilenceSkipping: String, CaseIterable, Sendable {
    case off, mild, medium, aggressive
}
