import Foundation
import Synchronization

/// The process's one handle on one persistent domain: its SQLite connection and its in-memory view.
///
/// Every ``Defaults`` instance of the same suite and location in a process shares one store, so they
/// see each other's writes at once. Reads are served from memory; the view is revalidated on every
/// read against the ``ChangeSignal`` (nanoseconds), and a read that misses runs one point query.
/// Writes commit to SQLite first and then patch the view in place; the domain is never reloaded
/// because of a write of ours.
final class DomainStore: Sendable {
    // What the write transaction and the file-identity guard use is internal, not private: they are
    // extensions in files of their own (DomainStore+WriteTransaction.swift, DomainStore+FileIdentity.swift).

    /// The suite name.
    let name: String
    /// The database file, or nil in memory.
    let path: String?
    /// The device and inode of the database file, or nil in memory.
    let identity: FileIdentity?
    /// The descriptor of the database file SQLite opened (``Connection/mainFileDescriptor``), only for
    /// `fstat`, or nil (in memory, a read-only snapshot, another VFS).
    let descriptor: Int32?
    /// The device and inode of the database's `-wal` and `-shm` files as its connection opened them, by
    /// path (empty in memory and in a read-only snapshot, which write nothing): see ``filesAtPath``.
    let companions: [(path: String, identity: FileIdentity)]
    /// Why the domain cannot be written (e.g. an empty read-only file), or nil when it can.
    let unavailable: DefaultsError?

    // NB: the table is not Sendable; every use goes through `withTable`, which holds `tableLock`.
    nonisolated(unsafe) private let table: PreferencesTable
    /// Held across a transaction, whose body may call this store again (recognized, not a deadlock) but
    /// no other writable store (refused at once, see ``StoreLock``).
    private let tableLock: StoreLock
    /// True while a transaction's body runs holding ``tableLock``: a read that may not wait (see
    /// ``FromAnotherTransaction/answeredWithoutWaiting``) is then refused, else it tries again.
    let runsTransaction = Atomic<Bool>(false)
    let view: Lock<CachedView>
    let signal: ChangeSignal
    /// The WAL-index header right after this store's last commit that wrote to the log, when that
    /// commit is known to be the only one since the header was read before it; nil when not known.
    /// While the header is still that, no other process has committed since (see ``mayCheckpoint(_:)``).
    let headerAfterOwnCommit = Lock<ChangeSignal.Fingerprint?>(nil)
    /// Checkpoints the log once the store is idle (nil in memory, where there is no log).
    let idleCheckpoint: IdleCheckpoint?
    /// What is known of the file's history table: ``historyTablePresent``; the view's generation
    /// (``CachedView/generation``) in which it was found absent; or ``historyTableUnknown``.
    let historyTableSeen = Atomic<Int>(historyTableUnknown)
    /// ``historyTableSeen``: the file holds the history table.
    static let historyTablePresent = -1
    /// ``historyTableSeen``: not asked yet, or a commit of ours may have made the table since.
    static let historyTableUnknown = -2

    private init(
        name: String, path: String?, identity: FileIdentity? = nil, descriptor: Int32? = nil, connection: Connection,
        signal: ChangeSignal,
        complete: Bool, unavailable: DefaultsError?, checkpoints: Bool = true
    ) {
        self.name = name
        self.path = path
        self.identity = identity
        self.descriptor = descriptor
        // The connection has read the database, so SQLite has opened (or made) its log and its index.
        self.companions =
            path == nil || unavailable != nil
            ? []
            : ["-wal", "-shm"].compactMap { suffix in
                let companion = path! + suffix
                return FileIdentity(ofFileAt: companion).map { (companion, $0) }
            }
        self.unavailable = unavailable
        self.signal = signal
        self.tableLock = StoreLock(suite: name)
        self.table = PreferencesTable(connection: connection, suite: name)
        self.view = Lock(CachedView(isComplete: complete, fingerprint: signal.fingerprint))
        self.idleCheckpoint = path == nil || !checkpoints ? nil : IdleCheckpoint()
        idleCheckpoint?.start { [weak self] in self?.checkpointIfIdle() }
    }

    deinit {
        // NB: the last connection to close checkpoints and then deletes the `-wal` and `-shm` by name: never
        // files this store did not open. A log deleted from its path is checkpointed first (see
        // ``mayCheckpoint(_:)``), by a checkpoint that deletes nothing.
        let files = filesAtPath
        if files != .opened {
            if mayCheckpoint(files) { _ = table.connection.checkpoint() }
            table.connection.setCheckpointOnClose(false)
        }
        // `signal` points into the connection's mapping of the -shm file; nothing reads it from here on.
        table.connection.close()
    }

    /// Opens the database of `name` at `path`, an existing file whose `lstat` status is `status` (see
    /// ``FileAdmission/create(_:mode:suite:)`` for a new one).
    ///
    /// Where this process cannot write the file or its directory, the store is a read-only snapshot
    /// of the file as it is now (unless a `-wal` holds pending commits, which SQLite then reads): reads
    /// work, writes throw ``DefaultsError/readOnly(suite:key:)``.
    /// - Throws: what ``FileAdmission/open(_:status:suite:busyTimeoutMilliseconds:)`` throws for a file that
    ///   is not to be trusted, ``DefaultsError/corruptStore(path:reason:)`` for a file that is not a readable
    ///   database, ``DefaultsError/foreignDatabase(path:)``, ``DefaultsError/unsupportedSchemaVersion(path:found:supported:)``,
    ///   or a storage error. The file is never modified when it is not ours. ``FileMovedWhileOpening`` when
    ///   the file SQLite opened is not, or no longer, the one `status` describes at `path` (see
    ///   ``refuseUnlessOpened(_:at:by:)``): nothing was written to it, and the caller looks at the path again.
    static func open(name: String, path: String, status: stat, busyTimeoutMilliseconds: Int32) throws -> DomainStore {
        let candidate = try FileAdmission.open(
            path, status: status, suite: name, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        let connection = candidate.connection
        do {
            if !candidate.isSnapshot {
                runOpeningHookForTesting(path)
                // Before anything is written: a file deleted since it was looked at is not made a store.
                try refuseUnlessOpened(status, at: path, by: connection)
            }
            switch try TableLayout.prepare(
                connection, path: path, inMemory: false, verify: candidate.mayBeTruncated,
                headerProvesOurs: candidate.headerProvesOurs)
            {
            case .emptyReadOnly:
                connection.close()
                return inMemory(name: name, unavailable: .readOnly(suite: name, key: nil))
            case .ready:
                if candidate.isSnapshot {
                    return DomainStore(
                        name: name, path: path, identity: FileIdentity(status), connection: connection, signal: .never,
                        complete: false, unavailable: .readOnly(suite: name, key: nil))
                }
                // NB: before the statement is compiled: changing this setting expires every statement
                // compiled (SQLite compiles it again at its first use).
                connection.setCheckpointOnClose(true)
                // Compiling the first read's statement now reads and checks the schema, as opening always
                // did (a damaged one fails here), at no cost of its own: the read finds it compiled. And
                // `synchronous = NORMAL` is set by the first write (see ``PreferencesTable/begin()``), as a
                // minimal app sets it: a store that is only read never compiles it.
                _ = try connection.statement(PreferencesTable.pointRead)
                // NB: after the first read, which holds SQLite's lock on the `-shm` (a deletion from now on
                // sees the domain open): a file deleted between the look at its path and that read is
                // closed as it is (checkpoint-on-close off again), never written.
                try refuseUnlessOpened(status, at: path, by: connection)
                let signal = ChangeSignal.open(connection: connection, headerSaysWAL: candidate.headerSaysWAL)
                return DomainStore(
                    name: name, path: path, identity: FileIdentity(status), descriptor: connection.mainFileDescriptor,
                    connection: connection, signal: signal, complete: false, unavailable: nil)
            }
        } catch let moved as FileMovedWhileOpening {
            // NB: checkpoint-on-close off: the `-wal` and `-shm` at the path may be another file's now,
            // which closing must neither checkpoint into this one nor delete.
            connection.setCheckpointOnClose(false)
            connection.close()
            throw moved
        } catch {
            // A file deleted while SQLite read it fails as SQLite sees it (an I/O error): looked at again.
            if (try? refuseUnlessOpened(status, at: path, by: connection)) == nil {
                connection.setCheckpointOnClose(false)
                connection.close()
                throw FileMovedWhileOpening()
            }
            FileAdmission.close(refused: connection, path: path)
            throw DefaultsError.storage(error, suite: name, key: nil)
        }
    }

    /// A private, empty domain in memory; with `unavailable`, every write fails with that error.
    static func inMemory(name: String, unavailable: DefaultsError? = nil) -> DomainStore {
        // Opening and preparing an empty in-memory database cannot fail short of memory exhaustion.
        let connection = try! Connection(path: ":memory:", busyTimeoutMilliseconds: 0)
        _ = try! TableLayout.prepare(connection, path: ":memory:", inMemory: true)
        return DomainStore(
            name: name, path: nil, connection: connection, signal: .never, complete: true, unavailable: unavailable)
    }

    /// The stand-in of the domain `name` while its file at `path` does not exist: empty, never written,
    /// its fingerprint moving once the file is there (``ChangeSignal/absent(path:)``).
    static func absent(name: String, path: String) -> DomainStore {
        let connection = try! Connection(path: ":memory:", busyTimeoutMilliseconds: 0)
        _ = try! TableLayout.prepare(connection, path: ":memory:", inMemory: true)
        return DomainStore(
            name: name, path: path, connection: connection, signal: .absent(path: path), complete: true,
            unavailable: .readOnly(suite: name, key: nil), checkpoints: false)
    }

    /// The stand-in of the drop-in folder at `path` of the domain `name`: empty, never written, its
    /// fingerprint the folder's (``ChangeSignal/folder(path:)``). Its path is the folder's followed by
    /// `/*`, which observation reads as "every entry of the folder" (see ``DirectoryEvents``).
    static func folder(name: String, path: String) -> DomainStore {
        let connection = try! Connection(path: ":memory:", busyTimeoutMilliseconds: 0)
        _ = try! TableLayout.prepare(connection, path: ":memory:", inMemory: true)
        return DomainStore(
            name: name, path: path + "/" + DirectoryEvents.everyEntry, connection: connection, signal: .folder(path: path),
            complete: true, unavailable: .readOnly(suite: name, key: nil), checkpoints: false)
    }

    /// True while the calling thread holds this store's lock: it runs one of its transactions' bodies.
    var isLockedByCurrentThread: Bool {
        if case .this = tableLock.holding { return true }
        return false
    }

    // MARK: Reading

    /// How a use of this store from inside another store's transaction, on the same thread, is met.
    /// Either way it never waits: store locks are leaves (see ``StoreLock``).
    enum FromAnotherTransaction {
        /// Refused at once, whether or not the view could answer, so that what a body may reach does not
        /// depend on what happens to be in memory: every use of a domain that may be written.
        case refused
        /// Answered without waiting for a transaction: from the view, or once the store's lock is free;
        /// refused while a transaction of this store runs (its body might need the caller's store). The
        /// read-only layers of a search (the managed and system domains), which a body's reads through
        /// `Defaults` must see. (Another thread's short read holding the lock waits for nothing, so it is
        /// waited out by trying again.)
        case answeredWithoutWaiting
    }

    /// The stored value of `key`: from memory when the view is current, else one point query, whose
    /// answer the view keeps unless `keepingQueried` is false (the caller keeps it itself).
    /// - Throws: ``DefaultsError/otherSuiteInTransaction(suite:transactionSuite:)`` from inside another
    ///   store's transaction (see ``FromAnotherTransaction``), ``DefaultsError`` when the database cannot
    ///   be read.
    func value(
        forKey key: String, fromAnotherTransaction: FromAnotherTransaction = .refused, keepingQueried: Bool = true
    ) throws -> PreferenceValue? {
        switch tableLock.holding {
        case .none: break
        case .this:
            // NB: from inside a transaction's body on this thread, read the open transaction, never the
            // view: the body's own changes are visible, for every key alike.
            return try reading { try $0.value(forKey: key) }
        case .other(let suite):
            if fromAnotherTransaction == .refused {
                throw DefaultsError.otherSuiteInTransaction(suite: name, transactionSuite: suite)
            }
        }
        if case .known(let value) = view.withLock({ $0.lookUp(key, current: signal.fingerprint) }) { return value }
        return try withTable(key: key, fromAnotherTransaction: fromAnotherTransaction) { table, reentered in
            let generation = view.withLock { view in
                view.revalidate(signal.fingerprint)
                return view.generation
            }
            let value: PreferenceValue?
            do {
                value = try table.value(forKey: key)
            } catch {
                throw failure(error, key: key)
            }
            // Re-entered from a transaction's body, the query saw that transaction's uncommitted changes.
            if keepingQueried, !reentered { view.withLock { $0.remember(value, forKey: key, readIn: generation) } }
            return value
        }
    }

    /// Every stored value (the view is then complete: later misses need no query).
    /// - Returns: the values, and an error for each row that could not be decoded (skipped, untouched).
    /// - Throws: ``DefaultsError`` when the database cannot be read.
    func allValues(
        fromAnotherTransaction: FromAnotherTransaction = .refused
    ) throws -> (values: [String: PreferenceValue], undecodable: [DefaultsError]) {
        try withTable(key: nil, fromAnotherTransaction: fromAnotherTransaction) { table, reentered in
            let generation = view.withLock { view in
                view.revalidate(signal.fingerprint)
                return view.generation
            }
            let result: (values: [String: PreferenceValue], undecodable: [DefaultsError])
            do {
                result = try table.allValues()
            } catch {
                throw failure(error, key: nil)
            }
            if !reentered { view.withLock { $0.rememberAll(result.values, readIn: generation) } }
            return result
        }
    }

    /// Runs `body` with the table gateway, for reads that the view does not serve (e.g. the migrations table).
    /// - Throws: what `body` throws, storage errors classified as ``DefaultsError``.
    func reading<T>(_ body: (PreferencesTable) throws -> T) throws -> T {
        try withTable(key: nil) { table, _ in
            do {
                return try body(table)
            } catch {
                throw failure(error, key: nil)
            }
        }
    }

    /// The current fingerprint of the database: it changes whenever anyone commits to it.
    @inline(__always) var fingerprint: ChangeSignal.Fingerprint { signal.fingerprint }

    /// True when another process may be in the middle of a commit to this database, its frames in the
    /// log and its WAL-index header not yet written (which raises no directory event): it has a
    /// transaction open (``Connection/anotherProcessHasTransactionOpen``), or this process is using the
    /// store's connection now and so cannot ask. False in memory.
    ///
    /// Never waits: the lock is only tried, so a look never waits for a transaction of this process.
    var anotherProcessMayBeCommitting: Bool {
        guard path != nil else { return false }
        return tableLock.withLockIfAvailable { table.connection.anotherProcessHasTransactionOpen } ?? true
    }

    // MARK: Backup and restore

    /// Copies this domain's committed content, its write-ahead log included, into the database that
    /// `destination` has open (see ``Connection/copy(into:)``), holding the store's lock.
    /// - Throws: ``DefaultsError`` when the domain cannot be read or the destination written.
    func copyContents(into destination: Connection) throws {
        try withTable(key: nil) { table, reentered in
            guard !reentered else { throw DefaultsError.nestedTransaction(suite: name) }
            do {
                try table.connection.copy(into: destination)
            } catch {
                throw failure(error, key: nil)
            }
        }
    }

    /// The idle checkpoint's work (see ``IdleCheckpoint``): holding the store's lock, checkpoints the log
    /// (`PASSIVE`) when this store's connection committed nothing to it since the timer was armed, else
    /// arms it again. Also the seam by which a test says "the quiet period has passed".
    ///
    /// A checkpoint that could not copy everything (a reader of an older snapshot, another connection
    /// checkpointing) is not an error: what is left waits for the next idle checkpoint, or the backstop.
    /// Nothing is checkpointed once a file's path names another file than was opened, but a log deleted
    /// from its path (see ``mayCheckpoint(_:)``).
    func checkpointIfIdle() {
        guard mayCheckpoint(filesAtPath) else { return }
        // The timer's thread (or a test's) holds no store's lock, so it is never refused.
        try? tableLock.withLock { _ in
            idleCheckpoint?.fire(commitsNow: table.connection.walCommitCount) { _ = table.connection.checkpoint() }
        }
    }

    /// Copies the log into the database (`PASSIVE`) at the process's exit, when the store's files are the
    /// ones it opened and no thread holds its lock (one that does is left as it is: nothing waits at exit).
    /// Another process's readers keep what they need; the log itself stays, for SQLite to remove at the
    /// last close.
    func checkpointAtExit() {
        guard path != nil, unavailable == nil, idleCheckpoint != nil, mayCheckpoint(filesAtPath) else { return }
        _ = tableLock.withLockIfAvailable { table.connection.checkpoint() }
    }

    /// Runs `body` with this store's connection, holding its lock: a seam for fault injection in tests
    /// (e.g. `PRAGMA max_page_count` to make the disk look full). Never for reading or writing values,
    /// which the in-memory view would not know about.
    func withConnectionForTesting<T>(_ body: (Connection) throws -> T) throws -> T {
        try withTable(key: nil) { table, _ in try body(table.connection) }
    }

    /// The stored values the in-memory view holds now: a seam for tests of what the view keeps.
    var viewValuesForTesting: [String: PreferenceValue] { view.withLock { $0.values } }

    /// Classifies a failure of an operation on `key` (if one): corruption found now, past the checks of
    /// opening, is ``DefaultsError/corruptStore(path:reason:)`` naming the file; see ``DefaultsError/storage(_:suite:key:)``.
    func failure(_ error: any Error, key: String?) -> any Error {
        if let error = error as? SQLiteError, let path, error.code.primary == .corrupt || error.code.primary == .notADatabase {
            return DefaultsError.corruptStore(path: path, reason: error.code.primary == .corrupt ? "malformed" : "not a database")
        }
        return DefaultsError.storage(error, suite: name, key: key)
    }

    /// Runs `body` with the table gateway, holding its lock; `reentered` is true when this thread already
    /// held it (a call from inside a transaction's body), which then runs without taking it again.
    ///
    /// NB: the one place a store's lock is taken. A thread that holds another store's lock never waits
    /// for this one: store locks are leaves (see ``StoreLock``).
    /// - Throws: what `body` throws, or ``DefaultsError/otherSuiteInTransaction(suite:transactionSuite:)``
    ///   at once, without running it, from inside another store's transaction (see ``FromAnotherTransaction``).
    ///
    /// Never inlined: inlined, it made the hit path of ``value(forKey:fromAnotherTransaction:)``
    /// longer (`scripts/perf-budget.sh` tells).
    @inline(never)
    func withTable<T>(
        key: String?, fromAnotherTransaction: FromAnotherTransaction = .refused,
        _ body: (PreferencesTable, _ reentered: Bool) throws -> T
    ) throws -> T {
        do {
            return try tableLock.withLock { reentered in try body(table, reentered) }
        } catch let held as StoreLock.HeldByThisThread {
            while fromAnotherTransaction == .answeredWithoutWaiting {
                if let result = try tableLock.withLockIfAvailable({ try body(table, false) }) { return result }
                if runsTransaction.load(ordering: .acquiring) { break }
                sched_yield()
            }
            throw DefaultsError.otherSuiteInTransaction(suite: name, transactionSuite: held.suite)
        }
    }
}
