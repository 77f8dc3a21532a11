import Foundation
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// Another process holds the write lock past the busy timeout: every write API fails with
/// ``DefaultsError/busy(suite:key:)`` and changes nothing, reads go on, and once the holder dies (its
/// transaction rolled back) writing works again. (`LayeredDefaultsTests.ConcurrencyTests` covers the
/// basic case: one write, the typed error, the timeout respected.)
@Suite(.hangLimit(minutes: 1))
struct BusyTests {
    @Test func aHeldLockDisturbsNothingElse() throws {
        try withTemporaryRoot { root in
            let reported = ReportedErrors()
            let defaults = try Defaults(
                suiteName: "busy",
                configuration: .init(
                    location: .directory(root), arguments: [], busyTimeout: .milliseconds(100), errorHandler: reported.record))
            try defaults.write("before", forKey: "k")
            try defaults.write(1, forKey: "count")
            let before = try defaults.persistentValues()

            let holder = try ChildProcess.fixture(root, "busy", ["hold-write-lock", "30"])
            let deadline = ContinuousClock.now + .seconds(20)
            #expect(try holder.nextLine(before: deadline) == "locked")

            #expect(throws: DefaultsError.busy(suite: "busy", key: "k")) { try defaults.write("after", forKey: "k") }
            #expect(throws: DefaultsError.busy(suite: "busy", key: "count")) { try defaults.update(forKey: "count") { $0 = 2 } }
            #expect(throws: DefaultsError.busy(suite: "busy", key: nil)) {
                try defaults.transaction { try $0.write("t", forKey: "t") }
            }
            #expect(throws: DefaultsError.busy(suite: "busy", key: nil)) { try defaults.replacePersistentValues(["x": 1]) }
            defaults.set("after", forKey: "k")
            defaults.removeObject(forKey: "count")
            #expect(reported.all == [.busy(suite: "busy", key: "k"), .busy(suite: "busy", key: "count")])

            #expect(defaults.string(forKey: "k") == "before", "reads go on from memory")
            #expect(try defaults.persistentValues() == before, "and from the file")
            let reader = try runFixture(root, "busy", ["read", "count"])
            #expect(reader.output == #"{"integer":1}"# + "\n", "another process reads too: \(reader.error)")

            holder.send(SIGKILL)
            try holder.wait(before: deadline)
            try defaults.write("after", forKey: "k")
            #expect(
                try freshValues(of: databaseFile("busy", in: root)) == ["k": "after", "count": 1],
                "the holder's uncommitted write is gone, ours is in")
            #expect(try integrityCheck(of: databaseFile("busy", in: root)) == "ok")
        }
    }
}
