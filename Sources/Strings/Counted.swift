/// Words that agree with a number, for the messages every module words: "1 file differs",
/// "2 files differ", "1 byte". The one place the English rule is written.
public enum Counted {
    /// (1, "file") → "1 file", (3, "file") → "3 files".
    public static func noun(_ count: Int, _ singular: String) -> String {
        "\(count) " + agreeing(with: count, singular, singular + "s")
    }

    /// (1, "differs", "differ") → "differs": the form that agrees with `count`.
    public static func agreeing(with count: Int, _ one: String, _ other: String) -> String {
        count == 1 ? one : other
    }
}
