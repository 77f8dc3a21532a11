import Synchronization

#if canImport(Darwin)
    import Darwin
#else
    import Glibc
#endif

/// A lock that knows which thread holds it: for a lock held while running code that may take another
/// lock of this kind (a store's lock, held across a transaction's body, which may read another store).
///
/// - A call from inside, on the thread that holds it, is recognized (``withLock(_:)``'s `reentered`)
///   instead of deadlocking on the lock it already holds.
/// - A wait that would close a cycle (thread 1 holds A and waits for B while thread 2 holds B and asks
///   for A) is refused with ``WouldDeadlock`` at once: the refused thread unwinds and releases what it
///   holds, and the others go on. A thread that holds no such lock is never refused.
///
/// Waits are recorded only when the lock is already held: an uncontended lock costs a `trylock`, the
/// owner's two atomic stores and the thread's count of held locks (two thread-local accesses).
final class OwnedLock: Sendable {
    /// Waiting for the lock would have closed a cycle of threads waiting for each other.
    struct WouldDeadlock: Error {}

    private let lock = Lock(())
    /// The thread holding the lock (0: none). Set after taking it, cleared before releasing it.
    private let owner = Atomic<UInt>(0)
    /// The lock each waiting thread waits for. Recorded and searched under its own lock, taken last.
    private static let waits = Lock<[UInt: OwnedLock]>([:])

    /// How many locks of this kind the calling thread holds (as a pointer's bit pattern; nil: none).
    private static let heldCount: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    /// Whether the calling thread holds the lock.
    var isHeldByCurrentThread: Bool { owner.load(ordering: .relaxed) == Self.currentThread }

    /// Whether the calling thread holds any lock of this kind: such a thread does not wait for an
    /// observation's evaluation (see `ObservationCenter.remove`).
    static var isAnyHeldByCurrentThread: Bool { pthread_getspecific(heldCount) != nil }

    /// Runs `body` holding the lock, and returns what it returns; `reentered` is true when the calling
    /// thread already held it, and `body` then runs without taking it again.
    /// - Throws: ``WouldDeadlock`` (without running `body`) when the lock's holder waits, directly or
    ///   through other threads, for a lock the calling thread holds; else what `body` throws.
    func withLock<T>(_ body: (_ reentered: Bool) throws -> T) throws -> T {
        let thread = Self.currentThread
        if owner.load(ordering: .relaxed) == thread { return try body(true) }
        var result: Result<T, any Error>?
        func run() {
            let held = pthread_getspecific(Self.heldCount)
            pthread_setspecific(Self.heldCount, UnsafeRawPointer(bitPattern: Int(bitPattern: held) + 1))
            owner.store(thread, ordering: .relaxed)
            defer {
                owner.store(0, ordering: .relaxed)
                pthread_setspecific(Self.heldCount, held)
            }
            result = Result { try body(false) }
        }
        if lock.withLockIfAvailable({ _ in run() }) == nil {
            try Self.waits.withLock { waits in
                if closesCycle(waitedForBy: thread, waits) { throw WouldDeadlock() }
                waits[thread] = self
            }
            lock.withLock { _ in
                Self.waits.withLock { _ = $0.removeValue(forKey: thread) }
                run()
            }
        }
        return try result!.get()
    }

    /// Whether `thread`, waiting for this lock, would wait for itself: follows this lock's holder to the
    /// lock that holder waits for, and so on.
    ///
    /// NB: every step reads an owner stored before that owner recorded its own wait under `waits`' lock,
    /// which the caller holds, so of two threads closing a cycle, the second to record sees it.
    private func closesCycle(waitedForBy thread: UInt, _ waits: [UInt: OwnedLock]) -> Bool {
        var lock = self
        // NB: bounded: each thread waits for one lock, so a chain longer than the waits is a stale read.
        for _ in 0...waits.count {
            let holder = lock.owner.load(ordering: .relaxed)
            if holder == thread { return true }
            guard holder != 0, let next = waits[holder] else { return false }
            lock = next
        }
        return false
    }

    private static var currentThread: UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }
}
