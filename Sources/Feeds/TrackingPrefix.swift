// placeholder
public enum TrackingPrefix { public static func strip(_ url: String) -> String { url } }
