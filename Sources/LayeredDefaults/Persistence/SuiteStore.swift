import Foundation
import Synchronization

/// The process's one handle on one persistent domain: its SQLite connection and its in-memory view.
///
/// Every ``Defaults`` instance of the same suite and location in a process shares one store, so they
/// see each other's writes at once. Reads are served from memory; the view is revalidated on every
/// read against the ``ChangeSignal`` (nanoseconds), and a read that misses runs one point query.
/// Writes commit to SQLite first and then patch the view in place; the domain is never reloaded
/// because of a write of ours.
final class SuiteStore: Sendable {
    /// The suite name.
    let name: String
    /// The database file, or nil in memory.
    let path: String?
    /// The device and inode of the database file, or nil in memory.
    let identity: FileIdentity?
    /// Why the domain cannot be written (e.g. an empty read-only file), or nil when it can.
    let unavailable: DefaultsError?

    // NB: the database is not Sendable; every use goes through `withDatabase`, which holds `databaseLock`.
    nonisolated(unsafe) private let database: Database
    private let databaseLock = Lock(())
    /// The thread holding `databaseLock` (0: none), so that a call made from inside a transaction's body
    /// on that thread is recognized instead of deadlocking on the lock it already holds.
    private let lockOwner = Atomic<UInt>(0)
    private let view: Lock<View>
    private let signal: ChangeSignal

    /// The in-memory view: values known to be stored (or known to be absent), valid for one fingerprint.
    private struct View {
        var entries: [String: PreferenceValue?] = [:]
        var isComplete = false
        var fingerprint: ChangeSignal.Fingerprint
        /// Incremented whenever the view is discarded, so a read that raced with it does not repopulate it.
        var generation = 0

        mutating func revalidate(_ current: ChangeSignal.Fingerprint) {
            guard current != fingerprint else { return }
            entries.removeAll()
            isComplete = false
            fingerprint = current
            generation += 1
        }
    }

    private init(name: String, path: String?, identity: FileIdentity? = nil, connection: Connection, signal: ChangeSignal,
                 complete: Bool, unavailable: DefaultsError?) {
        self.name = name
        self.path = path
        self.identity = identity
        self.unavailable = unavailable
        self.signal = signal
        self.database = Database(connection: connection, suite: name)
        self.view = Lock(View(isComplete: complete, fingerprint: signal.fingerprint))
    }

    deinit {
        // NB: `signal` points into the connection's mapping of the -shm file; nothing reads it from here on.
        database.connection.close()
    }

    /// Opens (creating when missing, mode 0600) the database of `name` at `path`.
    ///
    /// Where this process cannot write the file or its directory, the store is a read-only snapshot
    /// of the file as it is now (unless a `-wal` holds pending commits, which SQLite then reads): reads
    /// work, writes throw ``DefaultsError/readOnly(suite:key:)``.
    /// - Throws: ``DefaultsError/unsafePath(path:)`` for a symbolic link (the file, its `-wal`, `-shm` or `-journal`)
    ///   or a companion that is not a regular file, ``DefaultsError/hardLinked(path:)`` for any of them with
    ///   more than one name, ``DefaultsError/permissionDenied(path:)`` for a file this user may not read,
    ///   ``DefaultsError/corruptStore(path:reason:)`` for a file that is not a readable database,
    ///   ``DefaultsError/foreignDatabase(path:)``, ``DefaultsError/unsupportedSchemaVersion(path:found:supported:)``,
    ///   or a storage error. The file is never modified when it is not ours.
    static func open(name: String, path: String, busyTimeoutMilliseconds: Int32) throws -> SuiteStore {
        guard let found = try Location.status(ofEntry: path) ?? create(path, suite: name) else {
            return inMemory(name: name, unavailable: .readOnly(suite: name, key: nil))
        }
        try refuseUnsafe(path, found)
        // NB: in WAL mode even a reader needs a -shm (and a -wal) beside the file. Where this process
        // cannot write (a read-only directory or file, a read-only file system) SQLite cannot create
        // them, and fails every read; or it creates them read-only like the file, which then keeps the
        // store read-only after the file is made writable again. When no log holds pending commits,
        // everything is in the main file: read it as an immutable snapshot, creating nothing.
        let directory = (path as NSString).deletingLastPathComponent
        var status = stat()
        let pendingLog = lstat(path + "-wal", &status) == 0 && status.st_size > 0
        let snapshot = (access(path, W_OK) != 0 || access(directory, W_OK) != 0) && !pendingLog
        let connection: Connection
        do {
            connection = try Connection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, immutable: snapshot)
        } catch let error as SQLiteError {
            // NB: opening reads nothing but the header, so it fails for the file, never for its content.
            if error.systemErrno == EACCES || error.systemErrno == EPERM { throw DefaultsError.permissionDenied(path: path) }
            throw DefaultsError.storage(error, suite: name, key: nil)
        }
        // NB: until the file is known to be ours, closing must not checkpoint a log into it (see Schema.checkHeader).
        connection.setCheckpointOnClose(false)
        do {
            let mayBeTruncated = try Schema.checkHeader(connection, path: path)
            switch try Schema.prepare(connection, path: path, inMemory: false, verify: mayBeTruncated) {
            case .emptyReadOnly:
                connection.close()
                return inMemory(name: name, unavailable: .readOnly(suite: name, key: nil))
            case .ready:
                if snapshot {
                    return SuiteStore(name: name, path: path, identity: FileIdentity(found), connection: connection, signal: .never,
                                      complete: false, unavailable: .readOnly(suite: name, key: nil))
                }
                connection.setCheckpointOnClose(true)
                _ = try connection.text("PRAGMA synchronous = NORMAL")
                let signal = ChangeSignal.open(connection: connection)
                return SuiteStore(name: name, path: path, identity: FileIdentity(found), connection: connection, signal: signal,
                                  complete: false, unavailable: nil)
            }
        } catch {
            // NB: with checkpoint-on-close off, SQLite would leave the empty log and the index it created
            // beside a file we refuse. When the log is still empty there is nothing to merge into the file,
            // so let SQLite close as usual: it deletes them only when no other connection uses them. (Never
            // delete them ourselves: "absent when we looked" does not mean no other process created them
            // since, and unlinking a -shm in use splits processes onto two WAL indexes: corruption.)
            var status = stat()
            if lstat(path + "-wal", &status) != 0 || status.st_size == 0 { connection.setCheckpointOnClose(true) }
            connection.close()
            throw DefaultsError.storage(error, suite: name, key: nil)
        }
    }

    /// Creates the empty database file at `path`, mode 0600 whatever the umask, and returns its status;
    /// nil when this process may not create it (a read-only directory or file system).
    private static func create(_ path: String, suite: String) throws -> stat? {
        let descriptor = Foundation.open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            // NB: the umask may have taken bits off 0600 (0400 under umask 0277), and SQLite gives the -wal
            // and -shm the file's mode. Closing this descriptor drops no lock: the file is new, so no
            // connection of this process has it open.
            fchmod(descriptor, 0o600)
            close(descriptor)
        } else if errno == EACCES || errno == EROFS {
            return nil
        } else if errno != EEXIST {
            throw DefaultsError.system(errno, path: path, operation: "create", suite: suite)
        }
        guard let status = try Location.status(ofEntry: path) else {
            throw DefaultsError.system(ENOENT, path: path, operation: "create", suite: suite)
        }
        return status
    }

    /// Refuses, by name and without opening anything, a database file (whose status is `status`) or a
    /// `-wal`, `-shm` or `-journal` beside it that SQLite must not open.
    ///
    /// NB: SQLite (opened with NOFOLLOW) refuses a linked -wal or -shm too, but only as an anonymous
    /// SQLITE_CANTOPEN after creating a -wal beside it. It opens a FIFO and blocks forever. And it finds
    /// companions by name and shares a log between connections by the database's inode: a file with a
    /// second name gets a log per name (writes lost, corruption), and a companion with a second name is
    /// written through, overwriting the file it shares. `lstat` sees all of this without a descriptor.
    private static func refuseUnsafe(_ path: String, _ status: stat) throws {
        switch status.st_mode & S_IFMT {
        case S_IFLNK: throw DefaultsError.unsafePath(path: path)
        case S_IFREG: break
        default: throw DefaultsError.corruptStore(path: path, reason: "not a regular file")
        }
        guard status.st_nlink == 1 else { throw DefaultsError.hardLinked(path: path) }
        var companion = stat()
        for suffix in Location.companionSuffixes where lstat(path + suffix, &companion) == 0 {
            guard companion.st_mode & S_IFMT == S_IFREG else { throw DefaultsError.unsafePath(path: path + suffix) }
            guard companion.st_nlink == 1 else { throw DefaultsError.hardLinked(path: path + suffix) }
        }
    }

    /// A private, empty domain in memory; with `unavailable`, every write fails with that error.
    static func inMemory(name: String, unavailable: DefaultsError? = nil) -> SuiteStore {
        // NB: opening and preparing an empty in-memory database cannot fail short of memory exhaustion.
        let connection = try! Connection(path: ":memory:", busyTimeoutMilliseconds: 0)
        _ = try! Schema.prepare(connection, path: ":memory:", inMemory: true)
        return SuiteStore(name: name, path: nil, connection: connection, signal: .never, complete: true, unavailable: unavailable)
    }

    // MARK: Reading

    /// The stored value of `key`: from memory when the view is current, else one point query.
    /// - Throws: ``DefaultsError`` when the database cannot be read.
    func value(forKey key: String) throws -> PreferenceValue? {
        // NB: from inside a transaction's body on this thread, read the open transaction, never the view:
        // the body's own changes are visible, for every key alike.
        if lockOwner.load(ordering: .relaxed) == Self.currentThread { return try read { try $0.value(forKey: key) } }
        let cached: PreferenceValue?? = view.withLock { view in
            view.revalidate(signal.fingerprint)
            if let entry = view.entries[key] { return .some(entry) }
            return view.isComplete ? .some(nil) : nil
        }
        if let cached { return cached }
        return try withDatabase { database, reentered in
            let generation = view.withLock { view in
                view.revalidate(signal.fingerprint)
                return view.generation
            }
            let value: PreferenceValue?
            do {
                value = try database.value(forKey: key)
            } catch {
                throw failure(error, key: key)
            }
            // NB: re-entered from a transaction's body, the query saw that transaction's uncommitted changes.
            if !reentered {
                view.withLock { view in
                    if view.generation == generation { view.entries[key] = .some(value) }
                }
            }
            return value
        }
    }

    /// Every stored value (the view is then complete: later misses need no query).
    /// - Returns: the values, and an error for each row that could not be decoded (skipped, untouched).
    /// - Throws: ``DefaultsError`` when the database cannot be read.
    func allValues() throws -> (values: [String: PreferenceValue], undecodable: [DefaultsError]) {
        try withDatabase { database, reentered in
            let generation = view.withLock { view in
                view.revalidate(signal.fingerprint)
                return view.generation
            }
            let result: (values: [String: PreferenceValue], undecodable: [DefaultsError])
            do {
                result = try database.allValues()
            } catch {
                throw failure(error, key: nil)
            }
            view.withLock { view in
                guard !reentered, view.generation == generation else { return }
                view.entries = result.values.mapValues { .some($0) }
                view.isComplete = true
            }
            return result
        }
    }

    /// Runs `body` with the database, for reads that the view does not serve (e.g. the migrations table).
    /// - Throws: what `body` throws, storage errors classified as ``DefaultsError``.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try withDatabase { database, _ in
            do {
                return try body(database)
            } catch {
                throw failure(error, key: nil)
            }
        }
    }

    /// The current fingerprint of the database: it changes whenever anyone commits to it.
    var fingerprint: ChangeSignal.Fingerprint { signal.fingerprint }

    // MARK: Writing

    /// Runs `body` in one write transaction (`BEGIN IMMEDIATE` ... `COMMIT`) and, once it has
    /// committed, patches the in-memory view with what it changed.
    ///
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws (nothing is changed then), ``unavailable``, or a storage error
    ///   (``DefaultsError/busy(suite:key:)``, ``DefaultsError/diskFull(suite:key:)``, ...), after which
    ///   the database and the view are as they were.
    /// - Parameter key: the key the transaction is about, if one, for error messages.
    @discardableResult
    func transaction<T>(key: String? = nil, _ body: (inout DomainTransaction) throws -> T) throws -> T {
        if let unavailable {
            if case .readOnly(let suite, nil) = unavailable { throw DefaultsError.readOnly(suite: suite, key: key) }
            throw unavailable
        }
        return try withDatabase { database, reentered in
            guard !reentered else { throw DefaultsError.nestedTransaction(suite: name) }
            do {
                try database.begin()
            } catch {
                throw failure(error, key: key)
            }
            var transaction = DomainTransaction(database: database)
            let before: (generation: Int, fingerprint: ChangeSignal.Fingerprint)
            let result: T
            let wroteLog: Bool
            do {
                // Holding the write lock, the view now matches the database (or is discarded).
                before = view.withLock { view in
                    view.revalidate(signal.fingerprint)
                    return (view.generation, view.fingerprint)
                }
                result = try body(&transaction)
                // NB: a body that caught a failed statement's error must not commit the rest: SQLite may
                // already have rolled back, leaving later statements to commit one by one.
                if let failed = database.transactionFailure { throw failed }
                let commitsBefore = database.connection.walCommitCount
                try database.commit()
                wroteLog = database.connection.walCommitCount != commitsBefore
            } catch {
                database.rollback()
                throw failure(error, key: key)
            }
            Self.afterCommitForTesting?()
            let changes = transaction.changes
            let removedAll = transaction.removedAll
            let current = signal.fingerprint
            view.withLock { view in
                // NB: the write lock is released once COMMIT returns, so another process may have committed
                // too before `current` was read: patch only when ours, known to have written, is the one
                // commit since `before`. A commit that wrote nothing never patches: the view is then only
                // revalidated, as for a read.
                guard view.generation == before.generation,
                      signal.isOnlyCommit(wroteLog: wroteLog, between: before.fingerprint, and: current)
                else {
                    return view.revalidate(current)
                }
                // Only our commit happened since the revalidation above: patch, do not reload.
                if removedAll {
                    view.entries.removeAll()
                    view.isComplete = true
                }
                for (key, value) in changes { view.entries[key] = .some(value) }
                view.fingerprint = current
            }
            return result
        }
    }

    /// Runs between a transaction's `COMMIT` and the store's look at the WAL-index header: a seam for tests
    /// that force another process's commit into exactly that moment.
    @TaskLocal static var afterCommitForTesting: (@Sendable () -> Void)?

    /// Runs `body` with this store's connection, holding its lock: a seam for fault injection in tests
    /// (e.g. `PRAGMA max_page_count` to make the disk look full). Never for reading or writing values,
    /// which the in-memory view would not know about.
    func withConnectionForTesting<T>(_ body: (Connection) throws -> T) throws -> T {
        try withDatabase { database, _ in try body(database.connection) }
    }

    /// Classifies a failure of an operation on `key` (if one): corruption found now, past the checks of
    /// opening, is ``DefaultsError/corruptStore(path:reason:)`` naming the file; see ``DefaultsError/storage(_:suite:key:)``.
    private func failure(_ error: any Error, key: String?) -> any Error {
        if let error = error as? SQLiteError, let path, error.code.primary == .corrupt || error.code.primary == .notADatabase {
            return DefaultsError.corruptStore(path: path, reason: error.code.primary == .corrupt ? "malformed" : "not a database")
        }
        return DefaultsError.storage(error, suite: name, key: key)
    }

    /// Runs `body` with the database, holding its lock; `reentered` is true when this thread already held
    /// it (a call from inside a transaction's body), which then runs without taking it again.
    private func withDatabase<T>(_ body: (Database, _ reentered: Bool) throws -> T) throws -> T {
        let thread = Self.currentThread
        if lockOwner.load(ordering: .relaxed) == thread { return try body(database, true) }
        var result: Result<T, any Error>?
        databaseLock.withLock { _ in
            lockOwner.store(thread, ordering: .relaxed)
            defer { lockOwner.store(0, ordering: .relaxed) }
            result = Result { try body(database, false) }
        }
        return try result!.get()
    }

    private static var currentThread: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }
}
