/// A stage between the decoder and the device (after mpv's audio filters): PCM in, PCM out,
/// possibly in another format or at another pace. Not `Sendable`: one chain, one thread.
public protocol AudioFilter: AnyObject {
    /// Prepares for PCM in `input`; returns the format of what it gives out.
    func configure(_ input: AudioFormat) -> AudioFormat
    /// Filters whole frames. Returns `pcm` itself when filtered in place, or a buffer the filter
    /// owns; either is the caller's until its next call.
    func process(_ pcm: UnsafeMutableRawBufferPointer) -> UnsafeMutableRawBufferPointer
    /// The episode ended: gives out what the filter still holds (often nothing).
    func drain() -> UnsafeMutableRawBufferPointer
    /// Forgets what it holds: the next frames do not follow the last ones (a seek, a drop).
    func reset()
    /// Media frames taken in and not given out yet.
    var latency: Int { get }
}

/// The filters in the order the sound goes through them, the volume last; itself a filter.
public final class FilterChain: AudioFilter {
    private let filters: [any AudioFilter]
    /// What drained filters gave out, through the filters after them, one after the other.
    private var tail: UnsafeMutableRawBufferPointer = .init(start: nil, count: 0)

    public init(_ filters: [any AudioFilter], volume: SoftwareVolume) {
        self.filters = filters + [volume]
    }

    deinit { tail.deallocate() }

    public func configure(_ input: AudioFormat) -> AudioFormat {
        filters.reduce(input) { format, filter in filter.configure(format) }
    }

    public func process(_ pcm: UnsafeMutableRawBufferPointer) -> UnsafeMutableRawBufferPointer {
        process(pcm, from: 0)
    }

    public func drain() -> UnsafeMutableRawBufferPointer {
        var drained = 0
        for index in filters.indices {
            let out = process(filters[index].drain(), from: index + 1)
            guard !out.isEmpty else { continue }
            if drained + out.count > tail.count {
                let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: drained + out.count, alignment: 16)
                grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: tail[..<drained]))
                tail.deallocate()
                tail = grown
            }
            UnsafeMutableRawBufferPointer(rebasing: tail[drained...]).copyMemory(from: UnsafeRawBufferPointer(out))
            drained += out.count
        }
        return UnsafeMutableRawBufferPointer(rebasing: tail[..<drained])
    }

    public func reset() { for filter in filters { filter.reset() } }

    public var latency: Int { filters.reduce(0) { $0 + $1.latency } }

    /// `pcm` through the filters from `first` on.
    private func process(_ pcm: UnsafeMutableRawBufferPointer, from first: Int) -> UnsafeMutableRawBufferPointer {
        filters[first...].reduce(pcm) { pcm, filter in pcm.isEmpty ? pcm : filter.process(pcm) }
    }
}
