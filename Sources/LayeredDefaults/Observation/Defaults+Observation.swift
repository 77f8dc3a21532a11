import Dispatch
import Foundation
import Synchronization

extension Defaults {
    /// The stores with a file that an observation of this instance searches now (those of its stamp),
    /// and the stand-ins of its sync folder's directory when it syncs (``SyncFolderWatch``): another
    /// process's commit to one of them, or another device's file arriving, is seen through their
    /// directories' events.
    var observedStores: [DomainStore] {
        searchList.watchedStores.filter { $0.path != nil } + (syncWatch?.standIns ?? [])
    }

    /// True when another process may be in the middle of a commit to a database this instance has open
    /// (see ``LookSchedule``): a look that finds so is not the last. For `prefs watch`, which reads the
    /// persistent domain alone: asking opens nothing (the global domain of a system-wide layer, created
    /// there, would fail every other user's writes).
    package var anotherProcessMayBeCommitting: Bool {
        searchList.watchedStores.contains { $0.path != nil && $0.anotherProcessMayBeCommitting }
    }

    /// What a stream keeps for a consumer that is slower than the changes: by default only the newest
    /// value (`.bufferingNewest(1)`), so memory never grows; the last value is always delivered.
    public typealias BufferingPolicy<Element> = AsyncStream<Element>.Continuation.BufferingPolicy

    /// Calls `handler` with the current value of `observed`, then after each change that alters it: a
    /// write through any instance in this process, a registration, argument or suite change of this
    /// instance, or a write by another process (seen as it commits; within 100 ms where its directory cannot
    /// be watched: not Linux, no inotify). No call when a change leaves the
    /// value the same. Handlers run one at a time on a private serial queue, in the order the changes
    /// were seen.
    ///
    /// `initial` is true by default, as for ``changes(of:initial:bufferingPolicy:)``: the first call
    /// brings the value now (as GRDB's `ValueObservation` and sindresorhus/Defaults' `updates` do), so
    /// a handler that applies the value needs no separate first read. Pass false for changes only.
    ///
    /// Changes are coalesced: of several changes made in quick succession (100 threads writing at
    /// once), intermediate values may be skipped, but the last value is always delivered, and never
    /// twice in a row.
    ///
    /// ```swift
    /// let observation = defaults.observe(.key(.fontSize)) { (size: Int) in print("font size:", size) }
    /// // ... keep `observation`; release it or call cancel() to stop.
    /// ```
    /// - Parameters:
    ///   - observed: what to watch: `.key("theme")`, `.keys([...])`, `.key(.fontSize)`, `.everything`.
    ///   - initial: whether the first call brings the value now, before any change. The default is true.
    ///   - handler: receives the value.
    /// - Returns: the token that keeps the observation alive; see ``DefaultsObservation/cancel()`` for
    ///   what holds once it is cancelled.
    public func observe<Value>(
        _ observed: Observed<Value>, initial: Bool = true, handler: @escaping @Sendable (Value) -> Void
    ) -> DefaultsObservation {
        addObservation(observed, initial: initial) { mark, value in
            ObservationCenter.shared.deliveryQueue.async {
                // NB: checked here, right before the call, on the serial queue: once `cancel()` returned,
                // only a delivery that had passed this check already may still call the handler.
                guard !mark.isCancelled else { return }
                handler(value)
            }
        }
    }

    /// The current value of `observed`, then its value after each change that alters it (coalesced,
    /// see ``observe(_:initial:handler:)``). The sequence ends when the consuming task is cancelled or
    /// the stream is released.
    ///
    /// `initial` is true by default, as for ``observe(_:initial:handler:)``: the stream starts with
    /// the value now. Pass false for changes only.
    ///
    /// ```swift
    /// for await size in defaults.changes(of: .key(.fontSize)) { editor.fontSize = size }  // the current size first
    /// ```
    /// - Parameters:
    ///   - observed: what to watch: `.key("theme")`, `.keys([...])`, `.key(.fontSize)`, `.everything`.
    ///   - initial: whether the stream starts with the value now, before any change. The default is true.
    ///   - bufferingPolicy: what is kept for a consumer slower than the changes. The default keeps only
    ///     the newest value.
    /// - Returns: the stream of values.
    public func changes<Value>(
        of observed: Observed<Value>, initial: Bool = true,
        bufferingPolicy: BufferingPolicy<Value> = .bufferingNewest(1)
    ) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: bufferingPolicy)
        // Yielded on the evaluating thread, in order, not through the delivery queue: a stream never
        // waits behind a slow handler. A yield never blocks, so the evaluation never waits for a consumer.
        let observation = addObservation(observed, initial: initial) { mark, value in
            guard !mark.isCancelled else { return }
            continuation.yield(value)
        }
        // NB: the termination runs inside `Task.cancel()`, holding the consumer task's status lock, which
        // a yield to that task needs; `cancel()` waits for nothing, so it cannot close a cycle there.
        continuation.onTermination = { _ in observation.cancel() }
        return stream
    }
}

extension Defaults {
    /// Registers an observation of `observed` that calls `deliver` with its cancellation mark and the
    /// value: first with the value read now (when `initial`), then, on the evaluating thread, with each
    /// value that differs from the last one. `deliver` checks the mark before it hands the value on.
    private func addObservation<Value>(
        _ observed: Observed<Value>, initial: Bool,
        deliver: @escaping @Sendable (CancellationMark, Value) -> Void
    ) -> DefaultsObservation {
        let mark = CancellationMark()
        let last = LastSeen(stamp: searchList.stamp, value: observed.read(self))
        if initial { deliver(mark, last.state.withLock { $0.value }) }
        // Both closures hold the instance weakly: an evaluation that took the list before `cancel()`
        // removed this one must not keep it alive past its owner's release (it skips the observation).
        let id = ObservationCenter.shared.add(keys: observed.keys, stores: { [weak self] in self?.observedStores ?? [] }) {
            [weak self] in
            guard !mark.isCancelled, let self else { return }
            // A change that arrived in the sync folder is merged first: its commit moves the stamp.
            syncWatch?.mergeIfChanged(self)
            let count = searchList.changeCount
            guard !last.state.withLock({ $0.stamp.isCurrent(changes: count) }) else { return }
            let stamp = searchList.stamp
            let value = observed.read(self)
            let changed = last.state.withLock { last in
                defer { last = (stamp, value) }
                return last.value != value
            }
            if changed { deliver(mark, value) }
        }
        return DefaultsObservation(id: id, mark: mark)
    }
}

/// What an observation saw last.
private final class LastSeen<T: Sendable>: Sendable {
    let state: Lock<(stamp: ChangeStamp, value: T)>
    init(stamp: ChangeStamp, value: T) { state = Lock((stamp, value)) }
}
