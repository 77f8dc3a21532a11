import Foundation
import PackageTestSupport
import Testing
import ToolSupport

@testable import LayeredDefaults

/// Many threads on two instances of one suite: every write is where the writes say it is.
@Suite(.hangLimit(minutes: 1))
struct ThreadLoadTests {
    /// What one thread did: its own keys' final values (nil: removed), and how often it bumped the shared counter.
    struct Outcome: Sendable {
        var model: [String: PreferenceValue?] = [:]
        var increments = 0
        var staleReads: [String] = []
        var errors: [String] = []
    }

    /// 8 threads, 5,000 mixed operations each (writes, removals, reads of its own and others' keys,
    /// atomic updates of one shared counter, multi-key transactions), alternating between two
    /// `Defaults` instances of one suite. Every read of a thread's own key sees its last write; the
    /// domain read back through a new connection afterwards is exactly what the writes imply.
    ///
    /// NB: threads, not tasks of the cooperative pool: on a 2-core machine that pool runs two at a
    /// time, and the point is eight blocked-in-SQLite callers at once.
    @Test func eightThreadsOnTwoInstancesLoseNothing() throws {
        try withTemporaryRoot { root in
            let instances = try (0..<2).map { _ in
                try Defaults(suiteName: "threads", configuration: .init(location: .directory(root), arguments: []))
            }
            let seed = UInt64.random(in: 0...UInt64.max)
            let outcomes = Lock<[Int: Outcome]>([:])
            let group = DispatchGroup()
            for thread in 0..<8 {
                group.enter()
                Thread.detachNewThread {
                    let outcome = Self.work(thread: thread, seed: seed &+ UInt64(thread), instances: instances)
                    outcomes.withLock { $0[thread] = outcome }
                    group.leave()
                }
            }
            try #require(group.wait(timeout: .now() + 50) == .success, "threads did not finish (seed \(seed))")
            let all = outcomes.withLock { $0 }
            var expected: [String: PreferenceValue] = [:]
            var increments = 0
            for outcome in all.values {
                #expect(outcome.errors.isEmpty, "seed \(seed): \(outcome.errors.prefix(3))")
                #expect(outcome.staleReads.isEmpty, "seed \(seed): stale reads of \(outcome.staleReads.prefix(3))")
                for case (let key, let value?) in outcome.model { expected[key] = value }
                increments += outcome.increments
            }
            expected["shared-counter"] = .integer(increments)
            let fresh = try freshValues(of: databaseFile("threads", in: root))
            #expect(fresh == expected, "seed \(seed): \(fresh.count) keys read back, \(expected.count) expected")
            #expect(try instances[0].persistentValues() == expected)
            #expect(try instances[1].persistentValues() == expected)
            #expect(try integrityCheck(of: databaseFile("threads", in: root)) == "ok")
        }
    }

    private static func work(thread: Int, seed: UInt64, instances: [Defaults]) -> Outcome {
        var generator = SplitMix64(seed: seed)
        var outcome = Outcome()
        func ownKey() -> String { "t\(thread)-k\(Int.random(in: 0..<40, using: &generator))" }
        for step in 0..<5000 {
            let defaults = instances[(thread + step) % 2]
            do {
                switch Int.random(in: 0..<100, using: &generator) {
                case 0..<35:
                    let key = ownKey()
                    let value = RandomValues.value(using: &generator)
                    try defaults.write(value, forKey: key)
                    outcome.model[key] = .some(value)
                case 35..<45:
                    let key = ownKey()
                    try defaults.write(nil, forKey: key)
                    outcome.model[key] = .some(nil)
                case 45..<75:
                    let key = ownKey()
                    let expected = outcome.model[key] ?? nil
                    if try defaults.persistentValue(forKey: key) != expected { outcome.staleReads.append(key) }
                case 75..<85:
                    _ = try defaults.value(
                        forKey: "t\(Int.random(in: 0..<8, using: &generator))-k\(Int.random(in: 0..<40, using: &generator))")
                case 85..<95:
                    try defaults.update(forKey: "shared-counter") { $0 = .integer(($0?.integerValue ?? 0) + 1) }
                    outcome.increments += 1
                default:
                    let (first, second) = (ownKey(), ownKey())
                    let value = RandomValues.value(using: &generator)
                    try defaults.transaction { domain in
                        try domain.write(value, forKey: first)
                        try domain.write(domain.value(forKey: first), forKey: second + "-copy")
                        try domain.write(nil, forKey: second)
                    }
                    outcome.model[first] = .some(value)
                    outcome.model[second + "-copy"] = .some(value)
                    outcome.model[second] = .some(nil)
                }
            } catch {
                outcome.errors.append("step \(step): \(error)")
            }
        }
        return outcome
    }
}
