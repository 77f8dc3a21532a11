import Dispatch
import Foundation
import Synchronization

/// A running observation; it stops when cancelled or when this token is released.
public final class DefaultsObservation: Sendable {
    private let id: UInt64
    private let cancelled = Atomic<Bool>(false)

    init(id: UInt64) { self.id = id }

    deinit { cancel() }

    /// Stops the observation: its handler is not called for changes seen after this returns.
    ///
    /// Called from inside a transaction's body, or from the error handler while an evaluation reports
    /// to it, it does not wait for an evaluation running now (which may need the body's store): that
    /// evaluation may still call the handler once.
    public func cancel() { stop(waitingForEvaluation: true) }

    /// Stops the observation; with `waitingForEvaluation` false, an evaluation running now may still
    /// emit once after this returns.
    ///
    /// NB: a stream stops without waiting: its termination handler runs inside `Task.cancel()`, holding
    /// the consumer task's status lock, which the observation thread needs to yield to that task; waiting
    /// for that thread's evaluation would deadlock both (and with them every observation of the process).
    /// A finished stream drops a late yield anyway.
    func stop(waitingForEvaluation: Bool) {
        cancelled.store(true, ordering: .releasing)
        ObservationCenter.shared.remove(id, waitingForEvaluation: waitingForEvaluation)
    }

    /// True once ``cancel()`` was called.
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
}

extension Defaults {
    /// What can change the resolved values of an instance: its volatile changes and the databases it
    /// searches. Equal stamps mean nothing an observer could see has changed.
    struct ObservationStamp: Equatable {
        var changes: Int
        var fingerprints: [ChangeSignal.Fingerprint]
    }

    var observationStamp: ObservationStamp {
        let changes = changeGeneration.load(ordering: .acquiring)
        let stores = withSearchList { $0.stores }
        return ObservationStamp(changes: changes, fingerprints: (managed + stores).map(\.fingerprint))
    }

    /// The database files an observation of this instance searches now (the stores of its stamp that
    /// have a file): another process's commit to one of them is seen through their directories' events.
    var observedDatabases: [String] {
        let stores = withSearchList { $0.stores }
        return (managed + stores).compactMap(\.path)
    }

    /// What a stream keeps for a consumer that is slower than the changes: by default only the newest
    /// value (`.bufferingNewest(1)`), so memory never grows; the last value is always delivered.
    public typealias BufferingPolicy<Element> = AsyncStream<Element>.Continuation.BufferingPolicy

    /// Calls `handler` with the resolved value of `key` after each change that alters it: a write
    /// through any instance in this process, a registration, argument or suite change of this
    /// instance, or a write by another process (seen as it commits; within 100 ms where its directory cannot be
    /// watched: not Linux, no inotify). No call when a change leaves the
    /// resolved value the same. Handlers run one at a time on a private serial queue.
    ///
    /// Changes are coalesced: of several changes made in quick succession (100 threads writing at
    /// once), intermediate values may be skipped, but the last value is always delivered, and never
    /// twice in a row.
    ///
    /// ```swift
    /// let observation = defaults.observe("theme") { value in print("theme:", value?.stringValue ?? "-") }
    /// // ... keep `observation`; release it or call cancel() to stop.
    /// ```
    /// - Parameters:
    ///   - key: the key to watch.
    ///   - initial: also call `handler` with the current value, first (default: only changes).
    ///   - handler: receives the resolved value (nil: no domain holds the key).
    /// - Returns: the token that keeps the observation alive.
    public func observe(
        _ key: String, initial: Bool = false, handler: @escaping @Sendable (PreferenceValue?) -> Void
    ) -> DefaultsObservation {
        observe(
            initial: initial, keys: [key], reading: { $0.lookup(key) },
            emit: { value in ObservationCenter.shared.deliveryQueue.async { handler(value) } })
    }

    /// Calls `handler` with the value of a typed key (its default when nothing usable is stored) after
    /// each change that alters it (see `observe(_:initial:handler:)`).
    ///
    /// ```swift
    /// let observation = defaults.observe(.fontSize) { (size: Int) in print("font size:", size) }
    /// ```
    /// - Parameters:
    ///   - key: the typed key to watch.
    ///   - initial: also call `handler` with the current value, first (default: only changes).
    ///   - handler: receives the key's value.
    /// - Returns: the token that keeps the observation alive.
    public func observe<Value: Equatable>(
        _ key: Key<Value>, initial: Bool = false, handler: @escaping @Sendable (Value) -> Void
    ) -> DefaultsObservation {
        observe(
            initial: initial, keys: [key.name], reading: { $0[key] },
            emit: { value in ObservationCenter.shared.deliveryQueue.async { handler(value) } })
    }

    /// Calls `handler` with every resolved value (see ``resolvedValues()``) after each change that alters
    /// them (see `observe(_:initial:handler:)`).
    /// - Returns: the token that keeps the observation alive.
    public func observeAll(handler: @escaping @Sendable ([String: PreferenceValue]) -> Void) -> DefaultsObservation {
        observe(
            initial: false, keys: nil, reading: { $0.resolve(failed: $0.report) },
            emit: { values in ObservationCenter.shared.deliveryQueue.async { handler(values) } })
    }

    /// The resolved value of `key` now (unless `initial` is false), then after each change that alters
    /// it (coalesced, see `observe(_:initial:handler:)`). The sequence ends when the consuming task
    /// is cancelled.
    ///
    /// ```swift
    /// for await theme in defaults.changes(forKey: "theme") { apply(theme) }  // applies the current theme first
    /// ```
    public func changes(
        forKey key: String, initial: Bool = true, bufferingPolicy: BufferingPolicy<PreferenceValue?> = .bufferingNewest(1)
    ) -> AsyncStream<PreferenceValue?> {
        stream(initial: initial, keys: [key], bufferingPolicy: bufferingPolicy) { $0.lookup(key) }
    }

    /// The resolved values of `keys` (a key no domain holds is absent) now (unless `initial` is
    /// false), then after each change that alters any of them: one stream for a set of keys.
    ///
    /// ```swift
    /// for await values in defaults.changes(forKeys: ["sort", "fontSize"]) { relayout(values) }
    /// ```
    public func changes(
        forKeys keys: Set<String>, initial: Bool = true,
        bufferingPolicy: BufferingPolicy<[String: PreferenceValue]> = .bufferingNewest(1)
    ) -> AsyncStream<[String: PreferenceValue]> {
        stream(initial: initial, keys: keys, bufferingPolicy: bufferingPolicy) { defaults in
            keys.reduce(into: [:]) { values, key in values[key] = defaults.lookup(key) }
        }
    }

    /// Every resolved value now (unless `initial` is false), then after each change that alters them
    /// (see ``observeAll(handler:)``).
    public func changes(
        initial: Bool = true, bufferingPolicy: BufferingPolicy<[String: PreferenceValue]> = .bufferingNewest(1)
    ) -> AsyncStream<[String: PreferenceValue]> {
        stream(initial: initial, keys: nil, bufferingPolicy: bufferingPolicy) { $0.resolve(failed: $0.report) }
    }

    /// The value of a typed key (its default when nothing usable is stored; an optional key's nil
    /// when nothing is stored) now (unless `initial` is false), then after each change that alters it.
    ///
    /// ```swift
    /// for await size in defaults.changes(for: .fontSize) { editor.fontSize = size }
    /// ```
    public func changes<Value: Equatable>(
        for key: Key<Value>, initial: Bool = true, bufferingPolicy: BufferingPolicy<Value> = .bufferingNewest(1)
    ) -> AsyncStream<Value> {
        stream(initial: initial, keys: [key.name], bufferingPolicy: bufferingPolicy) { $0[key] }
    }

    private func stream<T: Equatable & Sendable>(
        initial: Bool, keys: Set<String>?, bufferingPolicy: BufferingPolicy<T>, _ read: @escaping @Sendable (Defaults) -> T
    ) -> AsyncStream<T> {
        let (stream, continuation) = AsyncStream.makeStream(of: T.self, bufferingPolicy: bufferingPolicy)
        let observation = observe(initial: initial, keys: keys, reading: read, emit: { continuation.yield($0) })
        continuation.onTermination = { _ in observation.stop(waitingForEvaluation: false) }
        return stream
    }

    /// Registers an observation that re-reads with `read` when the stamp moved and calls `emit`
    /// (under the center's evaluation lock, so in order) when the value differs from the last one;
    /// with `initial`, `emit` first receives the value read now, before any change. `read` must depend
    /// on `keys` only (nil: on any key): a change of other keys does not evaluate it.
    func observe<T: Equatable & Sendable>(
        initial: Bool = false, keys: Set<String>?, reading read: @escaping @Sendable (Defaults) -> T,
        emit: @escaping @Sendable (T) -> Void
    ) -> DefaultsObservation {
        let last = LastSeen(stamp: observationStamp, value: read(self))
        if initial { emit(last.state.withLock { $0.value }) }
        let id = ObservationCenter.shared.add(keys: keys, databases: { [self] in observedDatabases }) { [self] in
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
