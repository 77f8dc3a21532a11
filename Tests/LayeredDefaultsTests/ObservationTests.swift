import Foundation
import LayeredDefaultsCompatibility
import LayeredDefaultsTesting
import PackageTestSupport
import Synchronization
import Testing

@testable import LayeredDefaults

@Suite struct ObservationTests {
    // NB: observers are evaluated off the writer's thread and changes made before an evaluation starts
    // share it, so these tests wait for each value before making the next change: only the last value
    // of a burst is promised (see `theLastValueOfABurstIsAlwaysDelivered`).

    @Test func emitsAfterEachChangeThroughAnyInstanceAndNotWhenUnchanged() async throws {
        try await withTemporaryRoot { root in
            let observed = try makeDefaults("app", root: root)
            let other = try makeDefaults("app", root: root)
            let changes = ObservedValues(observed.changes(of: .key("k"), initial: false))
            observed.set("a", forKey: "k")
            #expect(try await changes.first(1) == ["a"])
            other.set("a", forKey: "k")  // same resolved value: no emission
            other.set("b", forKey: "k")
            #expect(try await changes.first(2) == ["a", "b"])
            observed.set(1, forKey: "unrelated")
            other.removeObject(forKey: "k")
            #expect(try await changes.first(3) == ["a", "b", nil])
        }
    }

    @Test func registrationArgumentAndSuiteChangesEmitWhenTheyAlterTheValue() async throws {
        try await withTemporaryRoot { root in
            let defaults = try makeDefaults("app", root: root)
            try makeDefaults("suite", root: root).write("from-suite", forKey: "k")
            let changes = ObservedValues(defaults.changes(of: .key("k"), initial: false))
            defaults.register(defaults: ["k": "registered"])
            #expect(try await changes.first(1) == ["registered"])
            defaults.register(defaults: ["other": 1])
            defaults.addSuite(named: "suite")
            #expect(try await changes.first(2) == ["registered", "from-suite"])
            defaults.setVolatileDomain(["k": "argument"], forName: Defaults.argumentDomain)
            #expect(try await changes.first(3) == ["registered", "from-suite", "argument"])
        }
    }

    @Test func theLastValueOfABurstIsAlwaysDelivered() async throws {
        let defaults = try makeInMemoryDefaults()
        let changes = ObservedValues(defaults.changes(of: .key("k"), initial: false))
        await withTaskGroup(of: Void.self) { group in
            for index in 1...100 { group.addTask { defaults.set(index, forKey: "k") } }
        }
        defaults.set(-1, forKey: "k")
        let delivered = try await changes.until { $0.last == .integer(-1) }
        #expect(delivered.count <= 101, "intermediate values may be skipped, never invented")
        #expect(zip(delivered, delivered.dropFirst()).allSatisfy { $0 != $1 }, "never the same value twice in a row")
    }

    @Test func seesAnotherProcessWrite() async throws {
        try await withTemporaryRoot { root in
            let defaults = try makeDefaults("app", root: root)
            let changes = defaults.changes(of: .key("remote"), initial: false)
            #expect(try fixture(root, "app", "write", "remote", #"{"string":"hello"}"#).status == 0)
            #expect(try await ObservedValues(changes).first(1) == ["hello"])
        }
    }

    @Test func callbackFormStopsWithItsToken() async throws {
        let defaults = try makeInMemoryDefaults()
        let (stream, continuation) = AsyncStream.makeStream(of: PreferenceValue?.self)
        let delivered = ObservedValues(stream)
        let observation = defaults.observe(.key("k"), initial: false) { continuation.yield($0) }
        defaults.set(1, forKey: "k")
        #expect(try await delivered.first(1) == [.integer(1)])
        observation.cancel()
        defaults.set(2, forKey: "k")
        defaults.set(3, forKey: "k")
        // NB: handlers are called one at a time, in order: once a later observation got 4, any call
        // for 2 or 3 would have been made.
        let (laterStream, laterContinuation) = AsyncStream.makeStream(of: PreferenceValue?.self)
        let later = ObservedValues(laterStream)
        let done = defaults.observe(.key("k"), initial: false) { laterContinuation.yield($0) }
        defaults.set(4, forKey: "k")
        #expect(try await later.first(1) == [.integer(4)])
        done.cancel()
        continuation.finish()
        await #expect(throws: ObservationWaitError.sequenceEnded(delivered: 1), "nothing delivered after cancel()") {
            try await delivered.until { _ in false }
        }
    }

    @Test func wholeStoreObservation() async throws {
        let defaults = try makeInMemoryDefaults()
        let changes = ObservedValues(defaults.changes(of: .everything, initial: false))
        defaults.set(1, forKey: "a")
        #expect(try await changes.first(1) == [["a": 1]])
        defaults.register(defaults: ["r": true])
        #expect(try await changes.first(2) == [["a": 1], ["a": 1, "r": true]])
    }

    @Test func typedKeyChanges() async throws {
        let errors = ReportedErrors()  // NB: the garbage below is reported; kept out of the test output
        let defaults = try makeInMemoryDefaults(errorHandler: errors.record)
        let size = Defaults.Key("size", default: 12)
        let changes = ObservedValues(defaults.changes(of: .key(size), initial: false))
        try defaults.write(14, for: size)
        #expect(try await changes.first(1) == [14])
        try defaults.write("garbage", forKey: "size")  // reads as the default
        #expect(try await changes.first(2) == [14, 12])
        #expect(errors.all == [.mismatchedValue(suite: "test.suite", key: "size", type: "Int")])
        try defaults.write(nil, forKey: "size")  // still the default: no emission
        try defaults.write(16, for: size)
        #expect(try await changes.first(3) == [14, 12, 16])
    }

    @Test func streamsStartWithTheCurrentValue() async throws {
        let defaults = try makeInMemoryDefaults()
        let size = Defaults.Key("size", default: 12)
        try defaults.write(14, for: size)
        let typed = ObservedValues(defaults.changes(of: .key(size)))
        let untyped = ObservedValues(defaults.changes(of: .key("size")))
        let missing = ObservedValues(defaults.changes(of: .key("missing")))
        #expect(try await typed.first(1) == [14])
        #expect(try await untyped.first(1) == [.integer(14)])
        #expect(try await missing.first(1) == [nil])
        try defaults.write(16, for: size)
        #expect(try await typed.first(2) == [14, 16])
    }

    /// Neither consumer is told `initial`: each delivers the current value first, for every kind of
    /// description, before any change.
    @Test func initialDefaultsToTrueForBothConsumersAndEveryDescription() async throws {
        let defaults = try makeInMemoryDefaults()
        let size = Defaults.Key("size", default: 12)
        try defaults.write(14, for: size)
        defaults.set("dark", forKey: "theme")
        #expect(try await firstDelivered(defaults, .key("theme")) == [.string("dark"), .string("dark")])
        #expect(try await firstDelivered(defaults, .key("missing")) == [nil, nil])
        #expect(try await firstDelivered(defaults, .key(size)) == [14, 14])
        let both: [String: PreferenceValue] = ["theme": "dark", "size": 14]
        #expect(try await firstDelivered(defaults, .keys(["theme", "size", "missing"])) == [both, both])
        let everything = try defaults.resolvedValues()
        #expect(try await firstDelivered(defaults, .everything) == [everything, everything])
    }

    /// What `observe(_:initial:handler:)` and `changes(of:)` deliver first for `observed`, neither told
    /// `initial`, with no change made meanwhile.
    private func firstDelivered<Value>(_ defaults: Defaults, _ observed: Defaults.Observed<Value>) async throws -> [Value] {
        let (calls, call) = AsyncStream.makeStream(of: Value.self)
        let observation = defaults.observe(observed) { call.yield($0) }
        defer { observation.cancel() }
        let fromCallback = try await ObservedValues(calls).first(1)
        let fromStream = try await ObservedValues(defaults.changes(of: observed)).first(1)
        return fromCallback + fromStream
    }

    @Test func oneStreamForSeveralKeys() async throws {
        let defaults = try makeInMemoryDefaults()
        defaults.set("a", forKey: "first")
        let changes = ObservedValues(defaults.changes(of: .keys(["first", "second"])))
        #expect(try await changes.first(1) == [["first": "a"]])
        defaults.set(2, forKey: "second")
        #expect(try await changes.first(2) == [["first": "a"], ["first": "a", "second": 2]])
        defaults.set(3, forKey: "unrelated")
        defaults.removeObject(forKey: "first")
        #expect(try await changes.first(3) == [["first": "a"], ["first": "a", "second": 2], ["second": 2]])
    }

    @Test func typedCallback() async throws {
        let defaults = try makeInMemoryDefaults()
        let size = Defaults.Key("size", default: 12)
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let observation = defaults.observe(.key(size), initial: false) { (value: Int) in continuation.yield(value) }
        defaults[size] = 14
        #expect(try await ObservedValues(stream).first(1) == [14])
        observation.cancel()
        let (initialStream, initialContinuation) = AsyncStream.makeStream(of: Int.self)
        let withInitial = defaults.observe(.key(size)) { initialContinuation.yield($0) }
        #expect(try await ObservedValues(initialStream).first(1) == [14])
        withInitial.cancel()
    }

    @Test func aSlowConsumerGetsOnlyTheNewestValue() async throws {
        let defaults = try makeInMemoryDefaults()
        let stream = defaults.changes(of: .key("k"))  // initial nil, not consumed yet
        let seen = ObservedValues(defaults.changes(of: .key("k"), initial: false))
        for index in 1...20 {
            defaults.set(index, forKey: "k")
            _ = try await seen.until { $0.last == .integer(index) }
        }
        // NB: evaluations run one at a time, so once the next one delivered, the one that delivered 20
        // to every observation (the unconsumed stream too) has finished.
        let marker = ObservedValues(defaults.changes(of: .key("marker"), initial: false))
        defaults.set(true, forKey: "marker")
        _ = try await marker.first(1)
        #expect(try await ObservedValues(stream).first(1) == [.integer(20)], "the buffer keeps only the newest value")
    }

    @Test func aWriteNeverWaitsForObservers() throws {
        let defaults = try makeInMemoryDefaults()
        let gate = DispatchSemaphore(value: 0)
        let evaluations = Counter()
        let blocking = Defaults.Observed(keys: nil) { _ in
            evaluations.increment()
            if evaluations.value == 2 { gate.wait() }  // the first evaluation after registering blocks
            return evaluations.value
        }
        let observation = defaults.observe(blocking, initial: false) { _ in }
        let safetyNet = Counter()
        DispatchQueue.global().asyncAfter(deadline: .now() + 10) {
            safetyNet.increment()
            gate.signal()
        }
        try defaults.write(1, forKey: "k")
        try defaults.write(2, forKey: "k")
        #expect(safetyNet.value == 0, "the writes returned while an observer was still evaluating")
        gate.signal()
        observation.cancel()
    }
}

/// Which changes ask the observation center for an evaluation (on a center of the test's own).
@Suite struct ObservationWakeupTests {
    @Test func aChangeOfKeysNobodyWatchesAsksForNoEvaluation() {
        // NB: a center of its own, so parallel tests' observations do not count; its thread (started by
        // the first `add`) stays parked for the rest of the test process once the observations are gone.
        let center = ObservationCenter()
        #expect(!center.changed(keys: ["k"]), "no observation at all")
        let watcher = center.add(keys: ["k", "caf\u{E9}"]) {}
        #expect(!center.changed(keys: ["j"]))
        #expect(!center.changed(keys: [String]()), "a transaction that changed nothing")
        #expect(center.changed(keys: ["j", "k"]))
        #expect(center.changed(keys: ["cafe\u{301}"]), "the same key in another Unicode form")
        #expect(center.changed(keys: nil as [String]?), "a change of unknown keys concerns every observation")
        let everyKey = center.add(keys: nil) {}
        #expect(center.changed(keys: ["j"]), "an observation of every key is concerned by any")
        center.remove(everyKey)
        #expect(!center.changed(keys: ["j"]))
        center.remove(watcher)
        #expect(!center.changed(keys: ["k"]), "a removed observation is not counted")
    }
}
