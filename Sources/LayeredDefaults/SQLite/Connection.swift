import CSQLite
import Foundation

/// One open SQLite database handle: executes SQL and prepares statements.
///
/// Deliberately not `Sendable`: the owner (a `DomainStore`) serializes all use behind a lock.
final class Connection {
    private let handle: OpaquePointer
    /// How long a statement waits for another connection's lock before failing with `SQLITE_BUSY`.
    let busyTimeoutMilliseconds: Int32
    /// The statements of ``statement(_:)``, by the address of their (static, immortal) SQL text.
    private var statements: [UInt: Statement] = [:]
    private var isOpen = true
    /// Counts this connection's commits that wrote to the write-ahead log (see ``walCommitCount``).
    private let walCommits = WALCommitCounter()

    /// Opens the database at `path` (or `":memory:"`).
    ///
    /// Turns on extended result codes and sets the busy timeout. Never creates the file: the caller
    /// creates it with the right permissions first.
    /// - Parameter immutable: open read-only with SQLite's `immutable=1`: no lock, no `-wal` or `-shm`
    ///   is read or created, and changes by others are not seen. Only for a file nobody here can write.
    /// - Throws: ``SQLiteError`` when SQLite cannot open the file; the handle is closed even then.
    init(path: String, busyTimeoutMilliseconds: Int32, immutable: Bool = false) throws {
        var handle: OpaquePointer?
        let flags =
            (immutable ? SQLITE_OPEN_READONLY | SQLITE_OPEN_URI : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX
            | SQLITE_OPEN_NOFOLLOW
        let code = sqlite3_open_v2(immutable ? Self.immutableURI(path) : path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError(connection: handle, code: code)
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        sqlite3_wal_hook(handle, walHook, Unmanaged.passUnretained(walCommits).toOpaque())
    }

    /// How many of this connection's commits wrote to the write-ahead log, as SQLite itself reports
    /// them (`sqlite3_wal_hook`). A commit that wrote nothing (an empty transaction, a rewrite SQLite
    /// found unchanged) does not count: it leaves the WAL-index header as it was.
    var walCommitCount: UInt64 { walCommits.count }

    /// Runs `body` with a different busy timeout, then restores the connection's own.
    func withBusyTimeout<T>(milliseconds: Int32, _ body: () throws -> T) rethrows -> T {
        sqlite3_busy_timeout(handle, milliseconds)
        defer { sqlite3_busy_timeout(handle, busyTimeoutMilliseconds) }
        return try body()
    }

    deinit { close() }

    /// `file:<path, percent-encoded>?immutable=1`.
    private static func immutableURI(_ path: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-~".utf8)
        let encoded = path.utf8.map { plain.contains($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }.joined()
        return "file:\(encoded)?immutable=1"
    }

    /// Finalizes every statement and closes the handle; later use is a programming error.
    func close() {
        guard isOpen else { return }
        isOpen = false
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Copies what it can of the write-ahead log into the database file without waiting for anyone
    /// (`sqlite3_wal_checkpoint_v2`, `PASSIVE`): frames that a reader of an older snapshot may still need,
    /// or all when another connection is checkpointing (`SQLITE_BUSY`), are left for a later one.
    /// - Returns: SQLite's result code; not an error of any operation of the caller's.
    @discardableResult
    func checkpoint() -> Int32 {
        sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
    }

    /// Copies every page of this connection's main database into `destination`'s main database in one
    /// step, with SQLite's online backup API (`sqlite3_backup_init`, `_step(-1)`, `_finish`).
    ///
    /// The source is read in one read transaction (a consistent snapshot, its write-ahead log
    /// included); the destination is written in one write transaction, waiting for its lock up to its
    /// busy timeout, so its other readers see either its old content or the whole new one. A
    /// destination in WAL mode stays in WAL mode.
    /// - Throws: ``SQLiteError`` as the destination reports it (e.g. `SQLITE_BUSY`, `SQLITE_READONLY`
    ///   for a page size a destination in WAL mode cannot take); the destination is then unchanged.
    func copy(into destination: Connection) throws {
        guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
            throw SQLiteError(connection: destination.handle, code: sqlite3_errcode(destination.handle))
        }
        let stepped = sqlite3_backup_step(backup, -1)
        let finished = sqlite3_backup_finish(backup)
        guard stepped == SQLITE_DONE else {
            throw SQLiteError(connection: destination.handle, code: finished != SQLITE_OK ? finished : stepped)
        }
    }

    /// Whether closing the last connection to the file checkpoints its write-ahead log into it and
    /// deletes the log (SQLite's default: on). Turned off while a file is not yet known to be ours.
    func setCheckpointOnClose(_ enabled: Bool) {
        _ = csqlite_set_checkpoint_on_close(handle, enabled ? 1 : 0)
    }

    /// The WAL-index header (region 0 of the `-shm` file) as SQLite itself has it mapped, or nil when
    /// the database is not in WAL mode or its index is not mapped.
    ///
    /// Asked through the VFS method `xShmMap` of the main file (`SQLITE_FCNTL_FILE_POINTER`), which
    /// returns the region SQLite already mapped for this connection, creating nothing. The memory stays
    /// mapped until the connection closes: read it only while the connection is open.
    /// NB: no descriptor of our own is opened, so none is closed: closing one would drop every POSIX lock
    /// this process holds on the file, SQLite's included.
    func walIndexHeader() -> UnsafeRawPointer? {
        guard let file = mainFile, let methods = file.pointee.pMethods, methods.pointee.iVersion >= 2,
            let map = methods.pointee.xShmMap
        else { return nil }
        var region: UnsafeMutableRawPointer?
        // 32 KiB is SQLite's WAL-index page size (WALINDEX_PGSZ); the region must be asked with it.
        guard map(file, 0, 32768, 0, &region) == SQLITE_OK, let region else { return nil }
        return UnsafeRawPointer(region)
    }

    /// The first `count` bytes of the database file (all of it when shorter) and its size, or nil when
    /// they cannot be read.
    ///
    /// Read through SQLite's own open file (`xFileSize`, `xRead`), without a lock and without SQLite
    /// looking at them: no transaction is begun, no log or index is opened or created.
    /// As for ``walIndexHeader()``, no descriptor of our own is opened and closed, which would drop
    /// every POSIX lock this process holds on the file.
    func fileStart(count: Int) -> (bytes: [UInt8], size: Int)? {
        guard let file = mainFile, let methods = file.pointee.pMethods,
            let fileSize = methods.pointee.xFileSize, let read = methods.pointee.xRead
        else { return nil }
        var size: sqlite3_int64 = 0
        guard fileSize(file, &size) == SQLITE_OK else { return nil }
        var bytes = [UInt8](repeating: 0, count: min(count, Int(size)))
        guard !bytes.isEmpty else { return (bytes, Int(size)) }
        // A file that shrank since its size was read is read short (the rest zeroed): the caller, who
        // looks twice and compares, sees the size change.
        // SQLITE_IOERR_SHORT_READ (SQLITE_IOERR | 2 << 8) is a function-like macro Swift cannot import.
        let code = bytes.withUnsafeMutableBytes { read(file, $0.baseAddress, Int32($0.count), 0) }
        guard code == SQLITE_OK || code == SQLITE_IOERR | 2 << 8 else { return nil }
        return (bytes, Int(size))
    }

    /// True when SQLite has a journal file open for this connection's main database
    /// (`SQLITE_FCNTL_JOURNAL_POINTER` names an open file): its write-ahead log, once a read in WAL mode
    /// opened it. A rollback journal is open only inside a write transaction (or the rollback of a hot
    /// journal), so between statements of a connection that has not written, true means WAL mode.
    var hasLogOpen: Bool {
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_JOURNAL_POINTER, &file) == SQLITE_OK, let file else {
            return false
        }
        return file.pointee.pMethods != nil
    }

    /// True when a connection of another process has a transaction open on this database, in WAL mode
    /// (`SQLITE_FCNTL_EXTERNAL_READER`). Every commit happens inside a transaction, which it ends only
    /// after publishing its frames in the WAL-index header: so while this is false, every commit of
    /// another process that began before is visible (see ``ChangeSignal``).
    ///
    /// SQLite asks the kernel about the read locks on the `-shm` file (`F_GETLK`, which sees only other
    /// processes' locks), through its own descriptor of that file; false when the VFS cannot tell.
    /// NB: never through a descriptor of our own, which, once closed, would drop every POSIX lock this
    /// process holds on the file, SQLite's included.
    var anotherProcessHasTransactionOpen: Bool {
        var open: Int32 = 0
        return sqlite3_file_control(handle, "main", SQLITE_FCNTL_EXTERNAL_READER, &open) == SQLITE_OK && open != 0
    }

    /// The descriptor SQLite's unix VFS opened the main database with, or nil under another VFS. It stays
    /// open, on the same file, until the connection closes.
    /// NB: only for `fstat`: never closed, nor locked or unlocked, through it (SQLite owns it).
    var mainFileDescriptor: Int32? {
        guard let file = mainFile, file.pointee.pMethods != nil else { return nil }
        let descriptor = csqlite_unix_descriptor(file)
        return descriptor >= 0 ? descriptor : nil
    }

    /// SQLite's own open file of the main database (`SQLITE_FCNTL_FILE_POINTER`), or nil.
    private var mainFile: UnsafeMutablePointer<sqlite3_file>? {
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK else { return nil }
        return file
    }

    /// True when SQLite opened the file read-only (no write permission on it).
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// Runs one or more statements that return no rows of interest.
    /// - Throws: ``SQLiteError`` naming the SQL.
    func execute(_ sql: String) throws {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw SQLiteError(connection: handle, code: code, sql: sql) }
    }

    /// The prepared statement of the constant `sql`, compiled once per connection and reused, reset. Its
    /// bindings are not cleared between uses: bind every parameter each time (a debug build refuses to
    /// step with one unbound), since a parameter left unbound would hold the last use's value.
    ///
    /// The connection's one statement cache. Bind every parameter, then step or run; reset a query read
    /// only in part (`defer { statement.reset() }`), which otherwise keeps its read transaction open.
    ///
    /// Found by the address of the static text, so no SQL is hashed or compared (that was a third of
    /// the Swift-side cost of an upsert); equal texts at two addresses are merely two cached statements.
    /// - Throws: ``SQLiteError`` when the SQL does not compile (e.g. the file is not a database).
    func statement(_ sql: StaticString) throws -> Statement {
        let address = UInt(bitPattern: sql.utf8Start)
        if let cached = statements[address] {
            cached.reset()
            return cached
        }
        let statement = try Statement(connection: handle, sql: sql.description)
        statements[address] = statement
        return statement
    }

    /// The single integer a query such as `PRAGMA user_version` returns (0 when it returns no row).
    ///
    /// Compiled for this one use, not cached: for the rare queries whose text is made at run time.
    /// - Throws: ``SQLiteError``.
    func integer(_ sql: String) throws -> Int {
        let statement = try Statement(connection: handle, sql: sql)
        return try statement.step() ? statement.int(at: 0) : 0
    }

    /// The single text a query such as `PRAGMA journal_mode` returns (nil when it returns no row).
    ///
    /// Compiled for this one use, not cached: for the rare queries whose text is made at run time.
    /// - Throws: ``SQLiteError``.
    func text(_ sql: String) throws -> String? {
        let statement = try Statement(connection: handle, sql: sql)
        return try statement.step() ? statement.text(at: 0) : nil
    }
}

/// The counter behind ``Connection/walCommitCount``, owned by its connection and used under its lock.
private final class WALCommitCounter {
    var count: UInt64 = 0
}

/// The log size, in frames, past which a commit checkpoints: the backstop of the idle checkpoint.
///
/// SQLite's own default (`wal_autocheckpoint`, 1,000 frames, 4 MiB of 4 KiB pages). The store
/// checkpoints its log once it is idle (``IdleCheckpoint``), so a burst of writes starts from an empty
/// log and only one of more than 1,000 frames without a pause of a tenth of a second reaches this. A
/// larger backstop spares longer bursts, but a process that never pauses then stalls as many times longer
/// each time (prefs-bench's `write-latency`, docs/PERFORMANCE.md), and the log file keeps that larger size
/// until the store closes.
let backstopCheckpointFrames: Int32 = 1000

/// SQLite's WAL hook: runs after each commit of the connection that wrote frames to the log.
///
/// NB: a WAL hook replaces SQLite's automatic checkpoint (which is itself a WAL hook), so this one does
/// that job, as the backstop of the idle checkpoint: a passive checkpoint once the log holds
/// ``backstopCheckpointFrames``. Never run `PRAGMA wal_autocheckpoint`, which would replace this hook.
private let walHook: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32 = {
    context, handle, database, frames in
    if let context { Unmanaged<WALCommitCounter>.fromOpaque(context).takeUnretainedValue().count &+= 1 }
    if frames >= backstopCheckpointFrames { _ = sqlite3_wal_checkpoint(handle, database) }
    return SQLITE_OK
}
