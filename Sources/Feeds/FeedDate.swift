// placeholder until the real parser lands
public enum FeedDate { public static func parse(_ text: String) -> Int64? { nil } }
