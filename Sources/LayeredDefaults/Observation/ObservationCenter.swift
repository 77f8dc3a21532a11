import Dispatch
import Foundation
import Synchronization

/// The process's observations: re-evaluates them after every change made in this process and after
/// every commit another process makes to a database they search (seen through ``DirectoryEvents``);
/// where such commits cannot be seen as they happen, every ``pollInterval`` instead.
///
/// Evaluations run on the center's own thread, one at a time, so each observation sees its values in
/// order and a writer never waits for observers: a change only wakes that thread, and changes made
/// before an evaluation starts share it (coalesced). The check is cheap: an observation re-reads only
/// when its ``ChangeStamp`` moved. A change whose keys are known (a write) wakes the
/// thread only when an observation watches one of them: writes to keys nobody watches cost the writer
/// one lookup, and the observers nothing until the next look at the databases (the directory event
/// of that very commit).
///
/// While nothing changes, its thread sleeps without a timeout: an idle observing process does not wake.
///
/// NB: a thread of its own, not a dispatch queue: a queue's work waits for a worker of dispatch's small
/// pool, which threads blocked elsewhere in the app (or in parallel tests) can hold for seconds.
final class ObservationCenter: Sendable {
    static let shared = ObservationCenter()

    /// How often observations look for other processes' writes when their databases' directories
    /// cannot be watched (no inotify, a limit reached): such a write is then seen within this bound
    /// (plus the time to read the changed value).
    static let pollInterval = Duration.milliseconds(100)

    /// Callbacks are delivered here, serially, in the order the changes were seen.
    let deliveryQueue = DispatchQueue(label: "LayeredDefaults.observation")

    /// NB: held only briefly, never across an evaluation, so `remove` (and with it `cancel()`) never
    /// waits for one.
    private let registrations = Lock(Registrations())
    private let nextID = Atomic<UInt64>(1)
    private let count = Atomic<Int>(0)
    /// Wakes the evaluating thread while it has no ``DirectoryEvents`` (see ``wakeDescriptor``).
    private let wakeup = DispatchSemaphore(value: 0)
    /// The pipe of the thread's ``DirectoryEvents`` waker once it has one, else -1 (``wakeup`` then).
    private let wakeDescriptor = Atomic<Int32>(-1)
    /// True when a change may have altered the databases the observations search (a suite added).
    private let followPending = Atomic<Bool>(false)
    /// How many times the thread woke from a wait: a seam for tests.
    private let wakeUps = Atomic<Int>(0)
    /// True while the thread looks every ``pollInterval`` (no inotify, or a directory it cannot watch).
    private let polling = Atomic<Bool>(false)
    /// True while an evaluation is asked for and has not started yet.
    private let evaluationPending = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)

    /// The observations, and the keys they watch.
    private struct Registrations {
        /// Each observation's evaluation, by identifier, with the keys it watches (nil: every key) and
        /// the stores with a file it searches now.
        var observations: [UInt64: (keys: Set<String>?, stores: @Sendable () -> [DomainStore], evaluate: @Sendable () -> Void)] =
            [:]
        /// How many observations watch each key.
        var watchers: [String: Int] = [:]
        /// How many observations watch every key.
        var everyKeyWatchers = 0

        /// True when an observation watches a key of `keys`.
        func watch<Keys: Sequence<String>>(anyOf keys: Keys) -> Bool {
            everyKeyWatchers > 0 || keys.contains { watchers[$0] != nil }
        }

        /// Counts `keys` (nil: every key) as watched `delta` more times.
        mutating func count(_ keys: Set<String>?, _ delta: Int) {
            guard let keys else {
                everyKeyWatchers += delta
                return
            }
            for key in keys {
                let count = watchers[key, default: 0] + delta
                watchers[key] = count == 0 ? nil : count
            }
        }
    }

    /// Adds an observation of `keys` (nil: of every key) that searches the stores `stores` returns
    /// (asked again after a change of unknown keys, such as a suite added, and whenever a look may be
    /// the last); `evaluate` is called after every change that may concern them, after other processes'
    /// commits to their databases, and on every poll.
    func add(
        keys: Set<String>?, stores: @escaping @Sendable () -> [DomainStore] = { [] },
        _ evaluate: @escaping @Sendable () -> Void
    ) -> UInt64 {
        let id = nextID.add(1, ordering: .relaxed).oldValue
        registrations.withLock { registrations in
            registrations.observations[id] = (keys, stores, evaluate)
            registrations.count(keys, 1)
        }
        count.add(1, ordering: .sequentiallyConsistent)
        if !started.exchange(true, ordering: .acquiringAndReleasing) {
            let thread = Thread { [self] in run() }
            thread.name = "LayeredDefaults.observation"
            thread.start()
        } else {
            wake()  // to watch its databases' directories (and, without events, from idle to polling)
        }
        return id
    }

    /// Removes an observation, and returns at once: it never waits for an evaluation. One running now
    /// may still call the observation's `evaluate`, once: the observation's own cancellation mark,
    /// checked there and again right before each delivery, keeps that call from reaching its handler.
    func remove(_ id: UInt64) {
        let removed = registrations.withLock { registrations in
            let removed = registrations.observations.removeValue(forKey: id)
            if let removed { registrations.count(removed.keys, -1) }
            return removed != nil
        }
        guard removed else { return }
        count.add(-1, ordering: .sequentiallyConsistent)
    }

    /// Evaluates every observation registered now, one after the other, on the calling thread (the
    /// center's own, so evaluations never overlap). Nothing is held while they run.
    private func evaluateEveryObservation() {
        let evaluations = registrations.withLock { $0.observations.values.map(\.evaluate) }
        for evaluate in evaluations { evaluate() }
    }

    /// True when another process may be in the middle of a commit to a database an observation searches
    /// (``DomainStore/anotherProcessMayBeCommitting``). Nothing is held while the stores are asked.
    private func anotherProcessMayBeCommitting() -> Bool {
        let sources = registrations.withLock { $0.observations.values.map(\.stores) }
        return sources.contains { $0().contains(where: \.anotherProcessMayBeCommitting) }
    }

    /// Called after every change made through any ``Defaults`` in the process, with the keys it changed
    /// (nil: it may have changed any key): wakes the evaluating thread when an observation may be
    /// concerned, and returns at once.
    ///
    /// An observation of other keys is not evaluated: its stamp moved, its value cannot have. The next
    /// poll re-reads it, as it would for another process's commit (which may have come with this change).
    /// - Returns: true when an evaluation is asked for (or was already pending).
    @discardableResult
    func changed<Keys: Sequence<String>>(keys: Keys?) -> Bool {
        guard count.load(ordering: .relaxed) > 0 else { return false }
        if let keys, !registrations.withLock({ $0.watch(anyOf: keys) }) { return false }
        if keys == nil { followPending.store(true, ordering: .sequentiallyConsistent) }
        if !evaluationPending.exchange(true, ordering: .acquiringAndReleasing) { wake() }
        return true
    }

    /// Wakes the evaluating thread: through its ``DirectoryEvents``' waker once it has one.
    ///
    /// NB: a waker that still saw -1 signals the semaphore the thread no longer waits on, but it asked
    /// for its evaluation (``evaluationPending``) before that, so before the thread published its
    /// waker, and the thread's first pass, made after publishing, evaluates.
    private func wake() {
        let descriptor = wakeDescriptor.load(ordering: .sequentiallyConsistent)
        if descriptor >= 0 { DirectoryEvents.Waker(descriptor: descriptor).wake() } else { wakeup.signal() }
    }

    /// How many times the evaluating thread has woken from a wait so far: a seam for tests.
    var wakeUpsForTesting: Int { wakeUps.load(ordering: .sequentiallyConsistent) }

    /// True while the evaluating thread looks for other processes' commits on a timer: a seam for tests.
    var isPollingForTesting: Bool { polling.load(ordering: .sequentiallyConsistent) }

    /// The evaluating thread: follows the observed databases' directories and sleeps until a change in
    /// this process, a directory event or a due look (see ``LookSchedule``), then evaluates every
    /// observation. Without ``DirectoryEvents`` at all, ``runPolling()``.
    private func run() -> Never {
        guard let events = DirectoryEvents() else { runPolling() }
        wakeDescriptor.store(events.waker.descriptor, ordering: .sequentiallyConsistent)
        var schedule = LookSchedule()
        var followed: (count: Int, nextID: UInt64)? = nil
        var nextPoll: ContinuousClock.Instant? = nil
        var firstPass = true  // See `wake()`.
        while true {
            if !firstPass {
                let idle = count.load(ordering: .sequentiallyConsistent) == 0
                let deadline = idle ? nil : [schedule.deadline, nextPoll].compactMap { $0 }.min()
                let wakeup = events.wait(until: deadline, listening: !idle && schedule.wantsEvents(at: .now))
                wakeUps.add(1, ordering: .sequentiallyConsistent)
                let now = ContinuousClock.now
                if wakeup.changed { schedule.eventArrived(at: now) }
                let due = schedule.isDue(at: now)
                if due { schedule.looked(at: now, anotherProcessMayBeCommitting: anotherProcessMayBeCommitting) }
                let pollDue = nextPoll.map { $0 <= now } ?? false
                if pollDue { nextPoll = now + Self.pollInterval }
                // An event on another file of a watched directory (another domain's) asks for nothing.
                guard wakeup.woken || due || pollDue else { continue }
            }
            firstPass = false
            // NB: cleared before evaluating, so a change made from here on asks for another evaluation.
            evaluationPending.store(false, ordering: .sequentiallyConsistent)
            let (observed, sources) = registrations.withLock {
                (($0.observations.count, nextID.load(ordering: .relaxed)), $0.observations.values.map(\.stores))
            }
            if followPending.exchange(false, ordering: .sequentiallyConsistent) || followed.map({ $0 != observed }) ?? true {
                // NB: called outside the registrations' lock, as evaluations are: they take the stores'.
                let unwatched = events.follow(databases: sources.flatMap { $0().compactMap(\.path) })
                followed = observed
                // A missing directory (a layer not installed) holds no database an observation searches.
                let mustPoll = !unwatched.failed.isEmpty
                polling.store(mustPoll, ordering: .sequentiallyConsistent)
                if !mustPoll {
                    nextPoll = nil
                } else if nextPoll == nil {
                    nextPoll = .now + Self.pollInterval
                }
            }
            evaluateEveryObservation()
        }
    }

    /// The evaluating thread where no directory can be watched: waits for a change (or, while
    /// observations exist, at most one poll interval), then evaluates every observation.
    private func runPolling() -> Never {
        polling.store(true, ordering: .sequentiallyConsistent)
        while true {
            if count.load(ordering: .sequentiallyConsistent) == 0 {
                wakeup.wait()
            } else {
                _ = wakeup.wait(timeout: .now() + .milliseconds(Int(Self.pollInterval.wholeMilliseconds)))
            }
            wakeUps.add(1, ordering: .sequentiallyConsistent)
            // NB: cleared before evaluating, so a change made from here on asks for another evaluation.
            evaluationPending.store(false, ordering: .sequentiallyConsistent)
            evaluateEveryObservation()
        }
    }
}
