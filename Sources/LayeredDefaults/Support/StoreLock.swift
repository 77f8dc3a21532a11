#if canImport(Darwin)
    import Darwin
#else
    import Glibc
#endif

/// The lock of one ``DomainStore``: held across a transaction, whose body runs the app's code.
///
/// Store locks are leaves: a thread holding one never waits for another, so no two threads can wait
/// for each other through them, and no order among stores is needed.
/// - A call from inside, on the thread that holds the lock, runs without taking it again
///   (``withLock(_:)``'s `reentered`): a read through `Defaults` from inside a transaction's body.
/// - A call on another store's lock from a thread that holds one fails at once with
///   ``HeldByThisThread``, naming the suite whose lock the thread holds: it never waits.
///
/// The lock the calling thread holds is kept in a thread-local slot (one per thread: a thread holds
/// at most one), so an uncontended lock costs the mutex and two thread-local stores.
final class StoreLock: Sendable {
    /// The calling thread holds another store's lock: the suite of that store.
    struct HeldByThisThread: Error {
        let suite: String
    }

    /// The suite of the store this lock guards.
    let suite: String
    private let lock = Lock(())

    /// The lock the calling thread holds, as an unretained pointer (nil: none).
    private static let held: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    init(suite: String) { self.suite = suite }

    /// What the calling thread holds: this lock, another store's, or none.
    enum Holding {
        case none
        case this
        /// Another store's lock: the suite of that store.
        case other(suite: String)
    }

    /// Which store lock the calling thread holds, as seen from this one.
    var holding: Holding {
        guard let held = pthread_getspecific(Self.held) else { return .none }
        if held == UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) { return .this }
        return .other(suite: Unmanaged<StoreLock>.fromOpaque(held).takeUnretainedValue().suite)
    }

    /// True when the calling thread holds any store's lock (it is inside a transaction's body, or a
    /// store's own short work).
    static var isAnyHeldByCurrentThread: Bool { pthread_getspecific(held) != nil }

    /// Runs `body` holding the lock, and returns what it returns; `reentered` is true when the calling
    /// thread already held it, and `body` then runs without taking it again.
    /// - Throws: ``HeldByThisThread`` (without running `body`, without waiting) when the calling thread
    ///   holds another store's lock; else what `body` throws.
    func withLock<T>(_ body: (_ reentered: Bool) throws -> T) throws -> T {
        switch holding {
        case .this: return try body(true)
        case .other(let suite): throw HeldByThisThread(suite: suite)
        case .none: break
        }
        return try lock.withLock { _ in
            pthread_setspecific(Self.held, Unmanaged.passUnretained(self).toOpaque())
            defer { pthread_setspecific(Self.held, nil) }
            return try body(false)
        }
    }

    /// Runs `body` holding the lock when it is free now, without recording it as the thread's, and
    /// returns what it returns; returns nil, without waiting and without running `body`, when another
    /// thread holds it. For a read from inside another store's transaction: nothing under it waits.
    func withLockIfAvailable<T>(_ body: () throws -> T) rethrows -> T? {
        try lock.withLockIfAvailable { _ in try body() }
    }
}
