import Foundation
import LayeredDefaultsTesting
import PackageTestSupport
import Synchronization
import Testing

@testable import LayeredDefaults

/// `cancel()` never waits: from each place where a waiting cancel deadlocked, it returns, and no call
/// of the handler starts after it returned.
///
/// NB: a deadlock would never return, so each wait for a `cancel()` is bounded (by `ObservedValues`'
/// timeout, or a semaphore's): these bounds only turn a hang into a failure, they assert no time.
@Suite struct ObservationCancelTests {
    /// An evaluation of the whole store waits for a transaction's body's store; the body cancels
    /// another observation, which had a change to deliver: `cancel()` returns, and that change is
    /// never delivered.
    @Test func cancelFromInsideATransactionBodyReturns() async throws {
        try await withTemporaryRoot { root in
            let defaults = try makeDefaults("cancelInside", root: root)
            let calls = Counter()
            let other = defaults.observe(.key("k"), initial: false) { _ in calls.increment() }
            let callsAfterCancel = try await insideABodyAnEvaluationWaitsFor(defaults) {
                other.cancel()
                return calls.value
            }
            #expect(callsAfterCancel.evaluationWaited, "an evaluation read the store while the body held it")
            try await waitForEvaluationsInFlight(defaults)
            #expect(calls.value == callsAfterCancel.result, "no call after cancel() returned")
            #expect(try defaults.value(forKey: "k") == .integer(1), "the body committed")
        }
    }

    /// The same, but the body waits for another thread that cancels, a thread that holds no lock of
    /// the package: `cancel()` returns.
    ///
    /// NB: before, a thread holding no store lock waited for the running evaluation, which waited for
    /// the body, which waited for that thread: the cancel returned only when the body gave up.
    @Test func cancelFromAThreadATransactionBodyWaitsForReturns() async throws {
        try await withTemporaryRoot { root in
            let defaults = try makeDefaults("cancelForBody", root: root)
            let other = defaults.observe(.key("k"), initial: false) { _ in }
            let returned = try await insideABodyAnEvaluationWaitsFor(defaults) {
                let cancelled = DispatchSemaphore(value: 0)
                Thread {
                    other.cancel()
                    cancelled.signal()
                }.start()
                return cancelled.wait(timeout: .now() + 60) == .success
            }
            #expect(returned.evaluationWaited, "an evaluation read the store while the body held it")
            #expect(returned.result, "cancel() on a thread the body waits for waited for the evaluation")
        }
    }

    /// A handler cancels another observation whose first call is already queued behind it: that call
    /// never starts.
    ///
    /// NB: before, deliveries did not look whether their observation was cancelled: the queued call ran.
    @Test func cancelFromAHandlerStopsACallQueuedBehindIt() async throws {
        let defaults = try makeInMemoryDefaults()
        let release = DispatchSemaphore(value: 0)
        let target = Lock<DefaultsObservation?>(nil)
        let calls = Counter()
        let (snapshots, snapshot) = AsyncStream.makeStream(of: Int.self)
        let gate = defaults.observe(.key("gate")) { _ in  // its first call holds the delivery queue
            _ = release.wait(timeout: .now() + 60)
            target.withLock { $0 }?.cancel()
            snapshot.yield(calls.value)
        }
        let queued = defaults.observe(.key("k")) { _ in calls.increment() }  // its first call is queued behind
        target.withLock { $0 = queued }
        release.signal()
        let callsAfterCancel = try await ObservedValues(snapshots).first(1)
        try await waitForEvaluationsInFlight(defaults)
        #expect(callsAfterCancel == [0])
        #expect(calls.value == 0, "the call queued behind the cancelling handler did not start")
        gate.cancel()
    }

    /// A handler cancels its own observation on its first call: `cancel()` returns, and later changes
    /// call it no more.
    @Test func cancelFromItsOwnHandlerReturns() async throws {
        let defaults = try makeInMemoryDefaults()
        let calls = Counter()
        let observation = Lock<DefaultsObservation?>(nil)
        let (returns, returned) = AsyncStream.makeStream(of: Int.self)
        let observed = defaults.observe(.key("k")) { _ in
            calls.increment()
            guard let observation = observation.withLock({ $0 }) else { return }
            observation.cancel()
            returned.yield(calls.value)
        }
        observation.withLock { $0 = observed }
        // NB: set after the first call may have run: then the first change's call cancels it.
        try defaults.write(1, forKey: "k")
        let callsAfterCancel = try await ObservedValues(returns).first(1)
        try defaults.write(2, forKey: "k")
        try await waitForEvaluationsInFlight(defaults)
        #expect(calls.value == callsAfterCancel[0], "no call after cancel() returned")
    }

    /// The error handler, called by an evaluation on the observation thread, cancels the observation
    /// being evaluated, whose value that evaluation changed: `cancel()` returns and the change is not
    /// delivered.
    ///
    /// NB: before, the delivery did not look whether the observation was cancelled: the handler was
    /// called after `cancel()` returned. (Earlier still, the cancel waited for the evaluation that
    /// called it: the observation thread hung on itself.)
    @Test func cancelFromTheErrorHandlerDuringAnEvaluationReturns() async throws {
        try await withTemporaryRoot { root in
            let observation = Lock<DefaultsObservation?>(nil)
            let calls = Counter()
            let (returns, returned) = AsyncStream.makeStream(of: Int.self)
            let defaults = try makeDefaults("cancelFromHandler", root: root) { _ in
                observation.withLock { $0 }?.cancel()
                returned.yield(calls.value)
            }
            try defaults.write(5, forKey: "n")
            let observed = defaults.observe(.key(Defaults.Key<Int>("n", default: 0)), initial: false) { _ in
                calls.increment()
            }
            observation.withLock { $0 = observed }
            try defaults.write("not a number", forKey: "n")  // reads as the default, 0: a change, and a report
            let callsAfterCancel = try await ObservedValues(returns).first(1)
            try await waitForEvaluationsInFlight(defaults)
            #expect(callsAfterCancel == [0])
            #expect(calls.value == 0, "the change the cancelling evaluation found was not delivered")
        }
    }

    /// The error handler, called by an evaluation, waits for a lock of the app; the thread holding
    /// that lock cancels the observation: `cancel()` returns.
    ///
    /// NB: before, the cancel waited for the evaluation, which waited for the app's lock, held by the
    /// cancelling thread.
    @Test func cancelHoldingALockTheErrorHandlerWaitsForReturns() throws {
        try withTemporaryRoot { root in
            let appLock = DispatchSemaphore(value: 1)
            let reporting = DispatchSemaphore(value: 0)
            let defaults = try makeDefaults("cancelHoldingALock", root: root) { _ in
                reporting.signal()
                appLock.wait()
                appLock.signal()
            }
            let observed = defaults.observe(.key(Defaults.Key<Int>("n", default: 0)), initial: false) { _ in }
            appLock.wait()
            try defaults.write("not a number", forKey: "n")  // its evaluation reports a mismatched value
            let reported = reporting.wait(timeout: .now() + 60) == .success
            let cancelled = DispatchSemaphore(value: 0)
            Thread {
                observed.cancel()
                cancelled.signal()
            }.start()
            let returned = cancelled.wait(timeout: .now() + 60) == .success
            appLock.signal()
            #expect(reported, "the evaluation called the error handler")
            #expect(returned, "cancel() waited for an evaluation waiting for the cancelling thread's lock")
        }
    }

    /// A handler cancels the task that consumes a stream, so the stream's termination (the stream's
    /// `cancel()`) runs on the delivery queue, inside `Task.cancel()`: it returns.
    @Test func aStreamEndedFromAHandlerReturns() async throws {
        let defaults = try makeInMemoryDefaults()
        let (starts, started) = AsyncStream.makeStream(of: Void.self)
        let consumer = Task.detached {
            for await _ in defaults.changes(of: .key("k")) { started.yield() }
        }
        _ = try await ObservedValues(starts).first(1)  // NB: now it waits in the stream for the next value
        let (returns, returned) = AsyncStream.makeStream(of: Void.self)
        let observation = defaults.observe(.key("other")) { _ in
            consumer.cancel()
            returned.yield()
        }
        _ = try await ObservedValues(returns).first(1)
        await consumer.value
        observation.cancel()
    }

    /// A task consuming `changes(of:)` is cancelled while the observation thread delivers to it
    /// (another thread writes the key without pause), 300 times: each `Task.cancel()` returns, and the
    /// consumer ends.
    ///
    /// NB: the stream's termination runs inside `Task.cancel()`, holding the task's status lock, which a
    /// yield to it needs; a termination that waited out the evaluation deadlocked both.
    ///
    /// NB: each round cancels a consumer that has received a value (so it is consuming, not waiting to
    /// start) and waits for it to end: a consumer started only after the test returned (the cooperative
    /// pool's threads busy with other tests) opened the global domain then, and so made the removed
    /// temporary root again, with an `NSGlobalDomain.sqlite3` in it, left behind in `$TMPDIR`.
    @Test func cancellingAConsumerWhileAChangeIsDeliveredReturns() async throws {
        try await withTemporaryRoot { root in
            let defaults = try makeDefaults("cancel", root: root)
            let written = Atomic<Int>(0)
            let write: @Sendable () -> Void = {
                try? defaults.write(.integer(written.add(1, ordering: .relaxed).newValue), forKey: "k")
            }
            try await whileRepeating(write) {
                for round in 0..<300 {
                    let (received, receiving) = AsyncStream.makeStream(of: Void.self)
                    let consumer = Task.detached {
                        defer { receiving.finish() }
                        for await _ in defaults.changes(of: .key("k")) { receiving.yield() }
                    }
                    for await _ in received { break }
                    let cancelled = DispatchSemaphore(value: 0)
                    Thread {
                        consumer.cancel()
                        cancelled.signal()
                    }.start()
                    if cancelled.wait(timeout: .now() + 30) == .timedOut {
                        Issue.record("round \(round): Task.cancel() of a changes(of:) consumer never returned")
                        return
                    }
                    await consumer.value
                }
            }
        }
    }

    /// Runs `whileWaitedFor` inside a transaction's body on `defaults`' store (which writes "k") once an
    /// evaluation of the whole store has started reading it, and so waits for that body's store.
    /// - Returns: whether that evaluation started reading (false: the body ran after a 60 s bound
    ///   anyway), and what `whileWaitedFor` returned.
    private func insideABodyAnEvaluationWaitsFor<T: Sendable>(
        _ defaults: Defaults, _ whileWaitedFor: @escaping @Sendable () -> T
    ) async throws -> (evaluationWaited: Bool, result: T) {
        let inBody = Atomic<Bool>(false)
        let reading = DispatchSemaphore(value: 0)
        let wholeStore = Defaults.Observed(keys: nil) { defaults in
            if inBody.load(ordering: .acquiring) { reading.signal() }
            return Defaults.Observed<[String: PreferenceValue]>.everything.read(defaults)  // needs the store's lock
        }
        let evaluated = defaults.observe(wholeStore, initial: false) { _ in }
        defer { evaluated.cancel() }
        let (outcomes, outcome) = AsyncStream.makeStream(of: (evaluationWaited: Bool, result: T).self)
        Thread {
            try? defaults.transaction { domain in
                try domain.write(.integer(1), forKey: "k")
                inBody.store(true, ordering: .releasing)
                defaults.register(["r": .integer(1)])  // asks for an evaluation of every key
                let waited = reading.wait(timeout: .now() + 60) == .success
                outcome.yield((waited, whileWaitedFor()))
            }
        }.start()
        return try await ObservedValues(outcomes).first(1)[0]
    }

    /// Returns once the evaluation running now, if any, has finished and the calls it queued have run:
    /// an observation made now is evaluated only by a later evaluation (they run one at a time), whose
    /// calls are queued after on the serial delivery queue.
    private func waitForEvaluationsInFlight(_ defaults: Defaults) async throws {
        let (marks, mark) = AsyncStream.makeStream(of: PreferenceValue?.self)
        let marker = defaults.observe(.key("inFlightMarker"), initial: false) { mark.yield($0) }
        defer { marker.cancel() }
        try defaults.write(.string(UUID().uuidString), forKey: "inFlightMarker")
        _ = try await ObservedValues(marks).first(1)
    }
}
