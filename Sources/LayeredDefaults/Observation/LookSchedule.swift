/// When to look at followed databases after a directory event (see ``DirectoryEvents``): 1, 2, 4, ...
/// 512 ms after the last event (``lookDelays``), while events keep coming about every 3 ms, and after
/// the last of those, every 100 ms for as long as another process may be in the middle of a commit
/// (``inFlightSpacing``); then no more until the next event.
///
/// NB: not at once, and more than once, because an event comes before the commit it announces can be
/// seen. A commit writes its frames to the `-wal` (the event) and only then publishes them in the
/// `-shm` header, which is what a store's change check reads (``ChangeSignal``) and which, written
/// through a shared mapping, raises no event at all. A look at the event itself almost never sees the
/// commit; the header of one of our commits moves well within a millisecond or two of its event, one
/// synced in between (`synchronous = FULL`, as the `sqlite3` shell writes) later (docs/PERFORMANCE.md,
/// "Observation across processes", has the measurements). So the first look is 1 ms after the event
/// and the next ones twice as far each time: two or three looks see one of our commits, the later ones
/// a slow sync. Each look is cheap (an observation whose stamp did not move reads nothing).
///
/// A sync can take longer than half a second (a slow or busy disk), and nothing but a look tells
/// when its header is written. So the last look asks whether another process has a transaction open
/// on a followed database (SQLite's read locks, see ``DomainStore/anotherProcessMayBeCommitting``): a
/// commit is made inside one and ends it only once published. While one is open, looking goes on; the
/// first look that finds none open sees every commit made before it. A process that keeps a
/// transaction open (the `sqlite3` shell after `BEGIN`) keeps the looks going as long.
///
/// A burst of commits (this process's own write the `-wal` too, and their observers of other keys
/// re-read at each look, since their stamps moved) is looked at about every 3 ms (``burstSpacing``),
/// not once a commit and not never: events that cannot bring the next look sooner are left unread.
/// Looks every 1 ms slowed a durable write with 100 observers of other keys past its target (the looks
/// compete with the writer for the cores; docs/PERFORMANCE.md).
struct LookSchedule {
    /// When the looks after an event are due, counted from the event.
    static let lookDelays: [Duration] = (0..<10).map { .milliseconds(1 << $0) }
    /// The least time from a look to the look of an event that came less than this after it: the
    /// events of a burst of commits are looked at about every 3 ms.
    static let burstSpacing = Duration.milliseconds(2)
    /// How far apart the looks after the last of ``lookDelays`` are, while another process may be in the
    /// middle of a commit: such a commit is seen within this time of its publication.
    static let inFlightSpacing = Duration.milliseconds(100)

    private var lastEvent: ContinuousClock.Instant?
    private var lastLook: ContinuousClock.Instant?
    /// The next of ``lookDelays`` after ``lastEvent``.
    private var nextLook = 0
    /// True when the last event came less than ``burstSpacing`` after the look before it.
    private var inBurst = false
    /// True when the last look, made after the last of ``lookDelays``, found that another process may be
    /// in the middle of a commit.
    private var commitInFlight = false

    /// A schedule with no look due.
    init() {}

    /// When the next look is due; nil: none is.
    var deadline: ContinuousClock.Instant? {
        guard let lastEvent else { return nil }
        guard nextLook < Self.lookDelays.count else { return commitInFlight ? lastLook.map { $0 + Self.inFlightSpacing } : nil }
        return Self.deadline(after: lastEvent, delay: Self.lookDelays[nextLook], lastLook: lastLook, inBurst: inBurst)
    }

    private static func deadline(
        after event: ContinuousClock.Instant, delay: Duration, lastLook: ContinuousClock.Instant?, inBurst: Bool
    ) -> ContinuousClock.Instant {
        guard inBurst, let lastLook else { return event + delay }
        return max(event + delay, lastLook + burstSpacing)
    }

    /// True when an event at `now` would bring the next look sooner: else events may wait unread.
    ///
    /// So a burst of events wakes the waiter once a look, not once an event.
    func wantsEvents(at now: ContinuousClock.Instant) -> Bool {
        guard let deadline else { return true }
        let burst = lastLook.map { now - $0 < Self.burstSpacing } ?? false
        return Self.deadline(after: now, delay: Self.lookDelays[0], lastLook: lastLook, inBurst: burst) < deadline
    }

    /// After an event, at `now`: the looks after it are due from 1 ms on (see ``burstSpacing``).
    mutating func eventArrived(at now: ContinuousClock.Instant) {
        inBurst = lastLook.map { now - $0 < Self.burstSpacing } ?? false
        lastEvent = now
        nextLook = 0
        commitInFlight = false
    }

    /// True when a look is due at `now`.
    func isDue(at now: ContinuousClock.Instant) -> Bool { deadline.map { $0 <= now } ?? false }

    /// After the look that was due, made at `now` (right before it reads): the next look after the last
    /// event, if any is left (those whose time passed while this one was late are skipped); else one
    /// ``inFlightSpacing`` later when `anotherProcessMayBeCommitting`, asked only then.
    mutating func looked(at now: ContinuousClock.Instant, anotherProcessMayBeCommitting: () -> Bool) {
        lastLook = now
        guard let lastEvent else { return }
        repeat { nextLook += 1 } while nextLook < Self.lookDelays.count && lastEvent + Self.lookDelays[nextLook] <= now
        nextLook = min(nextLook, Self.lookDelays.count)
        commitInFlight = nextLook == Self.lookDelays.count && anotherProcessMayBeCommitting()
    }
}
