import Dispatch
import Synchronization

/// Checkpoints one store's write-ahead log once the store is idle, so that the checkpoint (copying the
/// log's pages into the database file, milliseconds for a thousand pages) does not fall on a write.
///
/// The first commit of a burst that wrote to the log arms a timer one quiet period (``quietPeriod``)
/// away, holding the store's lock (``arm(commits:)``); commits that follow do nothing more. When it
/// fires, the handler takes the store's lock: when the store committed nothing since arming, it
/// checkpoints `PASSIVE`, else it arms again from the count now. A store is thus checkpointed between
/// one and two quiet periods after its last write. The checkpoint SQLite runs inside a commit
/// (``Connection``'s WAL hook) stays, at a larger log, as the backstop of a process that never pauses.
///
/// Each store owns its timer, whose handler holds the store weakly: a pending checkpoint never keeps a
/// store (and its connection) alive, and a store released meanwhile cancels it. Timers run on one
/// serial queue; one delayed by a busy dispatch pool only checkpoints later.
final class IdleCheckpoint: Sendable {
    /// How long a store must have committed nothing before its log is checkpointed.
    ///
    /// 100 ms: writes made by hand (a click, a keystroke, the end of a drag) are mostly further
    /// apart than that, writes of one burst closer; and a store is checkpointed no more often.
    static let quietPeriod = Duration.milliseconds(100)

    private static let queue = DispatchQueue(label: "LayeredDefaults.checkpoint")

    /// The store's connection's ``Connection/walCommitCount`` when the timer was armed, or nil while it
    /// is not. Used holding the store's lock (its own lock only makes that visible to the compiler).
    private let armedAt = Lock<UInt64?>(nil)
    /// What the timer's firing calls (see ``start(_:)``), and the timer, once the first arming made it.
    ///
    /// Made lazily: making, activating and cancelling a dispatch source at each open and close is a
    /// cost most stores would pay for nothing: most stores opened are only read. Apart from ``armedAt``, so that a
    /// commit finding the timer armed (most of a burst's) takes one small lock, as before.
    private let timer = Lock<(handler: (@Sendable () -> Void)?, source: (any DispatchSourceTimer)?)>((nil, nil))

    init() {}

    /// Sets what the timer's firing calls, `checkpointIfIdle`: it takes the store's lock and calls
    /// ``fire(commitsNow:checkpoint:)`` (it must hold the store weakly). The timer itself is made by the
    /// first ``arm(commits:)``.
    func start(_ checkpointIfIdle: @escaping @Sendable () -> Void) {
        timer.withLock { $0.handler = checkpointIfIdle }
    }

    deinit { timer.withLock { $0.source?.cancel() } }

    /// True while the timer is armed: a seam for tests.
    var isArmed: Bool { armedAt.withLock { $0 != nil } }

    /// True once a timer was made (by the first arming): a seam for tests.
    var hasTimer: Bool { timer.withLock { $0.source != nil } }

    /// After a commit that wrote to the log, holding the store's lock: arms the timer unless it is,
    /// making it the first time.
    func arm(commits: UInt64) {
        let arming = armedAt.withLock { armed in
            guard armed == nil else { return false }
            armed = commits
            return true
        }
        guard arming else { return }
        timer.withLock { timer in
            let source: any DispatchSourceTimer
            if let made = timer.source {
                source = made
            } else {
                source = DispatchSource.makeTimerSource(queue: Self.queue)
                if let handler = timer.handler { source.setEventHandler(handler: handler) }
                source.activate()
                timer.source = source
            }
            source.schedule(deadline: .now() + .milliseconds(Int(Self.quietPeriod.wholeMilliseconds)))
        }
    }

    /// The timer's work, holding the store's lock: when nothing was committed since the timer was armed
    /// (`commitsNow` is the count then), runs `checkpoint`, else arms again. Nothing when not armed.
    func fire(commitsNow: UInt64, checkpoint: () -> Void) {
        let idle = armedAt.withLock { armed -> Bool? in
            guard let since = armed else { return nil }
            armed = nil
            return since == commitsNow
        }
        switch idle {
        case true?: checkpoint()
        case false?: arm(commits: commitsNow)
        case nil: break
        }
    }
}
