import Foundation
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// No error message, description or log line contains a stored or rejected value: each error path is
/// provoked with a distinctive value, and every description and every line on standard error is
/// searched for it.
@Suite(.hangLimit(minutes: 1))
struct PrivacyTests {
    static let secret = "PRIVATE-7f3a9c-hunter2"
    static let secretNumber = "18446744073709551557"

    struct Secret { let text = PrivacyTests.secret }

    private func expectNoSecret(_ text: String, _ comment: Comment) {
        #expect(!text.contains(Self.secret), comment)
        #expect(!text.contains(Self.secretNumber), comment)
    }

    @Test func errorsOfThisProcessNeverContainTheValue() throws {
        try withTemporaryRoot { root in
            let reported = ReportedErrors()
            let defaults = try Defaults(
                suiteName: "private",
                configuration: .init(location: .directory(root), arguments: [], errorHandler: reported.record))
            var thrown: [any Error] = []
            func attempt(_ body: () throws -> Void) {
                do { try body() } catch { thrown.append(error) }
            }

            defaults.set(Secret(), forKey: "custom")  // notPropertyList
            defaults.set([Self.secret: URL(fileURLWithPath: "/" + Self.secret)], forKey: "url")
            defaults.set(UInt64(Self.secretNumber)!, forKey: "number")  // valueOutOfRange
            attempt { try defaults.write(.string(Self.secret), forKey: "") }  // invalidKey

            try defaults.persistentStoreForTesting.withConnectionForTesting { connection in  // diskFull
                let pages = try connection.integer("PRAGMA page_count")
                _ = try connection.integer("PRAGMA max_page_count = \(pages)")
            }
            attempt { try defaults.write(.string(String(repeating: Self.secret, count: 20_000)), forKey: "big") }
            try defaults.persistentStoreForTesting.withConnectionForTesting {
                _ = try $0.integer("PRAGMA max_page_count = 1073741823")
            }

            try defaults.persistentStoreForTesting.withConnectionForTesting { connection in  // undecodableValue
                try connection.execute("INSERT INTO preferences VALUES ('mangled', 'array', '[\(Self.secret)')")
            }
            let reader = try Defaults(suiteName: "private", configuration: defaults.configuration)
            #expect(try reader.persistentValue(forKey: "mangled") == nil)
            _ = reader.dictionaryRepresentation()

            attempt { _ = try PropertyListText.parse("(\"\(Self.secret)") }  // ParseError
            attempt { _ = try PropertyListText.parse("{ \(Self.secret) = ( }") }
            attempt { _ = try JSONDecoder().decode(PreferenceValue.self, from: Data(#"{"data":"\#(Self.secret)"}"#.utf8)) }
            attempt { _ = try JSONDecoder().decode(PreferenceValue.self, from: Data(#"{"integer":"\#(Self.secret)"}"#.utf8)) }

            let all =
                reported.all.map(\.description) + thrown.map { "\($0)" } + thrown.map { String(reflecting: $0) }
                + thrown.map(\.localizedDescription)
            #expect(reported.all.count >= 5, "\(reported.all)")
            #expect(thrown.count >= 6, "\(thrown)")
            for text in all { expectNoSecret(text, "\(text)") }
        }
    }

    /// The default error handler writes one line to standard error; the fixture's own error line too.
    /// Neither contains the value, for a read-only store, a busy one, and an undecodable row.
    @Test(.reachableByAnUnprivilegedChild) func standardErrorNeverContainsTheValue() throws {
        try Unprivileged.withRoot { parent in
            Unprivileged.handOver(parent)
            let options = Unprivileged.fixtureOptions
            let root = parent.appendingPathComponent("store")
            let value = #"{"string":"\#(Self.secret)"}"#
            #expect(try runFixture(root, "private", ["write", "k", #"{"string":"before"}"#], options: options).status == 0)

            let holder = try ChildProcess.fixture(root, "private", ["hold-write-lock", "30"], options: options)
            let deadline = ContinuousClock.now + .seconds(20)
            #expect(try holder.nextLine(before: deadline) == "locked")
            let busySet = try runFixture(root, "private", ["set", "k", value], options: options + ["--busy-timeout", "100"])
            let busyWrite = try runFixture(root, "private", ["write", "k", value], options: options + ["--busy-timeout", "100"])
            holder.send(SIGKILL)
            try holder.wait(before: deadline)
            #expect(busySet.error == "LayeredDefaults: \(DefaultsError.busy(suite: "private", key: "k"))\n")
            #expect(busyWrite.error == "defaults-fixture: \(DefaultsError.busy(suite: "private", key: "k"))\n")

            chmod(root.path, 0o500)
            let readOnlySet = try runFixture(root, "private", ["set", "k", value], options: options)
            let readOnlyWrite = try runFixture(root, "private", ["write", "k", value], options: options)
            chmod(root.path, 0o700)
            #expect(readOnlySet.error.hasPrefix("LayeredDefaults: "), "\(readOnlySet.error)")
            #expect(readOnlyWrite.status == 2)

            let connection = try Connection(path: databaseFile("private", in: root).path, busyTimeoutMilliseconds: 1000)
            try connection.execute("INSERT INTO preferences VALUES ('mangled', 'dictionary', '{\(Self.secret)')")
            connection.close()
            let undecodable = try runFixture(root, "private", ["read", "mangled"], options: options)
            #expect(undecodable.output == "nil\n")
            #expect(undecodable.error.contains("mangled"), "the key is named: \(undecodable.error)")

            for result in [busySet, busyWrite, readOnlySet, readOnlyWrite, undecodable] {
                expectNoSecret(result.error + result.output, "\(result.error)")
            }
        }
    }
}
