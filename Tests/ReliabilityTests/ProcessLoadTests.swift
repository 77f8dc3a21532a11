import Foundation
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// Several processes writing one suite at the same time: nothing acknowledged is lost.
@Suite(.hangLimit(minutes: 1))
struct ProcessLoadTests {
    /// 4 processes write 1,000 distinct keys each into one suite at once; each prints a key only once its
    /// write has returned. All 4,000 are there afterwards, with their values.
    @Test func fourProcessesWritingDistinctKeysLoseNothing() throws {
        try withTemporaryRoot { root in
            let deadline = ContinuousClock.now + .seconds(45)
            let children = try (0..<4).map { try ChildProcess.fixture(root, "many", ["write-many", "p\($0)", "1000"]) }
            var acknowledged: [String] = []
            for child in children {
                acknowledged += try child.remainingLines(before: deadline)
                #expect(try child.wait(before: deadline) == 0, "\(child.errorText)")
            }
            #expect(acknowledged.count == 4000)
            let values = try freshValues(of: databaseFile("many", in: root))
            #expect(values.count == 4000)
            for key in acknowledged {
                let index = Int(key.split(separator: "-").last!)!
                #expect(values[key] == .integer(index), "\(key) lost")
            }
            #expect(try integrityCheck(of: databaseFile("many", in: root)) == "ok")
        }
    }

    /// 4 processes open one new store at the same moment, 15 times over: every one of them opens it (no
    /// `foreignDatabase` because another was committing the schema, no `busy` waiting to create a schema
    /// another had just created), and the store is in WAL mode.
    @Test func processesOpeningOneNewStoreAtOnceAllSucceed() throws {
        try withTemporaryRoot { root in
            let deadline = ContinuousClock.now + .seconds(45)
            for round in 0..<15 {
                let suite = "new\(round)"
                let children = try (0..<4).map { try ChildProcess.fixture(root, suite, ["write-many", "p\($0)", "5"]) }
                for child in children {
                    #expect(try child.wait(before: deadline) == 0, "round \(round): \(child.errorText)")
                }
                #expect(try freshValues(of: databaseFile(suite, in: root)).count == 20, "round \(round)")
                let connection = try Connection(path: databaseFile(suite, in: root).path, busyTimeoutMilliseconds: 1000)
                #expect(try connection.text("PRAGMA journal_mode") == "wal", "round \(round)")
                connection.close()
            }
        }
    }

    /// 4 processes each atomically increment one counter 500 times (`update(forKey:_:)`, one
    /// `BEGIN IMMEDIATE` transaction each): it ends at exactly 2,000.
    @Test func fourProcessesIncrementingOneCounterEndAtExactly2000() throws {
        try withTemporaryRoot { root in
            let deadline = ContinuousClock.now + .seconds(45)
            let children = try (0..<4).map { _ in try ChildProcess.fixture(root, "counter", ["increment", "launchCount", "500"]) }
            for child in children {
                #expect(try child.wait(before: deadline) == 0, "\(child.errorText)")
            }
            #expect(try freshValues(of: databaseFile("counter", in: root)) == ["launchCount": .integer(2000)])
            let defaults = try Defaults(suiteName: "counter", configuration: .init(location: .directory(root), arguments: []))
            #expect(defaults.integer(forKey: "launchCount") == 2000)
        }
    }
}
