/// When to look at followed databases after a directory event (see ``DirectoryEvents``): at once, then
/// again a few times, later and later; and, while events keep coming, no more often than every
/// ``spacing``.
///
/// NB: the re-checks are there because an event can come before the commit it announces is visible.
/// A commit writes its frames to the `-wal` (the event) and only then publishes them in the `-shm`
/// header, which is what a store's change check reads (``ChangeSignal``) and which, written through a
/// shared mapping, raises no event at all. With `synchronous = NORMAL` (ours) the gap is a few
/// microseconds; a writer with `synchronous = FULL` (the `sqlite3` shell) syncs the log in between,
/// milliseconds, more on a loaded disk. A look at once sees most commits (the waiter takes longer to
/// wake than the writer to publish); one that came too early is seen by the re-check 1 ms later, and
/// the later ones (8, 64, 512 ms) cover slow syncs: five cheap looks for each burst of another
/// process's commits, where a 100 ms poll looked ten times a second forever. The spacing keeps a
/// burst of this process's own commits (each one writes the `-wal` too) from becoming a look a
/// commit: their observers are told by the commit itself.
package struct LookSchedule {
    /// The least time between two looks asked for by events.
    package static let spacing = Duration.milliseconds(1)
    /// The delays of the re-checks after a look asked for by an event, each after the one before.
    package static let rechecks: [Duration] = [.milliseconds(1), .milliseconds(8), .milliseconds(64), .milliseconds(512)]

    /// When the next look is due; nil: none is.
    package private(set) var deadline: ContinuousClock.Instant?
    private var lastLook: ContinuousClock.Instant?
    private var recheck = 0
    private var eventLookPending = false

    /// A schedule with no look due.
    package init() {}

    /// True when an event could bring the next look sooner: else its events may wait unread.
    package var wantsEvents: Bool { !eventLookPending }

    /// After an event, at `now`: a look is due at once, or one ``spacing`` after the last.
    package mutating func eventArrived(at now: ContinuousClock.Instant) {
        let earliest = lastLook.map { max(now, $0 + Self.spacing) } ?? now
        deadline = min(deadline ?? earliest, earliest)
        recheck = 0
        eventLookPending = true
    }

    /// True when a look is due at `now`.
    package func isDue(at now: ContinuousClock.Instant) -> Bool { deadline.map { $0 <= now } ?? false }

    /// After the look that was due, made at `now`: schedules the next re-check, if any is left.
    package mutating func looked(at now: ContinuousClock.Instant) {
        lastLook = now
        eventLookPending = false
        if recheck < Self.rechecks.count {
            deadline = now + Self.rechecks[recheck]
            recheck += 1
        } else {
            deadline = nil
        }
    }
}
