import Foundation
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// Every way into a domain meets a bad file with a typed error naming it, and leaves it (and any file a
/// link points to) exactly as it was: same bytes, inode, mode and modification time, nothing created
/// next to it. (`LayeredDefaultsTests.BadInputTests` covers opening; this covers every entry point.)
@Suite(.hangLimit(minutes: 1))
struct BadFileTests {
    enum EntryPoint: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case open, addSuite, persistentValues, persistentDomain, setPersistentDomain, removePersistentDomain,
            replacePersistentValues, persistentDomainNames
        var testDescription: String { rawValue }
    }

    @Test(arguments: BadFile.allCases, EntryPoint.allCases)
    func aBadFileIsRefusedAndLeftUntouched(kind: BadFile, entry: EntryPoint) throws {
        try withTemporaryRoot { parent in
            let root = parent.appendingPathComponent("store")
            let reported = ReportedErrors()
            let other = try Defaults(
                suiteName: "other", configuration: .init(location: .directory(root), arguments: [], errorHandler: reported.record)
            )
            other.set("mine", forKey: "k")
            let outside = try kind.make(suite: "bad", in: root)
            let file = databaseFile("bad", in: root)
            let before = FileSnapshot.take(root)?.ignoringIndexContent.children.filter { $0.key.hasPrefix("bad.") }
            let outsideBefore = outside.flatMap(FileSnapshot.take)

            var thrown: (any Error)?
            do {
                switch entry {
                case .open: _ = try Defaults(suiteName: "bad", configuration: .init(location: .directory(root), arguments: []))
                case .addSuite: other.addSuite(named: "bad")
                case .persistentValues: _ = try other.persistentValues(forName: "bad")
                case .persistentDomain: #expect(other.persistentDomain(forName: "bad") == nil)
                case .setPersistentDomain: other.setPersistentDomain(["k": "new"], forName: "bad")
                case .removePersistentDomain: other.removePersistentDomain(forName: "bad")
                case .replacePersistentValues: try other.replacePersistentValues(["k": "new"], forName: "bad")
                case .persistentDomainNames: #expect(other.persistentDomainNames().contains("other"))
                }
            } catch {
                thrown = error
            }
            let errors = (thrown.map { [$0] } ?? []) + reported.all.map { $0 as any Error }
            if entry == .persistentDomainNames {
                #expect(errors.isEmpty, "listing names opens nothing")
            } else {
                #expect(errors.count == 1, "\(errors)")
                #expect(kind.isExpected(errors.first, file: file), "\(errors)")
            }
            #expect(
                FileSnapshot.take(root)?.ignoringIndexContent.children.filter { $0.key.hasPrefix("bad.") } == before,
                "the bad file and its neighbours are as they were")
            #expect(outside.flatMap(FileSnapshot.take) == outsideBefore, "the link's target is untouched")
            #expect(other.string(forKey: "k") == "mine", "the other domain is undisturbed")
            #expect(other.suiteNames.isEmpty)
        }
    }

    /// A foreign database in rollback mode, caught mid-transaction: the page 1 in its file says ours (our
    /// application id and schema version), and a hot `-journal` beside it holds the committed page 1, its
    /// own. SQLite rolls that journal back at its first read, so the header read before is not the file as
    /// it stands: the file is refused as foreign and nothing of ours is written into it. (Taking that
    /// header for proof, a write stored its value in the foreign table.)
    @Test func aHeaderOfOursBesideAHotRollbackJournalIsNoProof() throws {
        try withTemporaryRoot { root in
            let file = databaseFile("caught", in: root)
            _ = FileManager.default.createFile(atPath: file.path, contents: nil)
            let foreign = try Connection(path: file.path, busyTimeoutMilliseconds: 1000)
            try foreign.execute(
                """
                PRAGMA page_size = 4096; PRAGMA journal_mode = DELETE; \(TableLayout.create)
                CREATE TABLE accounts (id INTEGER PRIMARY KEY, secret TEXT); INSERT INTO accounts VALUES (1, 'theirs');
                INSERT INTO preferences VALUES ('k', 'string', 'theirs'); PRAGMA application_id = 7; PRAGMA user_version = 0;
                """)
            foreign.close()
            var data = try Data(contentsOf: file)
            let pageSize = 4096
            // The journal (https://sqlite.org/fileformat.html#the_rollback_journal): a header padded to its
            // sector size, then one record: page 1 as committed, with its checksum.
            let nonce: UInt32 = 0x0123_4567
            func big32(_ value: UInt32) -> Data { withUnsafeBytes(of: value.bigEndian) { Data($0) } }
            let page1 = data.prefix(pageSize)
            let checksum = stride(from: pageSize - 200, to: 0, by: -200).reduce(nonce) { $0 &+ UInt32(page1[$1]) }
            var journal = Data([0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7])
            for word in [1, nonce, UInt32(data.count / pageSize), 512, UInt32(pageSize)] { journal += big32(word) }
            journal += Data(count: 512 - journal.count) + big32(1) + page1 + big32(checksum)
            try journal.write(to: URL(fileURLWithPath: file.path + "-journal"))
            data.replaceSubrange(60..<64, with: big32(UInt32(TableLayout.version)))
            data.replaceSubrange(68..<72, with: big32(UInt32(TableLayout.applicationID)))
            try data.write(to: file)

            #expect(throws: DefaultsError.foreignDatabase(path: file.path)) {
                try Defaults(suiteName: "caught", configuration: .init(location: .directory(root), arguments: []))
                    .write("ours", forKey: "k")
            }
            let check = try Connection(path: file.path, busyTimeoutMilliseconds: 1000)
            defer { check.close() }
            #expect(try check.integer("PRAGMA application_id") == 7, "the journal was rolled back: the file is theirs")
            #expect(try check.text("SELECT value FROM preferences WHERE key = 'k'") == "theirs", "nothing of ours in it")
            #expect(try check.text("SELECT secret FROM accounts") == "theirs")
        }
    }

    /// A file mounted on a domain's file or on its `-wal` (`mount --bind`, in a child's own mount namespace)
    /// is a second path to that file with one link, which SQLite would give a log of its own (writes lost):
    /// the open is refused with ``DefaultsError/mountPoint(path:)`` naming that path, and nothing is
    /// written through it.
    @Test(arguments: ["", "-wal"])
    func aFileMountedOnTheStoreIsRefused(suffix: String) throws {
        try withTemporaryRoot { parent in
            let first = parent.appendingPathComponent("first")
            let second = parent.appendingPathComponent("second")
            #expect(try runFixture(first, "app", ["write", "k", #"{"string":"v"}"#]).status == 0)
            #expect(try runFixture(second, "app", ["write", "k", #"{"string":"w"}"#]).status == 0)
            // NB: onto the second domain's file goes the first's; onto its log (absent once closed), an empty file.
            let source = suffix.isEmpty ? databaseFile("app", in: first) : parent.appendingPathComponent("outside")
            let target = databaseFile("app", in: second).path + suffix
            if !suffix.isEmpty {
                #expect(FileManager.default.createFile(atPath: source.path, contents: nil))
                #expect(FileManager.default.createFile(atPath: target, contents: nil))
            }
            let script = """
                mount --bind "$1" "$2" || exit 99
                shift 2
                exec "$@"
                """
            let child = try runInOwnMountNamespace(
                script,
                [
                    source.path, target, BuiltProducts.url(of: "defaults-fixture").path,
                    second.path, "app", "write", "k2", #"{"string":"x"}"#,
                ])
            #expect(child.status == 2)
            #expect(child.error == "defaults-fixture: \(DefaultsError.mountPoint(path: target))\n")
            #expect(try freshValues(of: databaseFile("app", in: first)) == ["k": "v"])
            #expect(try Data(contentsOf: source).isEmpty || suffix.isEmpty, "nothing written through the mounted log")
        }
    }
}
