// placeholder
public enum MediaDuration {
    public static func seconds(_ text: String) -> Double? { Double(text).flatMap { $0 > 0 ? $0 : nil } }
    public static func offset(_ text: String) -> Double? { Double(text) }
}
