import Foundation
import Testing
@testable import LayeredDefaults

@Suite struct ObservationTests {
    /// Collects the first `count` elements of a stream, or fails after `timeout`.
    func first<S: AsyncSequence & Sendable>(_ count: Int, of sequence: S, timeout: Duration = .seconds(5)) async throws -> [S.Element]
    where S.Element: Sendable {
        try await withThrowingTaskGroup(of: [S.Element]?.self) { group in
            group.addTask {
                var values: [S.Element] = []
                for try await value in sequence {
                    values.append(value)
                    if values.count == count { break }
                }
                return values
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            let result = try await group.next()!
            group.cancelAll()
            return try #require(result, "timed out waiting for \(count) values")
        }
    }

    @Test func emitsAfterEachChangeThroughAnyInstanceAndNotWhenUnchanged() async throws {
        try await withTemporaryRootAsync { root in
            let observed = try makeDefaults("app", root: root)
            let other = try makeDefaults("app", root: root)
            let changes = observed.changes(forKey: "k")
            observed.set("a", forKey: "k")
            other.set("a", forKey: "k")  // same resolved value: no emission
            other.set("b", forKey: "k")
            observed.set(1, forKey: "unrelated")
            other.removeObject(forKey: "k")
            #expect(try await first(3, of: changes) == ["a", "b", nil])
        }
    }

    @Test func registrationArgumentAndSuiteChangesEmitWhenTheyAlterTheValue() async throws {
        try await withTemporaryRootAsync { root in
            let defaults = try makeDefaults("app", root: root)
            try makeDefaults("suite", root: root).write("from-suite", forKey: "k")
            let changes = defaults.changes(forKey: "k")
            defaults.register(defaults: ["k": "registered"])
            defaults.register(defaults: ["other": 1])
            defaults.addSuite(named: "suite")
            defaults.setVolatileDomain(["k": "argument"], forName: Defaults.argumentDomain)
            #expect(try await first(3, of: changes) == ["registered", "from-suite", "argument"])
        }
    }

    @Test func seesAnotherProcessWrite() async throws {
        try await withTemporaryRootAsync { root in
            let defaults = try makeDefaults("app", root: root)
            let changes = defaults.changes(forKey: "remote")
            #expect(try fixture(root, "app", "write", "remote", #"{"string":"hello"}"#).status == 0)
            #expect(try await first(1, of: changes) == ["hello"])
        }
    }

    @Test func callbackFormStopsWithItsToken() async throws {
        let defaults = try makeInMemoryDefaults()
        let (stream, continuation) = AsyncStream.makeStream(of: PreferenceValue?.self)
        let observation = defaults.observe("k") { continuation.yield($0) }
        defaults.set(1, forKey: "k")
        #expect(try await first(1, of: stream) == [.integer(1)])
        observation.cancel()
        defaults.set(2, forKey: "k")
        defaults.set(3, forKey: "k")
        let delivered = Counter()
        let done = defaults.observe("k") { _ in delivered.increment() }
        defaults.set(4, forKey: "k")
        try await Task.sleep(for: .milliseconds(300))
        _ = done
        #expect(delivered.value == 1)
        continuation.finish()
        var rest: [PreferenceValue?] = []
        for await value in stream { rest.append(value) }
        #expect(rest.isEmpty, "nothing delivered after cancel()")
    }

    @Test func wholeStoreObservation() async throws {
        let defaults = try makeInMemoryDefaults()
        let changes = defaults.changes()
        defaults.set(1, forKey: "a")
        defaults.register(defaults: ["r": true])
        #expect(try await first(2, of: changes) == [["a": 1], ["a": 1, "r": true]])
    }

    @Test func typedKeyChanges() async throws {
        let defaults = try makeInMemoryDefaults()
        let size = Defaults.Key("size", default: 12)
        let changes = defaults.changes(for: size)
        try defaults.set(14, for: size)
        try defaults.write("garbage", forKey: "size")  // reads as the default
        try defaults.write(nil, forKey: "size")        // still the default: no emission
        try defaults.set(16, for: size)
        #expect(try await first(3, of: changes) == [14, 12, 16])
    }
}
