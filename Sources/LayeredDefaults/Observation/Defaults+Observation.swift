import Dispatch
import Foundation

/// A running observation; it stops when cancelled or when this token is released.
public final class DefaultsObservation: Sendable {
    private let id: UInt64

    init(id: UInt64) { self.id = id }

    deinit { cancel() }

    /// Stops the observation: its handler is not called for changes seen after this returns.
    public func cancel() { ObservationCenter.shared.remove(id) }
}

extension Defaults {
    /// What can change the resolved values of an instance: its volatile changes and the databases it
    /// searches. Equal stamps mean nothing an observer could see has changed.
    struct ObservationStamp: Equatable {
        var changes: Int
        var fingerprints: [ChangeSignal.Fingerprint]
    }

    var observationStamp: ObservationStamp {
        let (changes, stores) = state.withLock { ($0.changeCount, $0.stores) }
        return ObservationStamp(changes: changes, fingerprints: (managed + stores).map(\.fingerprint))
    }

    /// Calls `handler` with the resolved value of `key` after each change that alters it: a write
    /// through any instance in this process, a registration, argument or suite change of this
    /// instance, or a write by another process (seen within 100 ms). No call when a change leaves the
    /// resolved value the same. Handlers run one at a time on a private serial queue.
    ///
    /// ```swift
    /// let observation = defaults.observe("theme") { value in print("theme:", value?.stringValue ?? "-") }
    /// // ... keep `observation`; release it or call cancel() to stop.
    /// ```
    /// - Returns: the token that keeps the observation alive.
    public func observe(_ key: String, handler: @escaping @Sendable (PreferenceValue?) -> Void) -> DefaultsObservation {
        observe(reading: { $0.lookup(key) }, emit: { value in ObservationCenter.shared.deliveryQueue.async { handler(value) } })
    }

    /// Calls `handler` with every resolved value (see ``resolvedValues()``) after each change that alters
    /// them (see ``observe(_:handler:)``).
    /// - Returns: the token that keeps the observation alive.
    public func observeAll(handler: @escaping @Sendable ([String: PreferenceValue]) -> Void) -> DefaultsObservation {
        observe(reading: { $0.resolve(failed: $0.report) }, emit: { values in ObservationCenter.shared.deliveryQueue.async { handler(values) } })
    }

    /// The resolved values of `key` after each change that alters it (see ``observe(_:handler:)``).
    /// The sequence ends when the consuming task is cancelled.
    public func changes(forKey key: String) -> AsyncStream<PreferenceValue?> {
        stream { $0.lookup(key) }
    }

    /// Every resolved value after each change that alters them (see ``observeAll(handler:)``).
    public func changes() -> AsyncStream<[String: PreferenceValue]> {
        stream { $0.resolve(failed: $0.report) }
    }

    /// The values of a typed key (its default when nothing usable is stored) after each change that
    /// alters it.
    public func changes<Value: Equatable>(for key: Key<Value>) -> AsyncStream<Value> {
        stream { $0[key] }
    }

    private func stream<T: Equatable & Sendable>(_ read: @escaping @Sendable (Defaults) -> T) -> AsyncStream<T> {
        let (stream, continuation) = AsyncStream.makeStream(of: T.self, bufferingPolicy: .unbounded)
        let observation = observe(reading: read, emit: { continuation.yield($0) })
        continuation.onTermination = { _ in observation.cancel() }
        return stream
    }

    /// Registers an observation that re-reads with `read` when the stamp moved and calls `emit`
    /// (under the center's evaluation lock, so in order) when the value differs from the last one.
    func observe<T: Equatable & Sendable>(
        reading read: @escaping @Sendable (Defaults) -> T, emit: @escaping @Sendable (T) -> Void
    ) -> DefaultsObservation {
        let last = LastSeen(stamp: observationStamp, value: read(self))
        let id = ObservationCenter.shared.add { [self] in
            let stamp = observationStamp
            guard last.state.withLock({ $0.stamp != stamp }) else { return }
            let value = read(self)
            let changed = last.state.withLock { last in
                defer { last = (stamp, value) }
                return last.value != value
            }
            if changed { emit(value) }
        }
        return DefaultsObservation(id: id)
    }
}

/// What an observation saw last.
private final class LastSeen<T: Sendable>: Sendable {
    let state: Lock<(stamp: Defaults.ObservationStamp, value: T)>
    init(stamp: Defaults.ObservationStamp, value: T) { state = Lock((stamp, value)) }
}
