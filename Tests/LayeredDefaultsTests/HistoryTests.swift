import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// A key's history (`Configuration.history`): what each committed change keeps, in which order, under
/// which bound, by whom; revert, erase, backup and restore; and that a domain without it stores none.
@Suite struct HistoryTests {
    static let suite = "app"

    private func defaults(
        _ root: URL, history: Defaults.History? = .standard, schema: PreferenceSchema? = nil
    ) throws -> Defaults {
        var configuration = Defaults.Configuration(location: .directory(root), arguments: [], systemDirectories: [])
        configuration.history = history
        configuration.schema = schema
        return try Defaults(suiteName: Self.suite, configuration: configuration)
    }

    /// The names of the tables in the domain's file, read through the store's own connection (a second
    /// connection's close would drop the process's locks on the file).
    private func tables(_ defaults: Defaults) throws -> [String] {
        let store = try #require(try defaults.persistent.store())
        return try store.reading { table in
            let statement = try table.connection.statement("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
            defer { statement.reset() }
            var names: [String] = []
            while try statement.step() { names.append(statement.text(at: 0)) }
            return names
        }
    }

    /// Each change keeps the value before it, the latest first; a removal is a change, a write of the
    /// same value is not.
    @Test func entriesAreTheLatestFirstWithThePreviousValue() throws {
        try withTemporaryRoot { root in
            let defaults = try defaults(root)
            try defaults.write("a", forKey: "k")
            try defaults.write("b", forKey: "k")
            try defaults.write("b", forKey: "k")
            try defaults.write(nil, forKey: "k")
            try defaults.write(1, forKey: "other")
            let entries = try defaults.history(forKey: "k")
            #expect(entries.map(\.previousValue) == ["b", "a", nil])
            #expect(entries.map(\.key) == ["k", "k", "k"])
            #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.date >= $1.date })
            #expect(try defaults.history().count == 4, "every key's entries")
            #expect(try defaults.history().first?.key == "other")
        }
    }

    /// The writer is this process: its name, executable, user id and name.
    @Test func anEntryNamesItsWriter() throws {
        try withTemporaryRoot { root in
            let defaults = try defaults(root)
            let before = Date()
            try defaults.write(true, forKey: "k")
            let entry = try #require(try defaults.history(forKey: "k").first)
            #expect(entry.writer == Defaults.HistoryWriter.current)
            #expect(entry.writer.processName == ProcessInfo.processInfo.processName)
            #expect(entry.writer.userID == getuid())
            #expect(!entry.writer.executablePath.isEmpty)
            #expect(FileManager.default.isExecutableFile(atPath: entry.writer.executablePath))
            #expect(entry.date >= before.addingTimeInterval(-1) && entry.date <= Date().addingTimeInterval(1))
        }
    }

    /// The count bound keeps the latest entries; the byte bound drops the oldest until the previous values
    /// fit, and an entry larger than it alone is not kept, nor are the older ones (no gap).
    @Test func theBoundKeepsTheLatestEntries() throws {
        try withTemporaryRoot { root in
            let counted = try defaults(root, history: .init(maximumEntries: 3))
            for number in 0..<10 { try counted.write(.integer(number), forKey: "n") }
            #expect(try counted.history(forKey: "n").map(\.previousValue) == [8, 7, 6])

            let sized = try defaults(root, history: .init(maximumEntries: 100, maximumBytes: 25))
            for text in ["aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc", "dddddddddd"] { try sized.write(.string(text), forKey: "s") }
            #expect(try sized.history(forKey: "s").map(\.previousValue) == ["cccccccccc", "bbbbbbbbbb"])
            try sized.write(.string(String(repeating: "x", count: 100)), forKey: "s")
            try sized.write("y", forKey: "s")
            #expect(try sized.history(forKey: "s").isEmpty, "the history starts after the change from the large value")
        }
    }

    /// A domain whose writers keep no history stores none: its file has no history table, whatever the
    /// writes (a first commit, a transaction, a removal, emptying it).
    @Test func aDomainWithoutHistoryStoresNone() throws {
        try withTemporaryRoot { root in
            let defaults = try defaults(root, history: nil)
            try defaults.write("a", forKey: "k")
            try defaults.transaction { domain in
                try domain.write(1, forKey: "n")
                try domain.write(nil, forKey: "k")
            }
            try defaults.replacePersistentValues([:])
            #expect(try tables(defaults) == ["migrations", "preferences"])
            #expect(try defaults.history(forKey: "k").isEmpty)
            #expect(try !defaults.keepsHistory)
            let keeping = try self.defaults(root)
            try keeping.write("b", forKey: "k")
            #expect(try tables(defaults) == ["history", "migrations", "preferences"])
            #expect(try defaults.keepsHistory)
        }
    }

    /// Once the domain's file holds the history table, a writer that configures no history records its
    /// changes too, with the standard bound: history is the domain's, not one writer's.
    @Test func aFileWithHistoryMakesEveryWriterRecord() throws {
        try withTemporaryRoot { root in
            let plain = try defaults(root, history: nil)
            try plain.write("a", forKey: "k")
            #expect(try plain.history(forKey: "k").isEmpty)
            try defaults(root, history: .init(maximumEntries: 3)).write("b", forKey: "k")
            try plain.write("c", forKey: "k")
            try plain.write(1, forKey: "other")
            #expect(try plain.history(forKey: "k").map(\.previousValue) == ["b", "a"])
            #expect(try plain.history(forKey: "other").map(\.previousValue) == [nil])
            for value in 0..<(Defaults.History.standard.maximumEntries + 2) { try plain.write(.integer(value), forKey: "n") }
            #expect(try plain.history(forKey: "n").count == Defaults.History.standard.maximumEntries)
        }
    }

    /// A history table another process makes after this one last wrote is seen by this one's next write,
    /// which records.
    @Test func aHistoryTableAnotherConnectionMadeIsSeen() throws {
        try withTemporaryRoot { root in
            let plain = try defaults(root, history: nil)
            try plain.write("a", forKey: "k")
            try plain.write("b", forKey: "k")
            #expect(try tables(plain) == ["migrations", "preferences"])
            let other = try Connection(path: try #require(plain.persistent.path), busyTimeoutMilliseconds: 5_000)
            defer { other.close() }
            try other.execute("\(PreferencesTable.createHistory)")
            try plain.write("c", forKey: "k")
            #expect(try plain.history(forKey: "k").map(\.previousValue) == ["b"])
        }
    }

    /// A key its schema marks (`Key.keepingHistory()`, `"keepsHistory": true`) records its changes through
    /// every door though no writer configures history; the schema's other keys record none, even once
    /// the file holds the table.
    @Test func aKeyTheSchemaMarksKeepsHistory() throws {
        try withTemporaryRoot { root in
            let theme = Defaults.Key<String>("theme", default: "light", summary: "The colour scheme").keepingHistory()
            let size = Defaults.Key<Int>("size", default: 1, summary: "The size")
            #expect(theme.schemaEntry.keepsHistory && !size.schemaEntry.keepsHistory)
            let schema = try PreferenceSchema(suiteName: Self.suite, version: 1, keys: theme, size)
            let defaults = try defaults(root, history: nil, schema: schema)
            try defaults.write("dark", for: theme)
            try defaults.write("blue", forKey: "theme")
            try defaults.transaction { domain in try domain.write("red", forKey: "theme") }
            try defaults.write(2, for: size)
            try defaults.write(3, forKey: "size")
            #expect(try defaults.history(forKey: "theme").map(\.previousValue) == ["blue", "dark", nil])
            #expect(try defaults.history(forKey: "size").isEmpty)
            #expect(try tables(defaults).contains("history"))
        }
    }

    /// A key with history goes on recording whoever writes it, its schema's mark or not: a writer that
    /// configures no history leaves no gap a revert would jump.
    @Test func aKeyWithHistoryHasNoGapWhoeverWritesIt() throws {
        try withTemporaryRoot { root in
            let theme = Defaults.Key<String>("theme", default: "light", summary: "The colour scheme").keepingHistory()
            let size = Defaults.Key<Int>("size", default: 1, summary: "The size")
            let schema = try PreferenceSchema(suiteName: Self.suite, version: 1, keys: theme, size)
            let app = try defaults(root, history: .standard, schema: schema)
            try app.write(2, for: size)
            let other = try defaults(root, history: nil, schema: schema)
            try other.write(3, for: size)
            try other.write(4, for: size)
            #expect(try app.history(forKey: "size").map(\.previousValue) == [3, 2, nil])
            try app.revert(forKey: "size", to: .step(1))
            #expect(try app.persistentValue(forKey: "size") == 3, "the change before the latest, not an older one")
        }
    }

    /// A change whose previous value alone is larger than the bound drops the key's whole history: what
    /// is kept has no gap, and a revert cannot jump the change.
    @Test func aPreviousValueLargerThanTheBoundStartsTheHistoryAfresh() throws {
        try withTemporaryRoot { root in
            let defaults = try defaults(root, history: .init(maximumEntries: 10, maximumBytes: 100))
            try defaults.write("a", forKey: "k")
            try defaults.write("b", forKey: "k")
            try defaults.write(.string(String(repeating: "x", count: 200)), forKey: "k")
            try defaults.write("c", forKey: "k")
            #expect(try defaults.history(forKey: "k").isEmpty, "the change from the large value is not kept, nor the older")
            try defaults.write("d", forKey: "k")
            #expect(try defaults.history(forKey: "k").map(\.previousValue) == ["c"])
        }
    }

    /// A domain whose schema marks no key stores no history.
    @Test func aSchemaThatMarksNoKeyKeepsNoHistory() throws {
        try withTemporaryRoot { root in
            let size = Defaults.Key<Int>("size", default: 1, summary: "The size")
            let defaults = try defaults(
                root, history: nil, schema: try PreferenceSchema(suiteName: Self.suite, version: 1, keys: size))
            try defaults.write(2, for: size)
            try defaults.write(3, for: size)
            #expect(try tables(defaults) == ["migrations", "preferences"])
        }
    }

    /// The schema file carries the mark, and only where it is set.
    @Test func theSchemaFileCarriesWhetherAKeyKeepsHistory() throws {
        let schema = try PreferenceSchema(
            suiteName: Self.suite, version: 1,
            keys: Defaults.Key<String>("theme", default: "light", summary: "The colour scheme").keepingHistory(),
            Defaults.Key<Int>("size", default: 1, summary: "The size"))
        let data = try schema.jsonData()
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"keepsHistory\" : true"))
        #expect(!text.contains("\"keepsHistory\" : false"))
        let read = try PreferenceSchema(jsonData: data, path: "schema.json")
        #expect(read.entry(named: "theme")?.keepsHistory == true)
        #expect(read.entry(named: "size")?.keepsHistory == false)
        #expect(text.contains("\"format\" : 3"), "a member an earlier release does not know: a newer format")
        let asFormat2 = Data(text.replacingOccurrences(of: "\"format\" : 3", with: "\"format\" : 2").utf8)
        #expect(throws: (any Error).self) { try PreferenceSchema(jsonData: asFormat2, path: "schema.json") }
    }

    /// A write the rules refuse records nothing, and neither does one a body throws out of.
    @Test func aRefusedWriteRecordsNothing() throws {
        try withTemporaryRoot { root in
            let schema = try PreferenceSchema(
                suiteName: Self.suite, version: 1,
                entries: [.init(name: "size", type: .integer, defaultValue: 4, summary: "Size", accepted: .integers(1...10))])
            let defaults = try defaults(root, schema: schema)
            try defaults.write(5, forKey: "size")
            #expect(throws: DefaultsError.self) { try defaults.write(50, forKey: "size") }
            struct Stop: Error {}
            #expect(throws: Stop.self) {
                try defaults.transaction { domain in
                    try domain.write(6, forKey: "size")
                    throw Stop()
                }
            }
            #expect(try defaults.history(forKey: "size").map(\.previousValue) == [nil])
            #expect(try defaults.persistentValue(forKey: "size") == 5)
        }
    }

    /// A transaction's changes are each recorded once, with the value the key held before the transaction.
    @Test func aTransactionRecordsEachKeyOnce() throws {
        try withTemporaryRoot { root in
            let defaults = try defaults(root)
            try defaults.transaction { domain in
                try domain.write(1, forKey: "a")
                try domain.write("x", forKey: "c")
            }
            try defaults.transaction { domain in
                try domain.write(2, forKey: "a")
                try domain.write(3, forKey: "a")
                try domain.write(true, forKey: "b")
                try domain.write(nil, forKey: "c")
            }
            #expect(try defaults.history(forKey: "a").map(\.previousValue) == [1, nil])
            #expect(try defaults.history(forKey: "b").map(\.previousValue) == [nil])
            #expect(try defaults.history(forKey: "c").map(\.previousValue) == ["x", nil])
            try defaults.replacePersistentValues([:])
            #expect(
                try defaults.history(forKey: "a").map(\.previousValue) == [3, 1, nil],
                "emptying the domain is a change of each key")
        }
    }

    /// A revert writes the value of a step or a time back, under the rules, and enters the history.
    @Test func aRevertTakesTheKeyBack() throws {
        try withTemporaryRoot { root in
            let defaults = try defaults(root)
            try defaults.write("a", forKey: "k")
            try defaults.write("b", forKey: "k")
            try defaults.write("c", forKey: "k")
            #expect(try defaults.revert(forKey: "k") == "b")
            #expect(try defaults.persistentValue(forKey: "k") == "b")
            #expect(try defaults.history(forKey: "k").map(\.previousValue) == ["c", "b", "a", nil])
            #expect(try defaults.revert(forKey: "k", to: .step(3)) == "a")
            #expect(try defaults.revert(forKey: "k", to: .step(5)) == nil, "before the first change it was unset")
            #expect(try defaults.persistentValue(forKey: "k") == nil)

            let entries = try defaults.history(forKey: "k")
            let middle = entries[2]  // the change from "c" to "b", the first revert
            #expect(try defaults.revert(forKey: "k", to: .date(middle.date.addingTimeInterval(-0.000_001))) == "c")
            #expect(try defaults.revert(forKey: "k", to: .date(.distantPast)) == nil)
            #expect(try defaults.revert(forKey: "k", to: .date(.distantFuture)) == nil, "the current value")

            #expect(throws: DefaultsError.noHistoryEntry(suite: Self.suite, key: "k")) {
                try defaults.revert(forKey: "k", to: .step(99))
            }
            #expect(throws: DefaultsError.noHistoryEntry(suite: Self.suite, key: "never")) {
                try defaults.revert(forKey: "never")
            }
        }
    }

    /// A revert is a write like any other: a value the schema refuses is refused, and nothing is recorded.
    @Test func aRevertObeysTheRules() throws {
        try withTemporaryRoot { root in
            let loose = try defaults(root)
            try loose.write(50, forKey: "size")
            try loose.write(5, forKey: "size")
            let schema = try PreferenceSchema(
                suiteName: Self.suite, version: 1,
                entries: [.init(name: "size", type: .integer, defaultValue: 4, summary: "Size", accepted: .integers(1...10))])
            let strict = try defaults(root, schema: schema)
            #expect(throws: DefaultsError.self) { try strict.revert(forKey: "size") }
            #expect(try strict.persistentValue(forKey: "size") == 5)
            #expect(try strict.history(forKey: "size").map(\.previousValue) == [50, nil])
        }
    }

    /// Erasing removes the value and forgets its history; other keys keep theirs.
    @Test func eraseForgetsTheHistory() throws {
        try withTemporaryRoot { root in
            let defaults = try defaults(root)
            try defaults.write("secret", forKey: "token")
            try defaults.write("newer", forKey: "token")
            try defaults.write(1, forKey: "other")
            try defaults.erase(forKey: "token")
            #expect(try defaults.persistentValue(forKey: "token") == nil)
            #expect(try defaults.history(forKey: "token").isEmpty)
            #expect(try defaults.history(forKey: "other").count == 1)
            let store = try #require(try defaults.persistent.store())
            #expect(try store.reading { try $0.connection.integer("SELECT count(*) FROM history WHERE key = 'token'") } == 0)
        }
    }

    /// A backup carries the history; a restore brings it back (into a new domain too), and a backup
    /// without one leaves none.
    @Test func backupAndRestoreCarryTheHistory() throws {
        try withTemporaryRoot { root in
            let defaults = try defaults(root)
            try defaults.write("a", forKey: "k")
            try defaults.write("b", forKey: "k")
            let backup = root.appendingPathComponent("backup.sqlite3")
            try Defaults.Domain(Self.suite, location: .directory(root)).backup(to: backup)
            let saved = try defaults.history(forKey: "k")
            try defaults.write("c", forKey: "k")
            try defaults.erase(forKey: "k")

            let plain = Defaults.Configuration(location: .directory(root), arguments: [], systemDirectories: [])
            let domain = try Defaults.Domain(Self.suite, location: .directory(root), systemDirectories: [])
            try domain.restore(from: backup)
            #expect(try defaults.persistentValue(forKey: "k") == "b")
            #expect(try defaults.history(forKey: "k") == saved)

            let other = root.appendingPathComponent("other", isDirectory: true)
            try Defaults.Domain(Self.suite, location: .directory(other), systemDirectories: []).restore(from: backup)
            let restored = try Defaults(
                suiteName: Self.suite, configuration: .init(location: .directory(other), arguments: [], systemDirectories: []))
            #expect(try restored.history(forKey: "k") == saved, "a new domain's first commit keeps the history")

            try defaults.write(nil, forKey: "k")
            let unkept = try Defaults(suiteName: "unkept", configuration: plain)
            try unkept.write("z", forKey: "k")
            let bare = root.appendingPathComponent("bare.sqlite3")
            try Defaults.Domain("unkept", location: .directory(root)).backup(to: bare)
            try domain.restore(from: bare)
            #expect(try defaults.persistentValue(forKey: "k") == "z")
            #expect(try defaults.history(forKey: "k").isEmpty, "a backup without history leaves none")
        }
    }

    /// A backup whose history table is not the one the store makes is refused, and nothing changes.
    @Test func aForeignHistoryTableIsRefused() throws {
        try withTemporaryRoot { root in
            let defaults = try defaults(root, history: nil)
            try defaults.write("a", forKey: "k")
            let backup = root.appendingPathComponent("backup.sqlite3")
            try Defaults.Domain(Self.suite, location: .directory(root)).backup(to: backup)
            do {
                let connection = try Connection(path: backup.path, busyTimeoutMilliseconds: 1000)
                defer { connection.close() }
                try connection.execute("CREATE TABLE history (key TEXT NOT NULL, note TEXT NOT NULL)")
            }
            try defaults.write("b", forKey: "k")
            #expect {
                try Defaults.Domain(Self.suite, location: .directory(root), systemDirectories: []).restore(from: backup)
            } throws: { error in
                guard case DefaultsError.invalidBackup(_, let reason) = error else { return false }
                return reason.contains("'history'")
            }
            #expect(try defaults.persistentValue(forKey: "k") == "b")
        }
    }

    /// A domain in memory keeps history as a file does (the History article's sample runs in memory).
    @Test func anInMemoryDomainKeepsHistory() throws {
        var configuration = Defaults.Configuration(location: .inMemory, arguments: [], systemDirectories: [])
        configuration.history = .init(maximumEntries: 20)
        let defaults = try Defaults(suiteName: "history.memory", configuration: configuration)
        try defaults.write("light", forKey: "theme")
        try defaults.write("dark", forKey: "theme")
        #expect(try defaults.history(forKey: "theme").map(\.previousValue) == ["light", nil])
        #expect(try defaults.revert(forKey: "theme") == "light")
        try defaults.erase(forKey: "theme")
        #expect(try defaults.history(forKey: "theme").isEmpty)
        #expect(try defaults.persistentValue(forKey: "theme") == nil)
    }

    /// History holds values, and no error quotes one: an entry that does not read is reported as a
    /// history entry by its key (not as a stored value, which reads on), a missing step by the key.
    @Test func errorsNameNoValueOfTheHistory() throws {
        try withTemporaryRoot { root in
            let defaults = try defaults(root)
            try defaults.write("secret-one", forKey: "token")
            try defaults.write("secret-two", forKey: "token")
            let store = try #require(try defaults.persistent.store())
            try store.reading { try $0.connection.execute("UPDATE history SET type = 'integer' WHERE key = 'token'") }
            let undecodable = DefaultsError.undecodableHistoryEntry(suite: Self.suite, key: "token")
            #expect(throws: undecodable) { try defaults.history(forKey: "token") }
            #expect(throws: undecodable) { try defaults.history() }
            #expect("\(undecodable)".contains("--forget-history"), "it says what to do")
            // A time outside the dates the store holds is no entry either (it printed as an empty date).
            try store.reading {
                try $0.connection.execute("UPDATE history SET type = 'string', changed_at = 1e308 WHERE key = 'token'")
            }
            #expect(throws: undecodable) { try defaults.history(forKey: "token") }
            var message = ""
            do { try defaults.revert(forKey: "token", to: .step(9)) } catch { message = "\(error)" }
            #expect(!message.isEmpty && !message.contains("secret"))
            #expect(!"\(DefaultsError.noHistoryEntry(suite: Self.suite, key: "token"))".contains("secret"))
        }
    }
}
