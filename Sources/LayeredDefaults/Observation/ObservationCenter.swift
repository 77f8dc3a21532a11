import Dispatch
import Foundation
import Synchronization

/// The process's observations: re-evaluates them after every change made in this process and, while
/// any exist, every ``pollInterval`` to catch other processes' writes.
///
/// Evaluations run on the center's own thread, one at a time, so each observation sees its values in
/// order and a writer never waits for observers: a change only wakes that thread, and changes made
/// before an evaluation starts share it (coalesced). The check is cheap: an observation re-reads only
/// when its ``Defaults/ObservationStamp`` moved.
///
/// NB: a thread of its own, not a dispatch queue: a queue's work waits for a worker of dispatch's small
/// pool, which threads blocked elsewhere in the app (or in parallel tests) can hold for seconds.
final class ObservationCenter: Sendable {
    static let shared = ObservationCenter()

    /// How often observations look for other processes' writes: such a write is seen within this
    /// bound (plus the time to read the changed value).
    static let pollInterval: DispatchTimeInterval = .milliseconds(100)

    /// Callbacks are delivered here, serially, in the order the changes were seen.
    let deliveryQueue = DispatchQueue(label: "LayeredDefaults.observation")

    private let registrations = Lock<[UInt64: @Sendable () -> Void]>([:])
    /// Held while an evaluation runs, so that ``remove(_:)`` can wait one out.
    private let evaluation = Lock(())
    private let nextID = Atomic<UInt64>(1)
    private let count = Atomic<Int>(0)
    /// Wakes the evaluating thread.
    private let wakeup = DispatchSemaphore(value: 0)
    /// True while an evaluation is asked for and has not started yet.
    private let evaluationPending = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)

    /// Adds an observation; `evaluate` is called after every change and on every poll.
    func add(_ evaluate: @escaping @Sendable () -> Void) -> UInt64 {
        let id = nextID.add(1, ordering: .relaxed).oldValue
        registrations.withLock { $0[id] = evaluate }
        count.add(1, ordering: .sequentiallyConsistent)
        if !started.exchange(true, ordering: .acquiringAndReleasing) {
            let thread = Thread { [self] in run() }
            thread.name = "LayeredDefaults.observation"
            thread.start()
        } else {
            wakeup.signal()  // from waiting for a first observation to polling
        }
        return id
    }

    /// Removes an observation; it is not evaluated again once this returns.
    func remove(_ id: UInt64) {
        guard registrations.withLock({ $0.removeValue(forKey: id) }) != nil else { return }
        evaluation.withLock { _ in }  // wait out an evaluation that may be running it
        count.add(-1, ordering: .sequentiallyConsistent)
    }

    /// Called after every change made through any ``Defaults`` in the process: wakes the evaluating
    /// thread and returns at once.
    func changed() {
        guard count.load(ordering: .relaxed) > 0,
            !evaluationPending.exchange(true, ordering: .acquiringAndReleasing)
        else { return }
        wakeup.signal()
    }

    /// The evaluating thread: waits for a change (or, while observations exist, at most one poll
    /// interval), then evaluates every observation.
    private func run() -> Never {
        while true {
            if count.load(ordering: .sequentiallyConsistent) == 0 {
                wakeup.wait()
            } else {
                _ = wakeup.wait(timeout: .now() + Self.pollInterval)
            }
            // NB: cleared before evaluating, so a change made from here on asks for another evaluation.
            evaluationPending.store(false, ordering: .sequentiallyConsistent)
            evaluation.withLock { _ in
                let evaluations = registrations.withLock { Array($0.values) }
                for evaluate in evaluations { evaluate() }
            }
        }
    }
}
