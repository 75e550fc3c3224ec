/// The gain of `TruePeakLimiter` from frame to frame. Each interval between two frames asks a
/// gain (what keeps its peak under the ceiling) of the frames within `reach` of it; a frame gets
/// the smallest gain asked of it or of the next `attack - 1` frames (a sliding minimum, kept as a
/// monotonic deque), averaged over the last `attack` frames, so the gain ramps down linearly
/// before a peak, never in a step, and is never above what any frame is asked; then it recovers
/// towards 1 with the release's time constant.
///
/// A value with storage of its own, freed by `deallocate()`: the limiter keeps it in a local
/// while it runs, as a stored property would cost an exclusivity check at every access.
struct LimiterEnvelope {
    let attack: Int
    let reach: Int
    /// Per frame, the share of the distance to unity gain the gain keeps while recovering.
    let releaseKeep: Double
    /// The intervals whose asked gains may still be the smallest of a window, as a ring: their
    /// indices and gains, the gains increasing from the oldest.
    private let askedIndex: UnsafeMutablePointer<Int>
    private let askedGain: UnsafeMutablePointer<Float>
    private let capacity: Int
    private var askedFirst = 0
    private var askedCount = 0
    /// The last `attack` window minima, as a ring, and their sum.
    private let minima: UnsafeMutablePointer<Double>
    private var minimaNext = 0
    private var minimaSum = 0.0
    /// The gain of the last frame.
    private(set) var gain = 1.0

    init(attack: Int, reach: Int, releaseKeep: Double) {
        self.attack = attack
        self.reach = reach
        self.releaseKeep = releaseKeep
        // A window holds the intervals within `reach` of `attack` frames, and one more is asked
        // before the oldest leaves it.
        capacity = attack + 2 * reach + 2
        askedIndex = .allocate(capacity: capacity)
        askedGain = .allocate(capacity: capacity)
        minima = .allocate(capacity: attack)
    }

    func deallocate() {
        askedIndex.deallocate()
        askedGain.deallocate()
        minima.deallocate()
    }

    /// Starts again before frame 0, at unity gain.
    mutating func reset() {
        askedCount = 0
        gain = 1
    }

    /// Interval `interval` (after every interval asked before) asks `asked` of the frames within
    /// `reach` of it.
    mutating func ask(_ asked: Float, of interval: Int) {
        while askedCount > 0, askedGain[slot(askedCount - 1)] >= asked { askedCount -= 1 }
        askedIndex[slot(askedCount)] = interval
        askedGain[slot(askedCount)] = asked
        askedCount += 1
    }

    /// The gain of `frame` (frames in order from 0), once every interval up to
    /// `frame + attack - 1 + reach` has asked.
    mutating func gain(of frame: Int) -> Double {
        while askedCount > 1, askedIndex[askedFirst] < frame - reach {
            askedFirst = askedFirst + 1 == capacity ? 0 : askedFirst + 1
            askedCount -= 1
        }
        let minimum = Double(askedGain[askedFirst])
        if frame == 0 {
            // Nothing before: the average starts full of this minimum, which holds for them all.
            for index in 0..<attack { minima[index] = minimum }
            minimaSum = minimum * Double(attack)
        }
        minimaSum += minimum - minima[minimaNext]
        minima[minimaNext] = minimum
        minimaNext = minimaNext + 1 == attack ? 0 : minimaNext + 1
        gain = min(minimaSum / Double(attack), 1 - (1 - gain) * releaseKeep)
        return gain
    }

    private func slot(_ offset: Int) -> Int {
        let index = askedFirst + offset
        return index < capacity ? index : index - capacity
    }
}
