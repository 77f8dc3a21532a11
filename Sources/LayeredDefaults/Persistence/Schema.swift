import CSQLite

/// The layout of a domain's database, and the check that a file really is one of ours.
///
/// ```sql
/// CREATE TABLE preferences (key TEXT PRIMARY KEY NOT NULL, type TEXT NOT NULL, value NOT NULL) WITHOUT ROWID;
/// CREATE TABLE migrations (name TEXT PRIMARY KEY NOT NULL, applied_at REAL NOT NULL) WITHOUT ROWID;
/// PRAGMA application_id = 0x4C445046; -- "LDPF"
/// PRAGMA user_version = 1;
/// ```
/// `type` is one of `string`, `integer`, `double`, `bool`, `date`, `data`, `array`, `dictionary`
/// (see ``StoredValue`` for the value column).
enum Schema {
    static let applicationID = 0x4C44_5046
    static let version = 1

    // NB: the type check is a chain of `=`, not `type IN (...)`: SQLite (3.40) evaluates an IN list of
    // more than two constants by building a temporary b-tree each time the statement runs, which made
    // every upsert 9x the instructions of a plain one. Files created before keep the IN form: correct,
    // only slower to write.
    static let create = """
        CREATE TABLE IF NOT EXISTS preferences (
            key TEXT PRIMARY KEY NOT NULL,
            type TEXT NOT NULL CHECK (type = 'string' OR type = 'integer' OR type = 'double' OR type = 'bool'
                OR type = 'date' OR type = 'data' OR type = 'array' OR type = 'dictionary'),
            value NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS migrations (
            name TEXT PRIMARY KEY NOT NULL,
            applied_at REAL NOT NULL
        ) WITHOUT ROWID;
        PRAGMA application_id = \(applicationID);
        PRAGMA user_version = \(version);
        """

    /// What opening found.
    enum State {
        /// One of ours, ready to use.
        case ready
        /// An empty file that is read-only: nothing stored, nothing can be.
        case emptyReadOnly
    }

    /// Checks that the database is ours (reading only) and creates the schema in a new, empty file.
    ///
    /// Reads the header before anything writes: garbage, a truncated file, a foreign schema or a newer
    /// version is refused with the file untouched.
    /// - Throws: ``DefaultsError/corruptStore(path:reason:)``, ``DefaultsError/foreignDatabase(path:)``,
    ///   ``DefaultsError/unsupportedSchemaVersion(path:found:supported:)``, or a ``SQLiteError``.
    static func prepare(_ connection: Connection, path: String, inMemory: Bool) throws -> State {
        do {
            if try isOurs(connection, path: path) { return .ready }
            if connection.isReadOnly { return .emptyReadOnly }
            if !inMemory { _ = try connection.text("PRAGMA journal_mode = WAL") }
            try connection.execute("BEGIN IMMEDIATE")
            do {
                // NB: check again under the write lock: another process may have created it meanwhile.
                if try !isOurs(connection, path: path) { try connection.execute(create) }
                try connection.execute("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
            return .ready
        } catch let error as SQLiteError where error.code.primary == .notADatabase || error.code.primary == .corrupt {
            throw DefaultsError.corruptStore(path: path, reason: error.code.primary == .corrupt ? "malformed" : "not a database")
        }
    }

    /// True when the file carries our application id; false when it is a new, empty database.
    private static func isOurs(_ connection: Connection, path: String) throws -> Bool {
        let applicationID = try connection.integer("PRAGMA application_id")
        if applicationID == Self.applicationID {
            let found = try connection.integer("PRAGMA user_version")
            guard found <= version else {
                throw DefaultsError.unsupportedSchemaVersion(path: path, found: found, supported: version)
            }
            return true
        }
        let objects = try connection.integer("SELECT count(*) FROM sqlite_schema")
        guard applicationID == 0, objects == 0 else { throw DefaultsError.foreignDatabase(path: path) }
        return false
    }
}
