import Downloads
import Synchronization

/// The free space `sync`'s downloads have claimed while they run, so that together they keep
/// `min-free` free: each download reserves the length its feed announced when it starts and
/// gives it back when it ends. What the ones running have already written is both on the disk
/// and in the reservation, so the check errs on the side of the floor by at most their lengths.
public final class SpaceReservation: Sendable {
    private let floor: Int
    private let directory: String
    private let reserved = Mutex(0)

    /// - Parameters:
    ///   - floor: `min-free`, in bytes.
    ///   - directory: where the downloads are written.
    public init(floor: Int, directory: String) {
        self.floor = floor
        self.directory = directory
    }

    /// Reserves `bytes` for a download about to start; returns why it cannot, when what is free
    /// less what the others reserved would fall below the floor.
    public func reserve(_ bytes: Int) -> String? {
        guard floor > 0, let free = DownloadLimits.freeBytes(at: directory) else {
            reserved.withLock { $0 += bytes }
            return nil
        }
        return reserved.withLock { reserved in
            let left = free - reserved
            guard left - bytes >= floor else { return Self.shortage(free: left, floor: floor) }
            reserved += bytes
            return nil
        }
    }

    /// Gives back what a download that ended reserved.
    public func release(_ bytes: Int) { reserved.withLock { $0 -= bytes } }

    /// Why nothing more is downloaded: what is free, against the floor.
    public static func shortage(free: Int, floor: Int) -> String {
        "only \(Formatting.bytes(max(free, 0))) of the disk is free, and min-free keeps \(Formatting.bytes(floor)) "
            + "free; free some space or lower min-free"
    }
}
