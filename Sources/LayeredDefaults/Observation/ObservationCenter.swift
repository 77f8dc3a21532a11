import Dispatch
import Foundation
import Synchronization

/// The process's observations: re-evaluates them after every change made in this process and, while
/// any exist, every ``pollInterval`` to catch other processes' writes.
///
/// Evaluations run on the center's own thread, one at a time, so each observation sees its values in
/// order and a writer never waits for observers: a change only wakes that thread, and changes made
/// before an evaluation starts share it (coalesced). The check is cheap: an observation re-reads only
/// when its ``Defaults/ObservationStamp`` moved. A change whose keys are known (a write) wakes the
/// thread only when an observation watches one of them: writes to keys nobody watches cost the writer
/// one lookup, and the observers nothing until the next poll.
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

    /// NB: held only briefly, never across an evaluation, so `remove` (and with it `cancel()`) never
    /// waits for one.
    private let registrations = Lock(Registrations())
    private let nextID = Atomic<UInt64>(1)
    private let count = Atomic<Int>(0)
    /// Wakes the evaluating thread.
    private let wakeup = DispatchSemaphore(value: 0)
    /// True while an evaluation is asked for and has not started yet.
    private let evaluationPending = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)

    /// The observations, and the keys they watch.
    private struct Registrations {
        /// Each observation's evaluation, by identifier, with the keys it watches (nil: every key).
        var observations: [UInt64: (keys: Set<String>?, evaluate: @Sendable () -> Void)] = [:]
        /// How many observations watch each key.
        var watchers: [String: Int] = [:]
        /// How many observations watch every key.
        var everyKeyWatchers = 0

        /// True when an observation watches a key of `keys`.
        func watch<Keys: Sequence<String>>(anyOf keys: Keys) -> Bool {
            everyKeyWatchers > 0 || keys.contains { watchers[$0] != nil }
        }

        /// Counts `keys` (nil: every key) as watched `delta` more times.
        mutating func count(_ keys: Set<String>?, _ delta: Int) {
            guard let keys else {
                everyKeyWatchers += delta
                return
            }
            for key in keys {
                let count = watchers[key, default: 0] + delta
                watchers[key] = count == 0 ? nil : count
            }
        }
    }

    /// Adds an observation of `keys` (nil: of every key); `evaluate` is called after every change that
    /// may concern them and on every poll.
    func add(keys: Set<String>?, _ evaluate: @escaping @Sendable () -> Void) -> UInt64 {
        let id = nextID.add(1, ordering: .relaxed).oldValue
        registrations.withLock { registrations in
            registrations.observations[id] = (keys, evaluate)
            registrations.count(keys, 1)
        }
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

    /// Removes an observation, and returns at once: it never waits for an evaluation. One running now
    /// may still call the observation's `evaluate`, once: the observation's own cancellation mark,
    /// checked there and again right before each delivery, keeps that call from reaching its handler.
    func remove(_ id: UInt64) {
        let removed = registrations.withLock { registrations in
            let removed = registrations.observations.removeValue(forKey: id)
            if let removed { registrations.count(removed.keys, -1) }
            return removed != nil
        }
        guard removed else { return }
        count.add(-1, ordering: .sequentiallyConsistent)
    }

    /// Evaluates every observation registered now, one after the other, on the calling thread (the
    /// center's own, so evaluations never overlap). Nothing is held while they run.
    private func evaluateEveryObservation() {
        let evaluations = registrations.withLock { $0.observations.values.map(\.evaluate) }
        for evaluate in evaluations { evaluate() }
    }

    /// Called after every change made through any ``Defaults`` in the process, with the keys it changed
    /// (nil: it may have changed any key): wakes the evaluating thread when an observation may be
    /// concerned, and returns at once.
    ///
    /// NB: an observation of other keys is not evaluated: its stamp moved, its value cannot have. The next
    /// poll re-reads it, as it would for another process's commit (which may have come with this change).
    /// - Returns: true when an evaluation is asked for (or was already pending).
    @discardableResult
    func changed<Keys: Sequence<String>>(keys: Keys?) -> Bool {
        guard count.load(ordering: .relaxed) > 0 else { return false }
        if let keys, !registrations.withLock({ $0.watch(anyOf: keys) }) { return false }
        if !evaluationPending.exchange(true, ordering: .acquiringAndReleasing) { wakeup.signal() }
        return true
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
            evaluateEveryObservation()
        }
    }
}
