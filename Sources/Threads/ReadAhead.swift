/// Work done ahead, on a `ServiceThread` of its own, and handed over in order: the results of
/// items 0, 1, 2, ... of `count`, at most `capacity` of them made and not yet taken (so what waits
/// in memory is bounded). `import` fetches and parses feeds this way while it records the ones
/// before.
///
/// The thread ends when the last item is made, or when the owner stops it (`stop()`, or letting
/// it go): it is then told through its `StopEvent` and joined.
public final class ReadAhead<Element: Sendable>: Sendable {
    private let queue: Queue
    private let thread: ServiceThread

    /// Starts making items on a thread named `name`.
    /// - Parameter makeProducer: called once, on that thread, with the event that tells it to
    ///   stop (so what it makes there, a curl handle watching the event, stays there); returns
    ///   what makes item `index`.
    public init(
        name: String, count: Int, capacity: Int,
        makeProducer: @escaping @Sendable (StopEvent) -> (_ index: Int) -> Element
    ) {
        let queue = Queue(count: count, capacity: max(capacity, 1))
        self.queue = queue
        thread = ServiceThread(name: name) { stop in
            let produce = makeProducer(stop)
            while let index = queue.claim(unless: stop) {
                queue.put(produce(index), at: index)
            }
        }
    }

    deinit { stop() }

    /// The next item, in order, waiting for it if need be (after calling `beforeWaiting`); nil
    /// once all `count` have been taken.
    public func next(beforeWaiting: () throws -> Void = {}) rethrows -> Element? {
        if !queue.isNextMade { try beforeWaiting() }
        return queue.take()
    }

    /// Stops making items and waits for the thread to end (an item being made is told through
    /// the stop event; the thread waiting for room, through the queue). Items not taken are
    /// dropped.
    public func stop() {
        thread.stopEvent.signal()
        queue.interrupt()
        thread.join()
    }

    /// The items between the thread and the taker, under one mutex.
    private final class Queue: @unchecked Sendable {
        // @unchecked: every field is touched only with `condition`'s mutex held.
        private let count: Int
        private let capacity: Int
        private var made: [Int: Element] = [:]
        /// The next index to make, and the next to hand over.
        private var nextToMake = 0
        private var nextToTake = 0
        private var interrupted = false
        private let condition = Condition()

        init(count: Int, capacity: Int) {
            self.count = count
            self.capacity = capacity
        }

        /// The index to make next, once there is room for it; nil when all are made or the
        /// thread was told to stop.
        func claim(unless stop: StopEvent) -> Int? {
            condition.withLock {
                while nextToMake < count && nextToMake - nextToTake >= capacity && !interrupted {
                    condition.waitLocked()
                }
                guard nextToMake < count, !interrupted, !stop.isSignalled else { return nil }
                defer { nextToMake += 1 }
                return nextToMake
            }
        }

        func put(_ element: Element, at index: Int) {
            condition.withLock {
                made[index] = element
                condition.wakeAll()
            }
        }

        /// Whether `take` would return at once.
        var isNextMade: Bool {
            condition.withLock { nextToTake >= count || made.index(forKey: nextToTake) != nil }
        }

        func take() -> Element? {
            condition.withLock {
                guard nextToTake < count else { return nil }
                while made.index(forKey: nextToTake) == nil {
                    guard !interrupted else { return nil }
                    condition.waitLocked()
                }
                let element = made.removeValue(forKey: nextToTake)
                nextToTake += 1
                condition.wakeAll()
                return element
            }
        }

        func interrupt() {
            condition.withLock {
                interrupted = true
                condition.wakeAll()
            }
        }
    }
}
