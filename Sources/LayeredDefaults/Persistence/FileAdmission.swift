import CSQLite
import Foundation

/// What a domain's file must pass before this process trusts it: its kind and links by name (`lstat`),
/// then its header, read through the connection SQLite opened before SQLite itself reads anything.
///
/// A file that fails is reported, never modified, moved or deleted. One that passes is handed to
/// ``TableLayout/prepare(_:path:inMemory:verify:headerProvesOurs:)`` with checkpoint-on-close still off.
enum FileAdmission {
    /// A file admitted so far: open, its header judged, not yet known to hold our schema.
    struct Candidate {
        /// The connection, with checkpoint-on-close off until the schema is known to be ours.
        let connection: Connection
        /// True when this process can write neither the file nor its directory: the connection is an
        /// immutable snapshot (see ``open(_:status:suite:busyTimeoutMilliseconds:)``).
        let isSnapshot: Bool
        /// True when the file may have lost pages: the schema check must verify it.
        let mayBeTruncated: Bool
        /// True when the header that passed says the file is in WAL mode (bytes 18 and 19 are 2), false
        /// when it says rollback mode, nil when no header was judged (a new, empty file; one being written
        /// too busily to hold still): then only SQLite can tell.
        let headerSaysWAL: Bool?
        /// True when the judged header is the file's page 1 as it stands, no log or rollback journal beside
        /// it holding another one, and it carries our application id and a schema version this one reads: the file is ours,
        /// and ``TableLayout/prepare(_:path:inMemory:verify:headerProvesOurs:)`` need not ask SQLite again.
        let headerProvesOurs: Bool
    }

    /// Creates the empty database file at `path`, mode 0600 whatever the umask, and returns its status
    /// (another's, when it appeared meanwhile); nil when this process may not create it (a read-only
    /// directory or file system).
    /// - Throws: ``DefaultsError/system(_:path:operation:suite:)`` for any other failure.
    static func create(_ path: String, mode: mode_t, suite: String) throws -> stat? {
        do throws(FileActs.Failure) {
            // Whatever the umask: SQLite gives the -wal and -shm the file's mode.
            try FileActs.createExclusively(path, mode: mode)
        } catch let failure where failure.code == EACCES || failure.code == EROFS {
            return nil
        } catch {
            throw DefaultsError.system(error.code, path: path, operation: "create", suite: suite)
        }
        guard let status = try Location.status(ofEntry: path) else {
            throw DefaultsError.system(ENOENT, path: path, operation: "create", suite: suite)
        }
        return status
    }

    /// Opens the database file at `path`, whose `lstat` status is `status`, once its name, its
    /// companions and its header pass; checkpoint-on-close stays off.
    ///
    /// NB: in WAL mode even a reader needs a -shm (and a -wal) beside the file. Where this process
    /// cannot write (a read-only directory or file, a read-only file system) SQLite cannot create
    /// them, and fails every read; or it creates them read-only like the file, which then keeps the
    /// store read-only after the file is made writable again. When no log holds pending commits,
    /// everything is in the main file: it is opened as an immutable snapshot, creating nothing.
    /// - Throws: ``DefaultsError/unsafePath(path:)``, ``DefaultsError/hardLinked(path:)``,
    ///   ``DefaultsError/mountPoint(path:)``, ``DefaultsError/permissionDenied(path:)``, ``DefaultsError/corruptStore(path:reason:)``,
    ///   ``DefaultsError/foreignDatabase(path:)``, ``DefaultsError/unsupportedSchemaVersion(path:found:supported:)``,
    ///   a storage error, or ``DomainStore/FileMovedWhileOpening`` when nothing is at `path` any more.
    static func open(_ path: String, status: stat, suite: String, busyTimeoutMilliseconds: Int32) throws -> Candidate {
        try refuseUnsafe(path, status)
        // Not `NSString.deletingLastPathComponent`, a measurable part of opening a store (bridging):
        // the path is `<directory>/<name>.sqlite3` (see ``StoreRegistry/path(of:inDirectory:)``).
        let directory = StoreRegistry.directory(of: path)
        var log = stat()
        let pendingLog = lstat(path + "-wal", &log) == 0 && log.st_size > 0
        let snapshot = (access(path, W_OK) != 0 || access(directory, W_OK) != 0) && !pendingLog
        let connection: Connection
        do {
            connection = try Connection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, immutable: snapshot)
        } catch let error as SQLiteError {
            // Opening reads nothing but the header, so it fails for the file, never for its content.
            if error.systemErrno == EACCES || error.systemErrno == EPERM { throw DefaultsError.permissionDenied(path: path) }
            // Looked at a moment ago: deleted since (the caller looks again).
            if error.systemErrno == ENOENT { throw DomainStore.FileMovedWhileOpening() }
            throw DefaultsError.storage(error, suite: suite, key: nil)
        }
        // NB: until the file is known to be ours, closing must not checkpoint a log into it (see checkHeader).
        connection.setCheckpointOnClose(false)
        do {
            let checked = try checkHeader(connection, path: path)
            return Candidate(
                connection: connection, isSnapshot: snapshot, mayBeTruncated: checked.mayBeTruncated,
                headerSaysWAL: checked.saysWAL, headerProvesOurs: checked.provesOurs)
        } catch {
            close(refused: connection, path: path)
            throw DefaultsError.storage(error, suite: suite, key: nil)
        }
    }

    /// Closes the connection of a file found not to be ours, leaving the file as it was.
    ///
    /// NB: with checkpoint-on-close off, SQLite would leave the empty log and the index it created
    /// beside a file we refuse. When the log is still empty there is nothing to merge into the file,
    /// so let SQLite close as usual: it deletes them only when no other connection uses them. (Never
    /// delete them ourselves: "absent when we looked" does not mean no other process created them
    /// since, and unlinking a -shm in use splits processes onto two WAL indexes: corruption.)
    static func close(refused connection: Connection, path: String) {
        var status = stat()
        if lstat(path + "-wal", &status) != 0 || status.st_size == 0 { connection.setCheckpointOnClose(true) }
        connection.close()
    }

    /// Refuses, by name and without opening anything, a database file (whose status is `status`) or a
    /// `-wal`, `-shm` or `-journal` beside it that SQLite must not open.
    ///
    /// NB: SQLite (opened with NOFOLLOW) refuses a linked -wal or -shm too, but only as an anonymous
    /// SQLITE_CANTOPEN after creating a -wal beside it. It opens a FIFO and blocks forever. And it finds
    /// companions by name and shares a log between connections by the database's inode: a file with a
    /// second name gets a log per name (writes lost, corruption), and a companion with a second name is
    /// written through, overwriting the file it shares. `lstat` sees all of this without a descriptor,
    /// except a second name given by a file bind mount (see ``isMountRoot(_:)``).
    private static func refuseUnsafe(_ path: String, _ status: stat) throws {
        switch status.st_mode & S_IFMT {
        case S_IFLNK: throw DefaultsError.unsafePath(path: path)
        case S_IFREG: break
        default: throw DefaultsError.corruptStore(path: path, reason: "not a regular file")
        }
        // More than one link is a second name. No link at all is a file unlinked while it was looked
        // at (a store of the same file closing in this process deletes its -wal and -shm): not a second name.
        guard status.st_nlink <= 1 else { throw DefaultsError.hardLinked(path: path) }
        guard !isMountRoot(path) else { throw DefaultsError.mountPoint(path: path) }
        var companion = stat()
        for suffix in Location.companionSuffixes where lstat(path + suffix, &companion) == 0 {
            guard companion.st_mode & S_IFMT == S_IFREG else { throw DefaultsError.unsafePath(path: path + suffix) }
            guard companion.st_nlink <= 1 else { throw DefaultsError.hardLinked(path: path + suffix) }
            guard !isMountRoot(path + suffix) else { throw DefaultsError.mountPoint(path: path + suffix) }
        }
    }

    /// True when `path` (a final symbolic link not followed) is the root of a mount: a file bind-mounted
    /// there (`mount --bind file path`) is a second path to the same file, with the same inode and still
    /// one link, which `lstat` cannot tell from a file of its own.
    ///
    /// Only Linux reports it (`statx`, `STATX_ATTR_MOUNT_ROOT`, since Linux 5.8; an older kernel
    /// cannot tell, and the file passes). Elsewhere a file cannot be mounted on another.
    private static func isMountRoot(_ path: String) -> Bool {
        #if os(Linux)
            csqlite_is_mount_root(path) == 1
        #else
            false
        #endif
    }

    /// Checks the 100-byte header of the database `connection` has just opened (at `path`) before
    /// SQLite reads it, so that SQLite never uses a file that is plainly not a store of ours.
    ///
    /// NB: SQLite has side effects on the first read that are harmless for its own files but not for a
    /// file we are about to refuse: next to a file it cannot read it creates a `-shm`, for a zero-length
    /// file it deletes an existing `-wal` (which may hold the only copy of recent data), and closing a
    /// foreign database in WAL mode checkpoints its log into it. Opening has none (it reads the header,
    /// locks and creates nothing), so the header is read here through the connection's own file, before
    /// any statement runs; a descriptor of our own would drop, once closed, every POSIX lock this process
    /// holds on the file (another store's, say). Garbage, a foreign database (with an application id of
    /// its own, or with tables and no pending log), a newer version of ours, and an empty file beside a
    /// non-empty log are refused here; what passes goes to ``TableLayout/prepare(_:path:inMemory:verify:headerProvesOurs:)`` with
    /// checkpoint-on-close off.
    /// - Returns: whether the file may have lost pages (see ``HeaderSnapshot/mayBeTruncated``; then
    ///   ``TableLayout/prepare(_:path:inMemory:verify:headerProvesOurs:)`` must verify it), what the judged header
    ///   says of the journal mode (nil when none was judged, see ``Candidate/headerSaysWAL``), and whether it
    ///   proves the file ours (see ``Candidate/headerProvesOurs``).
    /// - Throws: ``DefaultsError/corruptStore(path:reason:)``, ``DefaultsError/foreignDatabase(path:)``,
    ///   ``DefaultsError/unsupportedSchemaVersion(path:found:supported:)``.
    private static func checkHeader(
        _ connection: Connection, path: String
    ) throws -> (mayBeTruncated: Bool, saysWAL: Bool?, provesOurs: Bool) {
        // NB: other processes may be writing the file meanwhile (creating it; a checkpoint grows it before
        // it rewrites page 1), and header, size and log cannot be read at one instant. So look at header
        // and size, then the log, then header and size again, and judge only a picture that held still.
        // One that keeps changing is being written busily by SQLite: SQLite judges it (checkpoint-on-close
        // stays off until the file is ours).
        for _ in 0..<20 {
            guard let first = HeaderSnapshot(connection) else { return (false, nil, false) }  // SQLite reports why
            var status = stat()
            let logSize = lstat(path + "-wal", &status) == 0 ? Int(status.st_size) : 0
            let journalSize = lstat(path + "-journal", &status) == 0 ? Int(status.st_size) : 0
            guard first == HeaderSnapshot(connection) else { continue }
            let isOurs = try judge(first, logSize: logSize, path: path)
            // A log without frames (absent, or emptied) and no rollback journal with content hold no other
            // page 1 than the file's: the header read is the file as it stands. With either, SQLite may know
            // better (a hot journal is rolled back at its first read, putting back the page 1 it holds), and
            // is asked.
            return (
                first.mayBeTruncated, first.header.isEmpty ? nil : first.header[18] == 2 && first.header[19] == 2,
                isOurs && logSize == 0 && journalSize == 0
            )
        }
        return (true, nil, false)
    }

    /// The first 100 bytes of a file and its size, read through a connection's own open file.
    private struct HeaderSnapshot: Equatable {
        var header: [UInt8]
        var size: Int

        /// Reads the header and size of the file `connection` has open; nil when they cannot be read.
        init?(_ connection: Connection) {
            guard let (header, size) = connection.fileStart(count: 100) else { return nil }
            (self.header, self.size) = (header, size)
        }

        /// True when the header's own page count is valid and says the file is longer than it is: the
        /// file lost pages (or a checkpoint is extending it this very moment). With no write-ahead log
        /// SQLite notices this by itself; beside a log that holds the page count it would not, until a
        /// read reaches a missing page. Cheap to test, rare in a healthy store.
        var mayBeTruncated: Bool {
            guard header.count == 100 else { return false }
            func big32(_ offset: Int) -> Int { header[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
            let rawPageSize = Int(header[16]) << 8 | Int(header[17])
            let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
            let pageCountIsValid = big32(24) == big32(92) && big32(28) > 0
            return pageCountIsValid && big32(28) * pageSize > size
        }
    }

    /// Refuses a header that is plainly not a store of ours (see ``checkHeader(_:path:)``); returns true
    /// when it carries our application id and a schema version this one reads.
    private static func judge(_ snapshot: HeaderSnapshot, logSize: Int, path: String) throws -> Bool {
        let header = snapshot.header
        if header.isEmpty {
            guard logSize == 0 else {
                throw DefaultsError.corruptStore(path: path, reason: "empty, beside a non-empty write-ahead log")
            }
            return false
        }
        func big32(_ offset: Int) -> UInt32 { header[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        let rawPageSize = Int(header.count >= 18 ? UInt16(header[16]) << 8 | UInt16(header[17]) : 0)
        let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
        guard header.count == 100, header.starts(with: Array("SQLite format 3\0".utf8)),
            (512...65536).contains(pageSize), pageSize & (pageSize - 1) == 0,
            (1...2).contains(header[18]), (1...2).contains(header[19]), header[21...23] == [64, 32, 32]
        else { throw DefaultsError.corruptStore(path: path, reason: "not a database") }
        switch Int(big32(68)) {
        case TableLayout.applicationID:
            let found = Int(Int32(bitPattern: big32(60)))
            guard found <= TableLayout.version else {
                throw DefaultsError.unsupportedSchemaVersion(path: path, found: found, supported: TableLayout.version)
            }
            return true
        case 0:
            // Our own file has its application id on page 1 from its first checkpoint on; before that
            // it is one page (the WAL switch writes page 1) and the rest is in its log.
            if snapshot.size / pageSize >= 2, logSize == 0 { throw DefaultsError.foreignDatabase(path: path) }
            return false
        default:
            throw DefaultsError.foreignDatabase(path: path)
        }
    }
}
