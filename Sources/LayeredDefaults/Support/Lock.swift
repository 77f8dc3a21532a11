#if canImport(Darwin)
    import Darwin
#else
    import Glibc
#endif

// NB: `Synchronization.Mutex` locks with a bare futex on Linux, which ThreadSanitizer does not see: every
// access made inside its `withLock` was reported as a race, hundreds per test run, and a real one drowned.

/// A mutual-exclusion lock guarding a value of `State`: the package's one lock, used instead of
/// `Synchronization.Mutex` so that `swift test --sanitize=thread` reports only real races.
///
/// It wraps a heap-allocated `pthread_mutex_t` (`os_unfair_lock` on Apple platforms), which
/// ThreadSanitizer understands. Its signatures mirror `Mutex`'s (`sending`), so the state need not be
/// `Sendable`.
///
/// ```swift
/// let counter = Lock(0)
/// counter.withLock { $0 += 1 }
/// ```
package final class Lock<State>: @unchecked Sendable {
    #if canImport(Darwin)
        private typealias Primitive = os_unfair_lock
    #else
        private typealias Primitive = pthread_mutex_t
    #endif

    // NB: both live on the heap, at addresses that never move (a lock must not move once used), and the
    // state is reached through a pointer, so no dynamic exclusivity check sits on the hot path.
    /// The system's lock.
    private let primitive: UnsafeMutablePointer<Primitive>
    /// The guarded state, touched only while holding ``primitive``.
    private let state: UnsafeMutablePointer<State>

    /// A lock guarding `initialState`.
    package init(_ initialState: sending State) {
        primitive = .allocate(capacity: 1)
        #if canImport(Darwin)
            primitive.initialize(to: os_unfair_lock())
        #else
            primitive.initialize(to: pthread_mutex_t())
            let status = pthread_mutex_init(primitive, nil)
            precondition(status == 0, "pthread_mutex_init failed: \(status)")
        #endif
        state = .allocate(capacity: 1)
        state.initialize(to: initialState)
    }

    deinit {
        #if !canImport(Darwin)
            pthread_mutex_destroy(primitive)
        #endif
        primitive.deinitialize(count: 1)
        primitive.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `body` with exclusive access to the state, and returns what it returns.
    ///
    /// Not reentrant: calling `withLock` on the same lock from inside `body` deadlocks.
    /// - Throws: what `body` throws; the lock is released either way.
    package func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending State) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        #if canImport(Darwin)
            os_unfair_lock_lock(primitive)
            defer { os_unfair_lock_unlock(primitive) }
        #else
            pthread_mutex_lock(primitive)
            defer { pthread_mutex_unlock(primitive) }
        #endif
        return try body(&state.pointee)
    }

    /// Runs `body` with exclusive access to the state when the lock is free now, and returns what it
    /// returns; returns nil, without waiting and without running `body`, when another thread holds it.
    /// - Throws: what `body` throws; the lock is released either way.
    package func withLockIfAvailable<Result: ~Copyable, E: Error>(
        _ body: (inout sending State) throws(E) -> sending Result
    ) throws(E) -> sending Result? {
        #if canImport(Darwin)
            guard os_unfair_lock_trylock(primitive) else { return nil }
            defer { os_unfair_lock_unlock(primitive) }
        #else
            guard pthread_mutex_trylock(primitive) == 0 else { return nil }
            defer { pthread_mutex_unlock(primitive) }
        #endif
        return try body(&state.pointee)
    }
}
