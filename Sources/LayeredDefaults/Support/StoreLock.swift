import Synchronization

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
/// at most one), so an uncontended lock costs the mutex and two thread-local stores; and the number of
/// store locks held in the process is counted, so that a thread asks its slot only while some store's
/// lock is held: a read outside every transaction pays one atomic load.
final class StoreLock: Sendable {
    /// The calling thread holds another store's lock: the suite of that store.
    struct HeldByThisThread: Error {
        let suite: String
    }

    /// The suite of the store this lock guards.
    let suite: String
    private let lock = Lock(())

    /// How many store locks are held in the process now. While it is 0, no thread holds one.
    private static let heldCount = Atomic<Int>(0)

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
    @inline(__always) var holding: Holding {
        // This thread's own count is seen by itself: 0 means it holds no lock.
        guard Self.heldCount.load(ordering: .relaxed) != 0, let held = pthread_getspecific(Self.held) else { return .none }
        if held == UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) { return .this }
        return .other(suite: Unmanaged<StoreLock>.fromOpaque(held).takeUnretainedValue().suite)
    }

    /// True when the calling thread holds any store's lock (it is inside a transaction's body, or a
    /// store's own short work).
    static var isAnyHeldByCurrentThread: Bool { heldCount.load(ordering: .relaxed) != 0 && pthread_getspecific(held) != nil }

    /// The suite of the store lock the calling thread holds, or nil when it holds none.
    static var suiteHeldByCurrentThread: String? {
        guard heldCount.load(ordering: .relaxed) != 0, let held = pthread_getspecific(held) else { return nil }
        return Unmanaged<StoreLock>.fromOpaque(held).takeUnretainedValue().suite
    }

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
            Self.heldCount.add(1, ordering: .relaxed)
            pthread_setspecific(Self.held, Unmanaged.passUnretained(self).toOpaque())
            defer {
                pthread_setspecific(Self.held, nil)
                Self.heldCount.subtract(1, ordering: .relaxed)
            }
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
