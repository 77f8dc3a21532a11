import Synchronization

#if canImport(Darwin)
    import Darwin
#else
    import Glibc
#endif

// NB: `Synchronization.Mutex` locks with a bare futex on Linux, which ThreadSanitizer does not see: every
// access made inside its `withLock` was reported as a race, hundreds per test run, and a real one drowned.
// So a build for ThreadSanitizer (`scripts/check-races.sh` defines `LAYERED_DEFAULTS_TSAN`) locks with a
// heap-allocated `pthread_mutex_t`, which it understands; every other build with `Mutex`, whose
// uncontended lock is a few inlined atomic instructions where a pthread mutex is two calls into the C
// library, on every read.

/// A mutual-exclusion lock guarding a value of `State`: the package's one lock.
///
/// It is `Synchronization.Mutex`, or, built for ThreadSanitizer, a `pthread_mutex_t`. Its signatures
/// mirror `Mutex`'s (`sending`), so the state need not be `Sendable`.
///
/// ```swift
/// let counter = Lock(0)
/// counter.withLock { $0 += 1 }
/// ```
package final class Lock<State>: @unchecked Sendable {
    #if LAYERED_DEFAULTS_TSAN
        // NB: both live on the heap, at addresses that never move (a lock must not move once used), and
        // the state is reached through a pointer, so no dynamic exclusivity check sits on the hot path.
        private let primitive: UnsafeMutablePointer<pthread_mutex_t>
        private let state: UnsafeMutablePointer<State>
    #else
        private let mutex: Mutex<State>
    #endif

    /// A lock guarding `initialState`.
    package init(_ initialState: sending State) {
        #if LAYERED_DEFAULTS_TSAN
            primitive = .allocate(capacity: 1)
            primitive.initialize(to: pthread_mutex_t())
            let status = pthread_mutex_init(primitive, nil)
            precondition(status == 0, "pthread_mutex_init failed: \(status)")
            state = .allocate(capacity: 1)
            state.initialize(to: initialState)
        #else
            mutex = Mutex(initialState)
        #endif
    }

    #if LAYERED_DEFAULTS_TSAN
        deinit {
            pthread_mutex_destroy(primitive)
            primitive.deinitialize(count: 1)
            primitive.deallocate()
            state.deinitialize(count: 1)
            state.deallocate()
        }
    #endif

    /// Runs `body` with exclusive access to the state, and returns what it returns.
    ///
    /// Not reentrant: calling `withLock` on the same lock from inside `body` deadlocks.
    /// - Throws: what `body` throws; the lock is released either way.
    @inline(__always)
    package func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending State) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        #if LAYERED_DEFAULTS_TSAN
            pthread_mutex_lock(primitive)
            defer { pthread_mutex_unlock(primitive) }
            return try body(&state.pointee)
        #else
            return try mutex.withLock(body)
        #endif
    }

    /// Runs `body` with exclusive access to the state when the lock is free now, and returns what it
    /// returns; returns nil, without waiting and without running `body`, when another thread holds it.
    /// - Throws: what `body` throws; the lock is released either way.
    func withLockIfAvailable<Result: ~Copyable, E: Error>(
        _ body: (inout sending State) throws(E) -> sending Result
    ) throws(E) -> sending Result? {
        #if LAYERED_DEFAULTS_TSAN
            guard pthread_mutex_trylock(primitive) == 0 else { return nil }
            defer { pthread_mutex_unlock(primitive) }
            return try body(&state.pointee)
        #else
            return try mutex.withLockIfAvailable(body)
        #endif
    }
}
