import CSystem
import EpisodeStore
import Playback
import Threads

/// Measures downloaded files once they are complete (`AudioMeasurement`: the exact length, as the
/// player decodes it, and the EBU R128 loudness) on a thread of its own, one after another, and
/// records each (`Library.recordMeasurement`), while the downloads that made them go on. The
/// thread runs at a lower CPU priority, so transfers and a player come first.
public final class MeasuringWorker: Sendable {
    private let queue = JobQueue()
    private let thread: ServiceThread

    /// Starts the thread, which opens a library connection of its own in `libraryDirectory`.
    /// - Parameter warn: told, on the worker's thread, one line for a file that could not be
    ///   measured ("#3 Title: not measured: ..."); never a failure of its download.
    public init(libraryDirectory: String, warn: @escaping @Sendable (String) -> Void) {
        let queue = queue
        thread = ServiceThread(name: "podcli-measure") { stop in
            _ = csystem_lower_thread_priority(10)
            let library = Result { try Library(directory: libraryDirectory) }
            queue.markOpened()
            while let job = queue.take(unless: stop) {
                guard let warning = Self.measure(job.file, in: library) else { continue }
                warn("\(job.subject): not measured: \(warning)")
            }
        }
        // Opened before the caller goes on: a library opened while `sync` moves files to trash
        // could take a removal in progress for one that was killed.
        queue.waitUntilOpened()
    }

    deinit {
        queue.interrupt()
        thread.stop()
    }

    /// Hands over `file` (of the episode `subject` names: "#3 Title") to be measured.
    public func measure(_ file: EpisodeFile, subject: String) {
        queue.put(Job(file: file, subject: subject))
    }

    /// Waits until every file handed over is measured, then ends the thread.
    public func finish() {
        queue.close()
        thread.join()
    }

    /// Measures and records `file`; returns why it could not be, if that is worth telling (a file
    /// deleted or replaced meanwhile is not: the one replacing it is measured as its own).
    private static func measure(_ file: EpisodeFile, in library: Result<Library, any Error>) -> String? {
        do {
            let library = try library.get()
            let measured: AudioMeasurement
            do throws(DecoderError) {
                measured = try AudioMeasurement.measure(path: library.path(of: file))
            } catch {
                return try library.recordMeasurementFailure("\(error)", of: file) ? "\(error)" : nil
            }
            try library.recordMeasurement(
                EpisodeMeasurement(
                    frames: measured.frames, sampleRate: measured.sampleRate,
                    loudnessLUFS: measured.loudness?.integratedLUFS, truePeakDBTP: measured.loudness?.truePeakDBTP),
                of: file)
            return nil
        } catch {
            return "\(error)"
        }
    }

    private struct Job: Sendable {
        let file: EpisodeFile
        let subject: String
    }

    /// The files handed over and not yet measured, under one mutex.
    private final class JobQueue: @unchecked Sendable {
        // @unchecked: every field is touched only with `condition`'s mutex held.
        private var jobs: [Job] = []
        private var closed = false
        private var interrupted = false
        private var opened = false
        private let condition = Condition()

        func markOpened() {
            condition.withLock {
                opened = true
                condition.wakeAll()
            }
        }

        func waitUntilOpened() {
            condition.withLock { while !opened { condition.waitLocked() } }
        }

        func put(_ job: Job) {
            condition.withLock {
                jobs.append(job)
                condition.wakeOne()
            }
        }

        /// The next job, waiting for one; nil once closed and empty, or stopped.
        func take(unless stop: StopEvent) -> Job? {
            condition.withLock {
                while jobs.isEmpty && !closed && !interrupted { condition.waitLocked() }
                guard !interrupted, !stop.isSignalled, !jobs.isEmpty else { return nil }
                return jobs.removeFirst()
            }
        }

        /// No more jobs: the worker ends once it has done those it has.
        func close() {
            condition.withLock {
                closed = true
                condition.wakeAll()
            }
        }

        /// Stops at once: jobs not begun are dropped.
        func interrupt() {
            condition.withLock {
                interrupted = true
                condition.wakeAll()
            }
        }
    }
}
