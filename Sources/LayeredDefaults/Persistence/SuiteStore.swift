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
    /// Why the domain cannot be written (e.g. an empty read-only file), or nil when it can.
    let unavailable: DefaultsError?

    // NB: the database is not Sendable; every use goes through `withDatabase`, which holds `databaseLock`.
    nonisolated(unsafe) private let database: Database
    private let databaseLock = Mutex(())
    private let view: Mutex<View>
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

    private init(name: String, path: String?, connection: Connection, signal: ChangeSignal, complete: Bool, unavailable: DefaultsError?) {
        self.name = name
        self.path = path
        self.unavailable = unavailable
        self.signal = signal
        self.database = Database(connection: connection, suite: name)
        self.view = Mutex(View(isComplete: complete, fingerprint: signal.fingerprint))
    }

    deinit {
        // NB: the connection closes before `signal` releases its descriptor of the -shm file (see ChangeSignal).
        database.connection.close()
    }

    /// Opens (creating when missing, mode 0600) the database of `name` at `path`.
    /// - Throws: ``DefaultsError/unsafePath(path:)`` for a symbolic link,
    ///   ``DefaultsError/corruptStore(path:reason:)`` for a file that is not a readable database,
    ///   ``DefaultsError/foreignDatabase(path:)``, ``DefaultsError/unsupportedSchemaVersion(path:found:supported:)``,
    ///   or a storage error. The file is never modified when it is not ours.
    static func open(name: String, path: String, busyTimeoutMilliseconds: Int32) throws -> SuiteStore {
        var status = stat()
        if lstat(path, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFLNK: throw DefaultsError.unsafePath(path: path)
            case S_IFREG: break
            default: throw DefaultsError.corruptStore(path: path, reason: "not a regular file")
            }
        } else {
            let descriptor = Foundation.open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if descriptor >= 0 {
                close(descriptor)
            } else if errno == EACCES || errno == EROFS {
                return inMemory(name: name, unavailable: .readOnly(suite: name, key: nil))
            } else if errno != EEXIST {
                throw DefaultsError.storageFailure(
                    suite: name, key: nil,
                    SQLiteError(code: .cantOpen, message: "cannot create the file: \(String(cString: strerror(errno)))"))
            }
        }
        let connection: Connection
        do {
            connection = try Connection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        } catch let error as SQLiteError {
            throw DefaultsError.corruptStore(path: path, reason: "cannot be opened: \(error.message)")
        }
        do {
            switch try Schema.prepare(connection, path: path, inMemory: false) {
            case .emptyReadOnly:
                connection.close()
                return inMemory(name: name, unavailable: .readOnly(suite: name, key: nil))
            case .ready:
                _ = try connection.text("PRAGMA synchronous = NORMAL")
                let signal = ChangeSignal.open(databasePath: path, connection: connection)
                return SuiteStore(name: name, path: path, connection: connection, signal: signal, complete: false, unavailable: nil)
            }
        } catch {
            connection.close()
            throw DefaultsError.storage(error, suite: name, key: nil)
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
        let cached: PreferenceValue?? = view.withLock { view in
            view.revalidate(signal.fingerprint)
            if let entry = view.entries[key] { return .some(entry) }
            return view.isComplete ? .some(nil) : nil
        }
        if let cached { return cached }
        return try withDatabase { database in
            let generation = view.withLock { view in
                view.revalidate(signal.fingerprint)
                return view.generation
            }
            let value: PreferenceValue?
            do {
                value = try database.value(forKey: key)
            } catch {
                throw DefaultsError.storage(error, suite: name, key: key)
            }
            view.withLock { view in
                if view.generation == generation { view.entries[key] = .some(value) }
            }
            return value
        }
    }

    /// Every stored value (the view is then complete: later misses need no query).
    /// - Returns: the values, and an error for each row that could not be decoded (skipped, untouched).
    /// - Throws: ``DefaultsError`` when the database cannot be read.
    func allValues() throws -> (values: [String: PreferenceValue], undecodable: [DefaultsError]) {
        try withDatabase { database in
            let generation = view.withLock { view in
                view.revalidate(signal.fingerprint)
                return view.generation
            }
            let result: (values: [String: PreferenceValue], undecodable: [DefaultsError])
            do {
                result = try database.allValues()
            } catch {
                throw DefaultsError.storage(error, suite: name, key: nil)
            }
            view.withLock { view in
                guard view.generation == generation else { return }
                view.entries = result.values.mapValues { .some($0) }
                view.isComplete = true
            }
            return result
        }
    }

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
        if let unavailable { throw unavailable }
        return try withDatabase { database in
            do {
                try database.begin()
            } catch {
                throw DefaultsError.storage(error, suite: name, key: key)
            }
            var transaction = DomainTransaction(database: database)
            let generation: Int
            let result: T
            do {
                // Holding the write lock, the view now matches the database (or is discarded).
                generation = view.withLock { view in
                    view.revalidate(signal.fingerprint)
                    return view.generation
                }
                result = try body(&transaction)
                try database.commit()
            } catch {
                database.rollback()
                throw DefaultsError.storage(error, suite: name, key: key)
            }
            let changes = transaction.changes
            let removedAll = transaction.removedAll
            view.withLock { view in
                let current = signal.fingerprint
                guard view.generation == generation else { return view.revalidate(current) }
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

    /// Runs `body` with the database, holding its lock.
    private func withDatabase<T>(_ body: (Database) throws -> T) throws -> T {
        var result: Result<T, any Error>?
        databaseLock.withLock { _ in result = Result { try body(database) } }
        return try result!.get()
    }
}
