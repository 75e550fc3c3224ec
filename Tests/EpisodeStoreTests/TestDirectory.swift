import Foundation

/// A fresh directory under the system temporary directory, deleted when released.
final class TestDirectory {
    let path: String

    init() {
        let base = URL(fileURLWithPath: NSTemporaryDirectory()).standardizedFileURL.path
        var template = Array((base + "/podcli-store-XXXXXX").utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
