import Synchronization

extension DefaultsDraft {
    /// The typed `key`'s value as the draft reads it, then its value after each change that alters it:
    /// an edit or a revert of the draft, or a change of the store (any instance or process)
    /// while the draft did not edit the key. Coalesced as the store's observation is: intermediate
    /// values may be skipped, the last one is delivered, and each value differs from the one before it.
    ///
    /// ```swift
    /// for await size in draft.changes(of: .fontSize) { preview.fontSize = size }
    /// ```
    /// - Parameters:
    ///   - key: the typed key to watch through the draft.
    ///   - initial: whether the stream starts with the value now. The default is true.
    /// - Returns: the stream; it ends when the consuming task is cancelled or the stream is released.
    public func changes<Value: Equatable & Sendable>(of key: Defaults.Key<Value>, initial: Bool = true) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        let watch = watch(key, initial: initial) { continuation.yield($0) }
        continuation.onTermination = { _ in watch.cancel() }
        return stream
    }

    /// Calls `deliver` with the typed `key`'s value through the draft (now, when `initial`), then with
    /// each value that differs from the last delivered: the store's observation of the key combined with
    /// the draft's own edits. `deliver` is called under a lock of the watch's own: it must not block.
    func watch<Value: Equatable & Sendable>(
        _ key: Defaults.Key<Value>, initial: Bool, deliver: @escaping @Sendable (Value) -> Void
    ) -> DraftWatch {
        let last = DraftWatch.Last(self[key])
        if initial { last.state.withLock { deliver($0.value) } }
        let evaluate: @Sendable () -> Void = { [weak self, weak last] in
            guard let self, let last, !last.cancelled.load(ordering: .acquiring) else { return }
            // NB: the ticket is taken before the read: of two evaluations, the later read is the newer
            // value, so an earlier one finishing last cannot deliver an older value over it.
            let ticket = last.tickets.add(1, ordering: .acquiringAndReleasing).newValue
            let value = self[key]
            last.state.withLock { state in
                guard ticket > state.ticket, !last.cancelled.load(ordering: .acquiring) else { return }
                state.ticket = ticket
                guard state.value != value else { return }
                state.value = value
                deliver(value)
            }
        }
        let id = state.withLock { state in
            state.nextID += 1
            state.listeners[state.nextID] = { keys in if keys?.contains(key.name) ?? true { evaluate() } }
            return state.nextID
        }
        let observation = defaults.observe(.key(key.name), initial: false) { _ in evaluate() }
        return DraftWatch(last: last) { [weak self] in
            observation.cancel()
            self?.state.withLock { _ = $0.listeners.removeValue(forKey: id) }
        }
    }

    /// Tells the draft's watches that `keys` changed in the draft.
    func notify(_ keys: Set<String>) {
        guard !keys.isEmpty else { return }
        let listeners = state.withLock { Array($0.listeners.values) }
        for listener in listeners { listener(keys) }
    }
}

/// A watch of one key through a draft (see ``DefaultsDraft/watch(_:initial:deliver:)``): cancelled when
/// released.
final class DraftWatch: Sendable {
    /// What the watch delivered last, and the ticket of the evaluation that read it.
    final class Last<Value: Sendable>: Sendable {
        let state: Lock<(value: Value, ticket: Int)>
        let tickets = Atomic<Int>(0)
        let cancelled = Atomic<Bool>(false)
        init(_ value: Value) { state = Lock((value, 0)) }
    }

    private let markCancelled: @Sendable () -> Void
    private let stop: Lock<(@Sendable () -> Void)?>

    init<Value>(last: Last<Value>, stop: @escaping @Sendable () -> Void) {
        // NB: the watch holds its Last; the evaluations hold it weakly, so a released watch delivers nothing.
        markCancelled = { last.cancelled.store(true, ordering: .releasing) }
        self.stop = Lock(stop)
    }

    deinit { cancel() }

    /// Stops the watch: no delivery starts once this returns. Never waits.
    func cancel() {
        markCancelled()
        stop.withLock { $0.take() }?()
    }
}
