import Dispatch

/// Waits, for one process that follows one database file (`prefs watch`), until the file is worth
/// looking at again: after each change of its directory (``DirectoryEvents``) and the re-looks of a
/// ``LookSchedule``, as observations wait; every `pollInterval` while its directory cannot be watched
/// (no inotify, or no directory yet). Owned by the thread that waits; ``stop`` may be called from any.
package final class FileWatch {
    private let database: String
    private let pollInterval: Duration
    private let events = DirectoryEvents()
    private var schedule = LookSchedule()
    private var polling = true
    private let stopped = Lock(false)
    private var isStopped: Bool { stopped.withLock { $0 } }
    private let fallback = DispatchSemaphore(value: 0)

    /// A watch of the database file at `database` (a path), looked at every `pollInterval` where its
    /// directory cannot be watched. Its directory is watched from here on, when it can be (and exists):
    /// made before the first look, no change falls between the two.
    package init(database: String, pollInterval: Duration) {
        self.database = database
        self.pollInterval = pollInterval
        follow()
    }

    /// Ends the wait for the next look, from any thread (a signal handler's queue): ``nextLook(anotherProcessMayBeCommitting:)``
    /// then returns false.
    package var stop: @Sendable () -> Void {
        let waker = events?.waker
        return { [stopped, fallback] in
            stopped.withLock { $0 = true }
            if let waker { waker.wake() } else { fallback.signal() }
        }
    }

    /// Waits for the next look; false once stopped. `anotherProcessMayBeCommitting` is asked when a look
    /// may be the last of a change (see ``LookSchedule``).
    package func nextLook(anotherProcessMayBeCommitting: () -> Bool) -> Bool {
        guard let events else {
            _ = fallback.wait(timeout: .now() + .nanoseconds(Int(pollInterval / .nanoseconds(1))))
            return !isStopped
        }
        let poll = polling ? ContinuousClock.now + pollInterval : nil
        while true {
            let deadline = [schedule.deadline, poll].compactMap { $0 }.min()
            let wakeup = events.wait(until: deadline, listening: schedule.wantsEvents(at: .now))
            if isStopped { return false }
            let now = ContinuousClock.now
            if wakeup.changed { schedule.eventArrived(at: now) }
            if schedule.isDue(at: now) {
                schedule.looked(at: now, anotherProcessMayBeCommitting: anotherProcessMayBeCommitting)
                break
            }
            if let poll, poll <= now { break }
        }
        follow()  // A directory created meanwhile is watched from now on (before the look).
        return true
    }

    /// Watches the database's directory, when it can (and it exists).
    private func follow() {
        polling = events.map { !$0.follow(databases: [database]).isEmpty } ?? true
    }
}
