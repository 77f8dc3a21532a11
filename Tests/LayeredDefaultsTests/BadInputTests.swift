import CSQLite
import Foundation
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing

@testable import LayeredDefaults

@Suite struct BadInputTests {
    @Test(arguments: [
        "", ".", "..", "../x", "a/b", "/abs", "a\0b", "sp ace", "ü", "a\\b", String(repeating: "x", count: 129), "~", "a:b",
    ])
    func invalidSuiteNamesThrowBeforeTouchingAnything(name: String) throws {
        try withTemporaryRoot { parent in
            let root = parent.appendingPathComponent("root")
            #expect(throws: DefaultsError.invalidSuiteName(name)) {
                try Defaults(suiteName: name, configuration: .init(location: .directory(root), arguments: []))
            }
            #expect((try? FileManager.default.contentsOfDirectory(atPath: parent.path).isEmpty) == true)
        }
    }

    @Test(arguments: ["a", "A.b-c_d", "1", "...", ".hidden", String(repeating: "x", count: 128)])
    func validSuiteNamesStayInsideTheRoot(name: String) throws {
        try withTemporaryRoot { root in
            try makeDefaults(name, root: root).write(1, forKey: "k")
            let real = root.resolvingSymlinksInPath().path
            let files = try FileManager.default.contentsOfDirectory(atPath: root.path)
            #expect(files.contains(name + ".sqlite3"))
            #expect(
                URL(fileURLWithPath: real).appendingPathComponent(name + ".sqlite3").resolvingSymlinksInPath()
                    .deletingLastPathComponent().path == real)
        }
    }

    @Test func rejectedValueLeavesTheStoreUnchanged() throws {
        try withTemporaryRoot { root in
            let errors = ReportedErrors()
            let defaults = try makeDefaults(root: root, errorHandler: errors.record)
            defaults.set("kept", forKey: "k")
            defaults.set(URL(string: "https://x.y")! as Any, forKey: "k")
            defaults.set(["a": PreferenceValueTests.Custom()], forKey: "k")
            defaults.set([1: "one"], forKey: "k")
            defaults.set(UInt64.max, forKey: "k")
            defaults.set(PreferenceValueTests.Custom(), forKey: "")
            #expect(defaults.string(forKey: "k") == "kept")
            #expect(try makeDefaults(root: root).persistentValues() == ["k": "kept"])
            #expect(errors.all.count == 5)
            #expect(errors.all.allSatisfy { !$0.description.contains("kept") })
        }
    }

    @Test func emptyKeyIsRejected() throws {
        let defaults = try makeInMemoryDefaults()
        #expect(throws: DefaultsError.invalidKey(suite: "test.suite")) { try defaults.write("v", forKey: "") }
        #expect(try defaults.persistentValues().isEmpty)
    }

    @Test func settingNilRemovesTheKey() throws {
        let defaults = try makeInMemoryDefaults()
        defaults.set("v", forKey: "k")
        defaults.set(nil, forKey: "k")
        #expect(defaults.object(forKey: "k") == nil)
        defaults.set(URL(string: "https://x")!, forKey: "u")
        defaults.set(nil as URL?, forKey: "u")
        #expect(defaults.object(forKey: "u") == nil)
    }

    enum BadFile: String, CaseIterable {
        case garbage, truncated, foreignSchema, newerVersion, emptyFileReadOnlyIsFine
    }

    @Test(arguments: [BadFile.garbage, .truncated, .foreignSchema, .newerVersion])
    func badFilesAreRefusedAndLeftByteIdentical(kind: BadFile) throws {
        try withTemporaryRoot { root in
            let file = root.appendingPathComponent("bad.sqlite3")
            try make(kind, at: file)
            let before = try #require(contents(file))
            #expect {
                try makeDefaults("bad", root: root)
            } throws: { error in
                switch (kind, error as? DefaultsError) {
                case (.garbage, .corruptStore(let path, _)?), (.truncated, .corruptStore(let path, _)?),
                    (.foreignSchema, .foreignDatabase(let path)?), (.newerVersion, .unsupportedSchemaVersion(let path, 99, 1)?):
                    return path == file.path
                default:
                    return false
                }
            }
            #expect(contents(file) == before)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
            #expect(leftovers == ["bad.sqlite3"], "no -wal, -shm or journal left next to it")
        }
    }

    @Test func aDirectoryInPlaceOfTheFileIsRefused() throws {
        try withTemporaryRoot { root in
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("dir.sqlite3"), withIntermediateDirectories: false)
            #expect(
                throws: DefaultsError.corruptStore(
                    path: root.appendingPathComponent("dir.sqlite3").path, reason: "not a regular file")
            ) {
                try makeDefaults("dir", root: root)
            }
        }
    }

    @Test func aSymlinkedFileIsRefusedAndItsTargetUntouched() throws {
        try withTemporaryRoot { root in
            let outside = root.appendingPathComponent("outside.txt")
            try Data("secret".utf8).write(to: outside)
            let store = root.appendingPathComponent("store")
            try FileManager.default.createDirectory(at: store, withIntermediateDirectories: false)
            try FileManager.default.createSymbolicLink(
                atPath: store.appendingPathComponent("link.sqlite3").path, withDestinationPath: outside.path)
            #expect(throws: DefaultsError.unsafePath(path: store.appendingPathComponent("link.sqlite3").path)) {
                try makeDefaults("link", root: store)
            }
            #expect(contents(outside) == Data("secret".utf8))
        }
    }

    @Test func errorMessagesNeverContainValues() throws {
        let secret = "hunter2-secret-value"
        let errors: [DefaultsError] = [
            .notPropertyList(suite: "s", key: "k", type: "URL"), .readOnly(suite: "s", key: "k"), .diskFull(suite: "s", key: "k"),
            .busy(suite: "s", key: "k"), .undecodableValue(suite: "s", key: "k", type: "array"),
            .corruptStore(path: "/p", reason: "not a database"),
        ]
        for error in errors { #expect(!error.description.contains(secret)) }
        let collector = ReportedErrors()
        let defaults = try makeInMemoryDefaults(errorHandler: collector.record)
        defaults.set([secret: URL(fileURLWithPath: "/" + secret)], forKey: "k")
        #expect(collector.all.count == 1)
        #expect(collector.all.allSatisfy { !$0.description.contains(secret) })
    }

    private func make(_ kind: BadFile, at file: URL) throws {
        switch kind {
        case .garbage:
            try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).write(to: file)
        case .truncated:
            let scratch = file.deletingLastPathComponent().appendingPathComponent("scratch")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: false)
            do {
                let defaults = try makeDefaults("bad", root: scratch)
                try defaults.replacePersistentValues(
                    Dictionary(
                        uniqueKeysWithValues: (0..<2000).map {
                            ("key-\($0)", PreferenceValue.string(String(repeating: "v", count: 100)))
                        }))
                // NB: every page into the file now: closing would do it only once no look of the idle
                // checkpointer holds the store, and an uncheckpointed file is a bare empty database,
                // whose first half is still a whole one.
                let result = try defaults.persistentStoreForTesting.withConnectionForTesting { $0.checkpoint() }
                try #require(result == SQLITE_OK)
            }
            let full = try Data(contentsOf: scratch.appendingPathComponent("bad.sqlite3"))
            try #require(full.count > 200_000, "the file holds the 2,000 values of 100 bytes")
            try full.prefix(full.count / 2).write(to: file)
            try FileManager.default.removeItem(at: scratch)
        case .foreignSchema:
            try sqlite(file, "CREATE TABLE people (name TEXT); INSERT INTO people VALUES ('x');")
        case .newerVersion:
            try sqlite(
                file,
                "CREATE TABLE preferences (key TEXT PRIMARY KEY, type TEXT, value); PRAGMA application_id = \(TableLayout.applicationID); PRAGMA user_version = 99;"
            )
        case .emptyFileReadOnlyIsFine:
            break
        }
    }

    private func sqlite(_ file: URL, _ sql: String) throws {
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let connection = try Connection(path: file.path, busyTimeoutMilliseconds: 1000)
        try connection.execute(sql)
        connection.close()
    }
}
