/// When to look at followed databases after a directory event (see ``DirectoryEvents``): 1, 2, 4, ...
/// 512 ms after the last event (``lookDelays``), and while events keep coming, every millisecond.
///
/// NB: not at once, and more than once, because an event comes before the commit it announces can be
/// seen. A commit writes its frames to the `-wal` (the event) and only then publishes them in the
/// `-shm` header, which is what a store's change check reads (``ChangeSignal``) and which, written
/// through a shared mapping, raises no event at all. Measured here (2 cores, loaded; a process of
/// ours writing with `synchronous = NORMAL`, another waiting on the events and reading the header at
/// each, two runs of 200 commits): a look at the event saw the commit once in 400; the header moved
/// 0.09-0.17 ms after the event at the median, 1.5-2 ms at p99, 3.4 ms at most. The `sqlite3` shell
/// (`synchronous = FULL`: it syncs the log in between) took 0.5-0.6 ms, 9-16 ms, 20 ms. So the first
/// look is 1 ms after the event and the next ones twice as far each time: two or three looks see one
/// of our commits, the later ones a slow sync, up to half a second. Each look is cheap (an
/// observation whose stamp did not move reads nothing); ten of them for a burst of another process's
/// commits, where a 100 ms poll looked ten times a second forever. A commit whose writer stalls longer
/// than that between its log and its header is seen at the next event of its directory. The first
/// deadline only ever comes nearer, so a burst of commits (this process's own write the `-wal` too)
/// is looked at once a millisecond: not once a commit, and not never.
package struct LookSchedule {
    /// When the looks after an event are due, counted from the event.
    package static let lookDelays: [Duration] = (0..<10).map { .milliseconds(1 << $0) }

    /// When the next look is due; nil: none is.
    package private(set) var deadline: ContinuousClock.Instant?
    private var lastEvent: ContinuousClock.Instant?
    private var nextLook = 0

    /// A schedule with no look due.
    package init() {}

    /// True when an event at `now` would bring the next look sooner: else events may wait unread.
    package func wantsEvents(at now: ContinuousClock.Instant) -> Bool {
        deadline.map { $0 > now + Self.lookDelays[0] } ?? true
    }

    /// After an event, at `now`: the looks after it are due from 1 ms on, the next one no later than that.
    package mutating func eventArrived(at now: ContinuousClock.Instant) {
        lastEvent = now
        nextLook = 0
        let first = now + Self.lookDelays[0]
        deadline = min(deadline ?? first, first)
    }

    /// True when a look is due at `now`.
    package func isDue(at now: ContinuousClock.Instant) -> Bool { deadline.map { $0 <= now } ?? false }

    /// After the look that was due, made at `now`: the next look after the last event, if any is left
    /// (those whose time passed while this one was late are skipped).
    package mutating func looked(at now: ContinuousClock.Instant) {
        guard let lastEvent else {
            deadline = nil
            return
        }
        repeat { nextLook += 1 } while nextLook < Self.lookDelays.count && lastEvent + Self.lookDelays[nextLook] <= now
        deadline = nextLook < Self.lookDelays.count ? lastEvent + Self.lookDelays[nextLook] : nil
    }
}
