import Dispatch
import Foundation
import Synchronization

/// Checkpoints the write-ahead logs of the process's stores when they are idle, on one thread for all
/// of them, so that the checkpoint (copying the log's pages into the database file, milliseconds for
/// a thousand pages) does not fall on a write.
///
/// A store asks for a look after a commit of its own that wrote to its log (``schedule(_:commits:)``);
/// one quiet period (``quietPeriod``) later the look runs ``DomainStore/checkpointIfIdle(since:)`` on
/// the store's own connection, under its lock: when the store committed nothing since it asked, that
/// is a `PASSIVE` checkpoint, else the look is asked again, one quiet period later. A store is thus
/// checkpointed between one and two quiet periods after its last write. The checkpoint SQLite runs
/// inside a commit (``Connection``'s WAL hook) stays, at a larger log, as the backstop of a process
/// that never pauses.
///
/// Stores are held weakly: a look never keeps a store (and its connection) alive, and a store released
/// meanwhile is skipped. A store is deinitialized only once no look holds it, so no look ever touches a
/// closed connection.
///
/// NB: a thread of its own, as ``ObservationCenter``'s, started by the first look asked for: a queue's
/// work waits for a worker of dispatch's small pool, which threads blocked elsewhere can hold.
final class IdleCheckpointer: Sendable {
    /// The process's checkpointer.
    static let shared = IdleCheckpointer()

    /// How long a store must have committed nothing before its log is checkpointed.
    ///
    /// NB: 100 ms: writes made by hand (a click, a keystroke, the end of a drag) are mostly further
    /// apart than that, writes of one burst closer; and a store is looked at no more often.
    static let quietPeriod = Duration.milliseconds(100)

    /// A look asked for: the store and its database file, its commit count when it was asked, and when
    /// it is due.
    private struct Look {
        weak var store: DomainStore?
        /// The store's ``DomainStore/path``, by which a test selects looks without holding their stores.
        let path: String?
        let commits: UInt64
        let deadline: DispatchTime
    }

    /// The looks asked for, in the order of their deadlines (all are one quiet period after the asking).
    private let looks = Lock<[Look]>([])
    /// Held while looks run, so that ``lookNowForTesting(at:)`` waits for the thread's and vice versa.
    private let looking = Lock(())
    /// Wakes the thread when a first look is asked for.
    private let wakeup = DispatchSemaphore(value: 0)
    private let started = Atomic<Bool>(false)

    /// Asks for a look at `store` one quiet period from now; `commits` is its connection's
    /// ``Connection/walCommitCount`` now.
    ///
    /// A store asks once, holding its lock, after the first commit that finds it not waiting for a look
    /// (``DomainStore/awaitsIdleCheckpoint``); a look that finds it still writing asks again.
    func schedule(_ store: DomainStore, commits: UInt64) {
        let deadline = DispatchTime.now() + .milliseconds(Int(Self.quietPeriod.wholeMilliseconds))
        let first = looks.withLock { looks in
            looks.append(Look(store: store, path: store.path, commits: commits, deadline: deadline))
            return looks.count == 1
        }
        if !started.exchange(true, ordering: .acquiringAndReleasing) {
            let thread = Thread { [self] in run() }
            thread.name = "LayeredDefaults.checkpoint"
            thread.start()
        }
        if first { wakeup.signal() }
    }

    /// Runs the looks of the stores whose database file `selected` accepts now, due or not, on the
    /// caller's thread (after one the thread may be running): a test's "the quiet period has passed". A
    /// store that wrote since it asked is asked again. The looks of other stores (other tests') are left
    /// as they were, their stores never held: one released meanwhile goes at once, as without the look.
    func lookNowForTesting(at selected: (_ path: String) -> Bool) {
        look(dueBy: .distantFuture) { path in path.map(selected) ?? false }
    }

    /// How many looks are asked for the store of the database file `path`: a seam for tests.
    func pendingLooksForTesting(at path: String) -> Int { looks.withLock { $0.count { $0.path == path } } }

    /// The thread: sleeps until the first look is due, then runs the due looks.
    private func run() -> Never {
        while true {
            guard let deadline = looks.withLock({ $0.first?.deadline }) else {
                wakeup.wait()
                continue
            }
            if deadline > .now() {
                _ = wakeup.wait(timeout: deadline)
                continue
            }
            look(dueBy: .now())
        }
    }

    /// Runs the looks due by `time` of the stores whose ``Look/path`` `selected` accepts: each store
    /// still alive is checkpointed when idle, else asked again. The looks of stores not accepted are
    /// kept, in order.
    private func look(dueBy time: DispatchTime, at selected: (_ path: String?) -> Bool = { _ in true }) {
        looking.withLock { _ in
            let due = looks.withLock { looks in
                let count = looks.prefix { $0.deadline <= time }.count
                defer { looks.removeFirst(count) }
                return Array(looks.prefix(count))
            }
            var kept: [Look] = []
            for look in due {
                // NB: selected before its store is taken: a look at one store never holds another, whose
                // owner may be releasing it now (and expects it closed once released).
                guard selected(look.path) else {
                    kept.append(look)
                    continue
                }
                guard let store = look.store else { continue }
                if let commits = store.checkpointIfIdle(since: look.commits) { schedule(store, commits: commits) }
            }
            // NB: the thread may have found the list empty while they were out, and gone to sleep for good.
            if !kept.isEmpty {
                looks.withLock { $0.insert(contentsOf: kept, at: 0) }
                wakeup.signal()
            }
        }
    }
}
