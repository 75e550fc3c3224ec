import Foundation
import Testing

@testable import Playback

/// The filter stage: with every filter off the samples pass bit for bit, and a filter that
/// changes the pace leaves positions and `--for` in media time.
struct AudioFilterTests {
    /// Keeps every second frame (counted from the last reset), as a 2x speed would give out half
    /// the frames; holds nothing.
    final class HalvingFilter: AudioFilter {
        private var format = AudioFormat(sampleRate: 44_100, channels: 2)
        private var output = UnsafeMutableRawBufferPointer.allocate(byteCount: 0, alignment: 16)
        /// Whether the next frame in is one to keep.
        private var keepsNext = true

        deinit { output.deallocate() }

        func configure(_ input: AudioFormat) -> AudioFormat {
            format = input
            return input
        }

        func process(_ pcm: UnsafeMutableRawBufferPointer) -> UnsafeMutableRawBufferPointer {
            if output.count < pcm.count {
                output.deallocate()
                output = .allocate(byteCount: pcm.count, alignment: 16)
            }
            let size = format.bytesPerFrame
            var kept = 0
            for frame in 0..<(pcm.count / size) {
                defer { keepsNext.toggle() }
                guard keepsNext else { continue }
                UnsafeMutableRawBufferPointer(rebasing: output[(kept * size)...]).copyMemory(
                    from: UnsafeRawBufferPointer(rebasing: pcm[(frame * size)..<((frame + 1) * size)]))
                kept += 1
            }
            return UnsafeMutableRawBufferPointer(rebasing: output[..<(kept * size)])
        }

        func drain() -> UnsafeMutableRawBufferPointer { .init(start: nil, count: 0) }
        func reset() { keepsNext = true }
        var latency: Int { 0 }
    }

    /// Gives out each frame one frame late (a filter with latency), and the last one on drain.
    final class DelayFilter: AudioFilter {
        private var size = 4
        private var held: [UInt8] = []
        private var output = UnsafeMutableRawBufferPointer.allocate(byteCount: 0, alignment: 16)

        deinit { output.deallocate() }

        func configure(_ input: AudioFormat) -> AudioFormat {
            size = input.bytesPerFrame
            return input
        }

        func process(_ pcm: UnsafeMutableRawBufferPointer) -> UnsafeMutableRawBufferPointer {
            let all = held + Array(pcm)
            held = Array(all.suffix(size))
            return give(all.dropLast(size))
        }

        func drain() -> UnsafeMutableRawBufferPointer {
            defer { held = [] }
            return give(held[...])
        }

        func reset() { held = [] }
        var latency: Int { held.count / size }

        private func give(_ bytes: ArraySlice<UInt8>) -> UnsafeMutableRawBufferPointer {
            if output.count < bytes.count {
                output.deallocate()
                output = .allocate(byteCount: bytes.count, alignment: 16)
            }
            output.copyBytes(from: bytes)
            return UnsafeMutableRawBufferPointer(rebasing: output[..<bytes.count])
        }
    }

    static func samples(_ count: Int) -> [Int16] { (0..<count).map { Int16(truncatingIfNeeded: $0 &* 7919) } }

    /// Only the volume, at 100%: the chain gives back the very bytes it was given.
    @Test func theIdentityChainIsBitExact() {
        let chain = FilterChain([], volume: SoftwareVolume(percent: 100))
        let format = AudioFormat(sampleRate: 44_100, channels: 2)
        #expect(chain.configure(format) == format)
        var pcm = Self.samples(4_096)
        let original = pcm
        pcm.withUnsafeMutableBytes { bytes in
            let out = chain.process(bytes)
            #expect(out.baseAddress == bytes.baseAddress && out.count == bytes.count)
        }
        #expect(pcm == original)
        #expect(chain.drain().isEmpty && chain.latency == 0)
    }

    /// The volume is the chain's last filter: it scales what the filters before it gave out.
    @Test func theVolumeIsTheLastFilter() {
        let chain = FilterChain([HalvingFilter()], volume: SoftwareVolume(percent: 50))
        _ = chain.configure(AudioFormat(sampleRate: 44_100, channels: 1))
        var pcm = Self.samples(8)
        let out = pcm.withUnsafeMutableBytes { Array(chain.process($0).bindMemory(to: Int16.self)) }
        var expected = stride(from: 0, to: 8, by: 2).map { Self.samples(8)[$0] }
        expected.withUnsafeMutableBytes { SoftwareVolume.apply(50, to: $0) }
        #expect(out == expected)
    }

    /// A filter that gives out half the frames, through the player on a capture device: the
    /// device gets every second frame of `mpg123 -s`'s decode, `--for` counts media frames, and
    /// the position heard while playing and at the end is the media frame, not the device's.
    @Test(.requires(MPEGDecoderTests.mpg123Present, "mpg123 is not installed"))
    func aFilterThatHalvesTheFramesKeepsPositionsInMediaTime() throws {
        let capture = try PlayerTests.Capture()
        let decoder = try AudioDecoders.open(path: PlayerTests.stereo)
        decoder.seek(toFrame: 1_000)
        let output = PlayerTests.WatchedOutput(try ALSAOutput(device: capture.device, format: decoder.format))
        let commands = CommandQueue()
        let player = Player(
            decoder: decoder, device: AudioDevice(name: capture.device) { _, _ in output }, commands: commands,
            engine: PlaybackEngine(), limit: 44_100, filters: [HalvingFilter()])
        // After every write, a redraw: the player reports the position once it has counted the write.
        output.onWrite = { _ in commands.post(.redraw) }
        var drift: [Int] = []
        let reason = try player.play { status in
            let heard = output.framesWritten - output.unplayedFrames
            drift.append(status.position - (1_000 + 2 * heard))
        }
        #expect(reason == .limitReached)
        #expect(player.position == 45_100)
        #expect(player.clock.mediaFramesPlayed == 44_100)
        #expect(player.clock.deviceFramesPlayed == 22_050)
        #expect(drift.count > 10 && drift.allSatisfy { abs($0) <= 1 }, "\(drift)")
        let reference = try MPEGDecoderTests.reference(PlayerTests.stereo).dropFirst(4_000).prefix(44_100 * 4)
        let everySecond = stride(from: reference.startIndex, to: reference.endIndex, by: 8).flatMap {
            reference[$0..<($0 + 4)]
        }
        #expect(try capture.recorded() == Data(everySecond))
    }

    /// Filters that hold frames back give them out on drain, through the filters after them, in
    /// order: nothing lost, nothing repeated.
    @Test func drainingTheChainGivesOutWhatItsFiltersHeld() {
        let chain = FilterChain([DelayFilter(), DelayFilter()], volume: SoftwareVolume())
        _ = chain.configure(AudioFormat(sampleRate: 8_000, channels: 1))
        let input = Self.samples(1_000)
        var out: [Int16] = []
        for start in stride(from: 0, to: input.count, by: 300) {
            var chunk = Array(input[start..<min(start + 300, input.count)])
            out += chunk.withUnsafeMutableBytes { Array(chain.process($0).bindMemory(to: Int16.self)) }
        }
        #expect(chain.latency == 2)
        out += Array(chain.drain().bindMemory(to: Int16.self))
        #expect(out == input)
        #expect(chain.latency == 0 && chain.drain().isEmpty)
    }

    /// A filter that holds a frame back, through the player: the device gets `mpg123 -s`'s decode
    /// to the last sample (drained at the end), and the position at the end is the last frame.
    @Test(.requires(MPEGDecoderTests.mpg123Present, "mpg123 is not installed"))
    func aFilterWithLatencyIsDrainedAtTheEndAndPositionsStayInMediaTime() throws {
        let capture = try PlayerTests.Capture()
        let decoder = try AudioDecoders.open(path: PlayerTests.stereo)
        let output = try ALSAOutput(device: capture.device, format: decoder.format)
        let player = Player(
            decoder: decoder, device: AudioDevice(name: capture.device) { _, _ in output }, commands: CommandQueue(),
            engine: PlaybackEngine(), limit: nil, filters: [DelayFilter()])
        #expect(try player.play { _ in } == .endOfEpisode)
        let reference = try MPEGDecoderTests.reference(PlayerTests.stereo)
        #expect(try capture.recorded() == reference)
        #expect(player.position == reference.count / 4)
        #expect(player.clock.mediaFramesPlayed == reference.count / 4)
    }
}
