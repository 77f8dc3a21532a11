import LayeredDefaults
import Synchronization

/// Collects what an observation delivers, as it comes, and lets a test await it without sleeping:
/// each wait resumes when the element it waits for arrives.
///
/// ```swift
/// @Test func theThemeIsObserved() async throws {
///     try await withIsolatedDefaults(.inMemory) { defaults, _ in
///         let themes = ObservedValues(defaults.changes(of: .key(.theme), initial: false))
///         defaults[.theme] = .dark
///         let delivered = try await themes.first(1)  // resumes when the change is delivered
///         #expect(delivered == [.dark])
///     }
/// }
/// ```
///
/// It consumes the sequence in a task of its own, from when it is made until it is released (which
/// cancels that task, and so ends a stream's observation). A stream that keeps only its newest element
/// (the default of `changes(of:)`) may drop one that comes before that task reads it, as for any slow
/// consumer: to see a stream's current value and then a change, wait for the current value
/// (`first(1)`) before making the change. For a callback (`observe(_:initial:handler:)`), yield into an
/// `AsyncStream`'s continuation and collect the stream.
public final class ObservedValues<Element: Sendable>: Sendable {
    // NB: the package's `Lock`, not `Mutex`, whose futex ThreadSanitizer does not see: `scripts/check-races.sh`
    // reported the waiters' accesses under it as a race.
    private let state = Lock(State())
    private let consumer = Lock<Task<Void, Never>?>(nil)

    private struct State {
        var elements: [Element] = []
        var ended = false
        var nextWaiter = 0
        var waiters: [Int: Waiter] = [:]
    }

    private struct Waiter {
        let isDone: @Sendable ([Element]) -> Bool
        let continuation: CheckedContinuation<[Element], any Error>
    }

    /// Starts collecting the elements of `sequence`; a failure of the sequence ends it.
    /// - Parameter sequence: what an observation delivers, e.g. `defaults.changes(of: .key(.fontSize))`.
    public init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Element {
        let task = Task { [weak self] in
            do {
                for try await element in sequence {
                    guard let self else { return }
                    self.received(element)
                }
            } catch {}
            self?.ended()
        }
        consumer.withLock { $0 = task }
    }

    deinit { consumer.withLock { $0?.cancel() } }

    /// Every element delivered so far, oldest first.
    public var elements: [Element] { state.withLock { $0.elements } }

    /// The first `count` elements, once that many have come.
    /// - Parameters:
    ///   - count: how many elements to wait for.
    ///   - timeout: how long to wait at most; it only bounds a failure. The default is 60 s, generous
    ///     for loaded machines.
    /// - Returns: the first `count` elements delivered.
    /// - Throws: ``ObservationWaitError`` when they have not come within `timeout`, or the sequence
    ///   ended first; `CancellationError` when the waiting task is cancelled.
    public func first(_ count: Int, timeout: Duration = .seconds(60)) async throws -> [Element] {
        Array(try await until(timeout: timeout) { $0.count >= count }.prefix(count))
    }

    /// Every element delivered so far, once `isDone` holds for them: it is asked now, then after each
    /// element that comes.
    ///
    /// ```swift
    /// let delivered = try await values.until { $0.last == 20 }
    /// ```
    /// - Parameters:
    ///   - timeout: how long to wait at most; it only bounds a failure. The default is 60 s, generous
    ///     for loaded machines.
    ///   - isDone: true when the elements so far are what the test waits for.
    /// - Returns: the elements delivered when `isDone` first held.
    /// - Throws: ``ObservationWaitError`` when `isDone` did not hold within `timeout`, or the sequence
    ///   ended first; `CancellationError` when the waiting task is cancelled.
    public func until(
        timeout: Duration = .seconds(60), _ isDone: @escaping @Sendable ([Element]) -> Bool
    ) async throws -> [Element] {
        try await ObservationWaitError.within(timeout) { try await self.wait(for: isDone) }
    }

    /// Suspends until `isDone` holds for the elements, the sequence ends, or this task is cancelled.
    private func wait(for isDone: @escaping @Sendable ([Element]) -> Bool) async throws -> [Element] {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let outcome: Result<[Element], any Error>? = state.withLock { state in
                    if isDone(state.elements) { return .success(state.elements) }
                    if state.ended { return .failure(ObservationWaitError.sequenceEnded(delivered: state.elements.count)) }
                    // NB: checked under the lock the cancellation handler takes: either it sees this
                    // waiter, or this sees the cancellation.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters[id] = Waiter(isDone: isDone, continuation: continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Records `element` and resumes the waiters it satisfies.
    private func received(_ element: Element) {
        let (satisfied, elements) = state.withLock { state in
            state.elements.append(element)
            let satisfied = state.waiters.filter { $0.value.isDone(state.elements) }
            for id in satisfied.keys { state.waiters[id] = nil }
            return (Array(satisfied.values), state.elements)
        }
        for waiter in satisfied { waiter.continuation.resume(returning: elements) }
    }

    /// Fails every waiter: nothing more will come.
    private func ended() {
        let (waiters, count) = state.withLock { state in
            state.ended = true
            defer { state.waiters = [:] }
            return (Array(state.waiters.values), state.elements.count)
        }
        for waiter in waiters { waiter.continuation.resume(throwing: ObservationWaitError.sequenceEnded(delivered: count)) }
    }
}
