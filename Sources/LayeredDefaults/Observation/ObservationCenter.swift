import Dispatch
import Foundation
import Synchronization

/// The process's observations: re-evaluates them after every change made in this process and, while
/// any exist, every ``pollInterval`` to catch other processes' writes.
///
/// Evaluations run one at a time (under `evaluation`), so each observation sees its values in order.
/// The check is cheap: an observation re-reads only when its ``Defaults/ObservationStamp`` moved.
final class ObservationCenter: Sendable {
    static let shared = ObservationCenter()

    /// How often observations look for other processes' writes: such a write is seen within this
    /// bound (plus the time to read the changed value).
    static let pollInterval: DispatchTimeInterval = .milliseconds(100)

    /// Callbacks are delivered here, serially, in the order the changes were seen.
    let deliveryQueue = DispatchQueue(label: "LayeredDefaults.observation")

    private let registrations = Lock<[UInt64: @Sendable () -> Void]>([:])
    private let evaluation = Lock(())
    private let nextID = Atomic<UInt64>(1)
    private let count = Atomic<Int>(0)
    private let poller = Lock<(any DispatchSourceTimer)?>(nil)

    /// Adds an observation; `evaluate` is called after every change and on every poll.
    func add(_ evaluate: @escaping @Sendable () -> Void) -> UInt64 {
        let id = nextID.add(1, ordering: .relaxed).oldValue
        registrations.withLock { $0[id] = evaluate }
        if count.add(1, ordering: .sequentiallyConsistent).newValue == 1 { startPolling() }
        return id
    }

    /// Removes an observation; it is not evaluated again once this returns.
    func remove(_ id: UInt64) {
        guard registrations.withLock({ $0.removeValue(forKey: id) }) != nil else { return }
        evaluation.withLock { _ in }  // wait out an evaluation that may be running it
        if count.add(-1, ordering: .sequentiallyConsistent).newValue == 0 { stopPolling() }
    }

    /// Called after every change made through any ``Defaults`` in the process.
    func changed() {
        guard count.load(ordering: .relaxed) > 0 else { return }
        evaluateAll()
    }

    private func evaluateAll() {
        evaluation.withLock { _ in
            let evaluations = registrations.withLock { Array($0.values) }
            for evaluate in evaluations { evaluate() }
        }
    }

    private func startPolling() {
        poller.withLock { poller in
            guard poller == nil else { return }
            let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
            timer.schedule(deadline: .now() + Self.pollInterval, repeating: Self.pollInterval)
            timer.setEventHandler { [weak self] in self?.changed() }
            timer.resume()
            poller = timer
        }
    }

    private func stopPolling() {
        poller.withLock { poller in
            guard count.load(ordering: .sequentiallyConsistent) == 0 else { return }
            poller?.cancel()
            poller = nil
        }
    }
}
