import Digest
import Dispatch

/// A SHA-256 fed on a second thread, so hashing a buffer overlaps with writing it and receiving
/// the next one. Updates are applied in order.
///
/// The caller promises that the bytes of an `update` stay valid and unchanged until the next
/// `waitForUpdates()`; `PartialFile` keeps that promise by alternating two buffers.
final class BackgroundHasher: @unchecked Sendable {
    // @unchecked: `digest` is touched only on `queue`, or after `group.wait()` has ordered every
    // earlier update before the caller's access.
    private var digest = SHA256()
    private let queue = DispatchQueue(label: "podcli.sha256")
    private let group = DispatchGroup()

    /// Bytes handed to the other thread; valid per the promise above.
    private struct Bytes: @unchecked Sendable { let buffer: UnsafeRawBufferPointer }

    func update(_ buffer: UnsafeRawBufferPointer) {
        let bytes = Bytes(buffer: buffer)
        queue.async(group: group) { self.digest.update(bytes.buffer) }
    }

    /// Returns once every update so far is hashed, so its buffer may be reused.
    func waitForUpdates() { group.wait() }

    /// Adds bytes at once, on the caller's thread.
    func updateNow(_ buffer: UnsafeRawBufferPointer) {
        waitForUpdates()
        digest.update(buffer)
    }

    /// The hex digest of everything added. Call once.
    func finalize() -> String {
        waitForUpdates()
        return digest.finalize()
    }

    /// Starts over with an empty digest.
    func reset() {
        waitForUpdates()
        digest = SHA256()
    }
}
