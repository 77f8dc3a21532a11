import Foundation

/// The file acts of backup and restore: writing a domain's committed content to a single file through
/// SQLite's online backup API, and reading a backup file strictly, before any row of it is written.
enum DomainBackup {
    /// Writes a copy of `store`'s committed content (its `-wal` included) to `destination`, mode 0600,
    /// renamed into place once complete (see ``BackupStaging``).
    /// - Throws: ``DefaultsError/backupExists(path:)``, ``DefaultsError/backupDestinationInUse(path:)``,
    ///   or an error writing the copy; `destination` is then as it was.
    static func write(
        _ store: DomainStore, to destination: URL, replacing: Bool, busyTimeoutMilliseconds: Int32
    ) throws {
        let target = destination.standardizedFileURL.path
        var status = stat()
        if !replacing, lstat(target, &status) == 0 { throw DefaultsError.backupExists(path: target) }
        // NB: SQLite finds a database's log by its name: a file renamed over a database that has one
        // (the domain's own file, another domain in use) would be read with that database's pages.
        let companionOf = Location.companionSuffixes.first(where: target.hasSuffix).map { String(target.dropLast($0.count)) }
        if !DomainFiles.existing(ofDatabase: target).filter({ $0 != target }).isEmpty
            || companionOf.map({ lstat($0, &status) == 0 }) == true
        {
            throw DefaultsError.backupDestinationInUse(path: target)
        }
        let staging = try BackupStaging(for: target)
        // NB: defers run last first: the connection closes before its file is removed.
        defer { staging.discard() }
        let connection: Connection
        do {
            connection = try Connection(path: staging.copy, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        } catch {
            throw destinationFailure(DefaultsError.storage(error, suite: store.name, key: nil), target)
        }
        defer { connection.close() }
        do {
            try store.copyContents(into: connection)
            // A copy of a database in WAL mode says so in its header; rollback mode makes it one
            // self-contained file, with no `-wal` or `-shm` left beside it once closed.
            do {
                _ = try connection.text("PRAGMA journal_mode = DELETE")
            } catch {
                throw DefaultsError.storage(error, suite: store.name, key: nil)
            }
        } catch {
            throw destinationFailure(error, target)
        }
        connection.close()
        try staging.moveIntoPlace(replacing: replacing)
    }

    /// The error of writing the copy to `target`: running out of room there (the copy is what grows; reading
    /// the domain needs none) names the destination, whose disk it is, never the domain.
    private static func destinationFailure(_ error: any Error, _ target: String) -> any Error {
        switch error {
        case DefaultsError.diskFull: DefaultsError.fileSystemFailure(path: target, operation: "write the backup", code: ENOSPC)
        case DefaultsError.fileTooLarge: DefaultsError.fileSystemFailure(path: target, operation: "write the backup", code: EFBIG)
        default: error
        }
    }

    /// The rows, migration records and history of the backup file `backup`, for the domain `suite` whose
    /// store is `live` (nil when it has no file), read strictly: every row must read back exactly and be one
    /// a write may store. The file is only read.
    /// - Throws: ``DefaultsError/invalidBackup(path:reason:)``, ``DefaultsError/unsafePath(path:)``,
    ///   ``DefaultsError/hardLinked(path:)``, ``DefaultsError/permissionDenied(path:)``, or a storage error.
    static func contents(
        of backup: URL, suite: String, live: DomainStore?, busyTimeoutMilliseconds: Int32
    ) throws -> (values: [String: PreferenceValue], migrations: [String], history: [PreferencesTable.HistoryRow]) {
        let source = backup.standardizedFileURL.path
        guard let status = try Location.status(ofEntry: source) else {
            throw DefaultsError.invalidBackup(path: source, reason: "there is no such file")
        }
        // NB: never a second connection to the domain's own file: closing it would drop every POSIX lock
        // this process holds on the file, SQLite's included.
        if let identity = live?.identity, FileIdentity(status) == identity {
            throw DefaultsError.invalidBackup(path: source, reason: "it is the domain's own file")
        }
        let candidate: FileAdmission.Candidate
        do {
            candidate = try FileAdmission.open(
                source, status: status, suite: suite, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        } catch DefaultsError.corruptStore(_, let reason) {
            throw DefaultsError.invalidBackup(path: source, reason: "it is not a readable database (\(reason))")
        } catch DefaultsError.foreignDatabase {
            throw DefaultsError.invalidBackup(path: source, reason: "it is a SQLite database, but not a LayeredDefaults store")
        } catch DefaultsError.unsupportedSchemaVersion(_, let found, let supported) {
            throw DefaultsError.invalidBackup(
                path: source,
                reason: "it was written by a newer version of LayeredDefaults "
                    + "(schema version \(found); this one reads \(supported))")
        }
        defer { FileAdmission.close(refused: candidate.connection, path: source) }
        let content: (values: [String: PreferenceValue], migrations: [String], history: [PreferencesTable.HistoryRow])
        do {
            try TableLayout.verifyBackup(candidate.connection, path: source)
            let table = PreferencesTable(connection: candidate.connection, suite: suite)
            // The values, and the history apart, may each stand for no more than the file holds.
            let held = heldBytes(source, status: status)
            content = (
                try table.exactValues(standingForAtMost: held), try table.exactMigrationNames(),
                try table.exactHistory(standingForAtMost: held)
            )
        } catch let row as PreferencesTable.InexactRow {
            throw DefaultsError.invalidBackup(path: source, reason: row.reason)
        } catch let error as DefaultsError {
            throw error
        } catch {
            throw DefaultsError.storage(error, suite: suite, key: nil)
        }
        for (key, value) in content.values {
            guard !key.isEmpty else { throw DefaultsError.invalidBackup(path: source, reason: "it holds an empty key") }
            guard key.isStreamSafe else {
                throw DefaultsError.invalidBackup(
                    path: source, reason: "it holds a key of more than \(String.maximumCombiningRun) combining marks in a row")
            }
            do {
                try value.checkStorable(suite: suite, key: key)
            } catch {
                throw DefaultsError.invalidBackup(path: source, reason: "the value of '\(key)' is one no write may store")
            }
        }
        return content
    }

    /// The bytes the backup file at `path` (whose `lstat` status is `status`) holds, with its `-wal`: what
    /// its rows can stand for at most.
    private static func heldBytes(_ path: String, status: stat) -> Int {
        var log = stat()
        let logBytes = lstat(path + "-wal", &log) == 0 && log.st_mode & S_IFMT == S_IFREG ? Int(log.st_size) : 0
        return Int(status.st_size) + logBytes
    }
}
