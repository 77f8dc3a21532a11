import Foundation
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing

@testable import LayeredDefaults

@Suite struct ConcurrencyTests {
    @Test func twoInstancesInOneProcessSeeEachOtherAtOnce() throws {
        try withTemporaryRoot { root in
            let first = try makeDefaults("shared", root: root)
            let second = try makeDefaults("shared", root: root)
            #expect(second.string(forKey: "k") == nil)
            first.set("one", forKey: "k")
            #expect(second.string(forKey: "k") == "one")
            second.removeObject(forKey: "k")
            #expect(first.string(forKey: "k") == nil)
        }
    }

    @Test func concurrentWritersFromManyThreadsLoseNothing() throws {
        try withTemporaryRoot { root in
            let instances = try (0..<2).map { _ in try makeDefaults("threads", root: root) }
            try onThreads(8) { task in
                let defaults = instances[task % 2]
                for index in 0..<200 {
                    defaults.set(index, forKey: "task\(task)-\(index)")
                    _ = defaults.integer(forKey: "task\((task + 1) % 8)-\(index)")
                    _ = try? defaults.update(forKey: "counter") { $0 = .integer(($0?.integerValue ?? 0) + 1) }
                }
            }
            let values = try freshValues(of: root.appendingPathComponent("threads.sqlite3"))
            #expect(values.count == 8 * 200 + 1)
            #expect(values["counter"] == .integer(1600))
            for task in 0..<8 { #expect(values["task\(task)-199"] == .integer(199)) }
        }
    }

    @Test func anotherProcessSeesAWriteAndWeSeeItsWrite() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("cross", root: root)
            #expect(defaults.string(forKey: "theirs") == nil)  // cached as absent
            defaults.set("ours", forKey: "ours")
            #expect(try fixture(root, "cross", "read", "ours").output == #"{"string":"ours"}"# + "\n")
            #expect(try fixture(root, "cross", "write", "theirs", #"{"string":"theirs"}"#).status == 0)
            #expect(defaults.string(forKey: "theirs") == "theirs", "the next read after their write returned sees it")
            #expect(try fixture(root, "cross", "write", "theirs", #"{"integer":2}"#).status == 0)
            #expect(defaults.integer(forKey: "theirs") == 2)
        }
    }

    @Test func severalProcessesIncrementingOneCounterLoseNothing() throws {
        try withTemporaryRoot { root in
            _ = try makeDefaults("counter", root: root)
            let children = try (0..<4).map { _ in
                try ChildProcess("defaults-fixture", [root.path, "counter", "increment", "n", "100"])
            }
            for child in children {
                #expect(try child.wait(before: .now + .seconds(120)) == 0)
            }
            #expect(try makeDefaults("counter", root: root).integer(forKey: "n") == 400)
        }
    }

    @Test func aFailedTransactionChangesNothing() throws {
        struct Abort: Error {}
        let defaults = try makeInMemoryDefaults()
        defaults.set("before", forKey: "k")
        #expect(throws: Abort.self) {
            try defaults.transaction { domain in
                try domain.write("during", forKey: "k")
                try domain.write("new", forKey: "other")
                throw Abort()
            }
        }
        #expect(defaults.string(forKey: "k") == "before")
        #expect(defaults.object(forKey: "other") == nil)
        #expect(try defaults.persistentValues() == ["k": "before"])
    }

    @Test func aLockHeldPastTheBusyTimeoutFailsWithATypedError() throws {
        try withTemporaryRoot { root in
            let defaults = try Defaults(
                suiteName: "busy",
                configuration: .init(location: .directory(root), arguments: [], busyTimeout: .milliseconds(200)))
            defaults.set("before", forKey: "k")
            let holder = try ChildProcess("defaults-fixture", [root.path, "busy", "hold-write-lock", "3"])
            defer {
                holder.send(SIGKILL)
                _ = try? holder.wait(before: .now + .seconds(120))
            }
            _ = try holder.nextLine(before: .now + .seconds(120))  // "locked"
            let start = ContinuousClock.now
            #expect(throws: DefaultsError.busy(suite: "busy", key: "k")) { try defaults.write("after", forKey: "k") }
            #expect(ContinuousClock.now - start < .seconds(2), "gave up after the busy timeout, not when the holder let go")
            #expect(defaults.string(forKey: "k") == "before")
        }
    }
}
