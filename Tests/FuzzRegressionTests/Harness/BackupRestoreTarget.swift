import Foundation

@testable import LayeredDefaults

extension FuzzTarget {
    /// A database file restored into a domain (`Defaults.Domain.restore`, `prefs restore`): the input is the
    /// backup file's bytes, written to a file of its own in a directory made for the one input and
    /// removed afterwards.
    ///
    /// Invariants: the restore succeeds, or throws a ``DefaultsError`` and creates nothing (no domain
    /// file); what it restored is exactly what the strict reading of the file gave (no key, value or
    /// migration it did not hold), every key non-empty, every value one a write may store, and the keys'
    /// and values' bytes no more than the file's size; and the file restored holds our two tables and
    /// nothing else, every column stored (asked of SQLite apart): a restore reads rows, never definitions.
    static let backupRestore = FuzzTarget(name: "backup-restore") { data throws(FuzzViolation) in
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-restore-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (root, backup) = (directory.appendingPathComponent("root"), directory.appendingPathComponent("backup.sqlite3"))
        do {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try data.write(to: backup)
        } catch {
            throw FuzzViolation(invariant: "the input can be written to a file (\(type(of: error)))")
        }
        let domain: Defaults.Domain
        do {
            domain = try Defaults.Domain("fuzz.domain", location: .directory(root), systemDirectories: [])
        } catch {
            throw FuzzViolation(invariant: "the domain's name is valid (\(type(of: error)))")
        }
        do {
            try domain.restore(from: backup)
        } catch is DefaultsError {
            let created = FileManager.default.fileExists(atPath: root.appendingPathComponent("fuzz.domain.sqlite3").path)
            try expect(!created, "a refused restore creates nothing")
            return
        } catch {
            throw FuzzViolation(invariant: "a refused restore throws a DefaultsError, not \(type(of: error))")
        }
        let read: (values: [String: PreferenceValue], migrations: [String], history: [PreferencesTable.HistoryRow])
        let restored: [String: PreferenceValue]
        do {
            read = try DomainBackup.contents(of: backup, suite: "fuzz.domain", live: nil, busyTimeoutMilliseconds: 1000)
            restored = try domain.open(errorHandler: { _ in }).persistentValues()
        } catch {
            throw FuzzViolation(invariant: "a restored backup reads again, and so does the domain (\(type(of: error)))")
        }
        try expect(restored == read.values, "the domain holds exactly the backup's rows")
        let layout: (objects: Int, computed: Int)
        do {
            let connection = try Connection(path: backup.path, busyTimeoutMilliseconds: 1000)
            defer { connection.close() }
            layout = (
                try connection.integer("SELECT count(*) FROM sqlite_schema"),
                try connection.integer(
                    "SELECT count(*) FROM pragma_table_xinfo('preferences') WHERE hidden != 0"
                        + " UNION ALL SELECT count(*) FROM pragma_table_xinfo('migrations') WHERE hidden != 0 ORDER BY 1 DESC")
            )
        } catch {
            throw FuzzViolation(invariant: "a restored backup's schema can be read (\(type(of: error)))")
        }
        try expect(layout == (2, 0), "a restored backup holds our two tables and nothing else, every column stored")
        try expect(!restored.keys.contains(""), "no empty key is restored")
        var bytes = 0
        for (key, value) in restored {
            do {
                try value.checkStorable(suite: "fuzz.domain", key: key)
            } catch {
                throw FuzzViolation(invariant: "every value restored is one a write may store")
            }
            bytes += key.utf8.count + value.storedBytes
        }
        try expect(bytes <= data.count, "the rows restored stand for no more bytes than the file holds")
    }
}

extension PreferenceValue {
    /// Fewest bytes the value's text and data hold (a lower bound of what it is stored as).
    fileprivate var storedBytes: Int {
        switch self {
        case .string(let text): text.utf8.count
        case .data(let data): data.count
        case .array(let values): values.reduce(0) { $0 + $1.storedBytes }
        case .dictionary(let values): values.reduce(0) { $0 + $1.key.utf8.count + $1.value.storedBytes }
        default: 0
        }
    }
}
