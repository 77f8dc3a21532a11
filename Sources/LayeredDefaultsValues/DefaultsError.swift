import Foundation

/// Everything that can go wrong in a `Defaults` store, and in reading or checking its values: the one error
/// type of the package, shared by the values module (whose readers and checks throw its value and
/// document cases) and the store, so that one `catch` meets both.
///
/// Messages name the suite, the key, the file and the type involved, and say what to do next.
/// They never contain a stored or rejected value: preferences may hold personal data.
public enum DefaultsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The suite name cannot name a file in the store's directory.
    case invalidSuiteName(String)
    /// The key is empty, or holds more than 30 combining marks in a row (which no text of any language
    /// needs, and which Swift takes time quadratic in their number to hash).
    case invalidKey(suite: String)
    /// The value is not a property list (e.g. a custom struct, a `URL` outside `set(_:forKey:)` for
    /// URLs, or a dictionary with non-string keys). `type` is the offending Swift type.
    case notPropertyList(suite: String, key: String, type: String)
    /// The number does not fit in a signed 64-bit integer (e.g. a `UInt64` above `Int64.max`).
    case valueOutOfRange(suite: String, key: String, type: String)
    /// The file is not a readable SQLite database (garbage, truncated, a directory in its place).
    /// It has not been modified.
    case corruptStore(path: String, reason: String)
    /// The file is a SQLite database, but not one of ours. It has not been modified.
    case foreignDatabase(path: String)
    /// The file was written by a newer version of LayeredDefaults. It has not been modified.
    case unsupportedSchemaVersion(path: String, found: Int, supported: Int)
    /// The path (a database, or its `-wal`, `-shm` or `-journal` file) is a symbolic link or otherwise
    /// unsafe to open. Nothing was opened.
    case unsafePath(path: String)
    /// The path (a database, or its `-wal`, `-shm` or `-journal` file) has more than one name (a hard
    /// link, e.g. from `cp -al` or `ln`). SQLite finds a database's companion files by name, so two names
    /// of one database would each get a write-ahead log of their own, and a linked companion would be
    /// written through into the file it shares. Nothing was opened.
    case hardLinked(path: String)
    /// The path (a database, or its `-wal`, `-shm` or `-journal` file) is the root of a mount: a file
    /// bind-mounted onto it (`mount --bind`) is a second path to one file, and SQLite would keep a
    /// write-ahead log for each path, as for a hard link. Nothing was opened.
    case mountPoint(path: String)
    /// This user may not read the path, or search a directory on the way to it. A permission problem,
    /// not corruption: nothing was changed, and `Defaults.Domain.repair()` leaves it alone.
    case permissionDenied(path: String)
    /// The store cannot be written: the file or its directory is read-only.
    case readOnly(suite: String, key: String?)
    /// Another connection held the database locked longer than the busy timeout.
    case busy(suite: String, key: String?)
    /// The disk (or the user's quota, or the database's page limit) is full.
    case diskFull(suite: String, key: String?)
    /// A file of the store would grow past the largest size this process may write (`ulimit -f`,
    /// `RLIMIT_FSIZE`) or the file system allows.
    case fileTooLarge(suite: String, key: String?)
    /// A stored value could not be decoded: its row does not match its type tag.
    case undecodableValue(suite: String, key: String, type: String)
    /// The value found for a typed key cannot be read as the key's type (e.g. a `CodablePreference`
    /// whose type gained a non-optional property): the key reads as its default and the stored value
    /// is left as it is. A read reports it once per key name and `Defaults` instance; a typed
    /// `Defaults.update(_:_:)` throws it every time, changing nothing.
    case mismatchedValue(suite: String, key: String, type: String)
    /// A write through the store was made from inside the body of a transaction on the same store,
    /// which holds the write lock: use the `DomainTransaction` given to the body instead.
    case nestedTransaction(suite: String)
    /// A read or write of `suite` was refused, at once, because it was made from inside the body of a
    /// transaction of `transactionSuite`: a body reaches only its own domain (through its
    /// `DomainTransaction`, or reads through `Defaults` that its own domain answers). Use `suite` before
    /// or after the transaction. (SQLite gives no atomicity across files: a write to `suite` would not roll
    /// back with the transaction anyway.) Domains that cannot be written (the managed and system domains)
    /// may be read from a body.
    case otherSuiteInTransaction(suite: String, transactionSuite: String)
    /// A value could not be encoded for storage (e.g. a `CodablePreference` whose encoding throws).
    case unencodableValue(suite: String, key: String, type: String)
    /// The value's arrays and dictionaries nest deeper than `limit` levels
    /// (``PreferenceValue/maximumNestingDepth``). Nothing was written.
    case nestingTooDeep(suite: String, key: String, limit: Int)
    /// The value holds a date outside ``PreferenceValue/dateRange`` (years 1 to 9999; NaN and the
    /// infinities are outside it), which not every format the store uses can hold. Nothing was written.
    case dateOutOfRange(suite: String, key: String)
    /// The key's value is forced by the managed domain (an administrator's, under
    /// `Defaults.Configuration.systemDirectories`): no write through `Defaults` may change it.
    /// Nothing was written.
    case forced(suite: String, key: String)
    /// Any other storage failure: `code` is SQLite's extended result code (`SQLITE_IOERR_WRITE` is
    /// 778), `reason` SQLite's own account of it (which never contains values).
    case storageFailure(suite: String, key: String?, code: Int32, reason: String)
    /// The operating system refused an `operation` (e.g. "create the store directory") on `path` for
    /// another reason; `code` is its `errno`.
    case fileSystemFailure(path: String, operation: String, code: Int32)
    /// The file to import is not an XML or binary property list whose top level is a dictionary
    /// (`reason` says which). It has not been modified, and nothing was imported.
    case notPropertyListFile(path: String, reason: String)
    /// The property list to import holds values for `keys` that have no exact ``PreferenceValue`` (an
    /// integer outside `Int64`, a real too large for a `Double`, a date that is not a real date or lies
    /// outside ``PreferenceValue/dateRange``, `<data>` that is not base64, text naming a lone UTF-16
    /// surrogate, nesting deeper than ``PreferenceValue/maximumNestingDepth``, a binary property list's
    /// set, UID or null), or `keys` that are empty or held twice in one dictionary. Nothing was
    /// imported; the file has not been modified.
    case unmappableValues(path: String, keys: [String])

    /// `path`, the domain's database or its `-wal` or `-shm`, is no longer the file this process opened:
    /// another was moved over it (e.g. a backup put into place by hand), or the `-wal` or `-shm` was
    /// deleted (e.g. by a cleaner of "temporary" files). This process's connection still has the old
    /// files, so its writes would mix with other processes' or be lost. Nothing was written.
    case replacedFile(suite: String, path: String)
    /// The file given to `Defaults.Domain.restore(from:schema:)` is not a backup that can be
    /// restored (`reason` says why). Nothing was changed.
    case invalidBackup(path: String, reason: String)
    /// `Defaults.Domain.backup(to:replacing:)` found a file at its destination and was not
    /// asked to replace it. Nothing was written.
    case backupExists(path: String)
    /// The destination given to `Defaults.Domain.backup(to:replacing:)` is a database with
    /// a `-wal`, `-shm` or `-journal` beside it (in use, or left so by a crash), or is such a file of a
    /// database: replacing it would mix the backup with another database's log. Nothing was written.
    case backupDestinationInUse(path: String)
    /// The domain has no file (nothing to back up). Nothing was created.
    case noSuchDomain(suite: String)
    /// `Defaults.Domain.delete()` was asked to delete a domain that a process has open (this one, through
    /// a store still alive, or another): it would go on reading and writing files that are gone. Nothing
    /// was deleted.
    case domainInUse(suite: String)
    /// The key's history holds no entry at the point asked for (a step past its oldest entry, or no entry
    /// at all): there is nothing to revert to. Nothing was changed.
    case noHistoryEntry(suite: String, key: String)
    /// An entry of the key's history holds a previous value that does not match its type (the file was
    /// changed by something other than this library): the history cannot be listed or reverted, and was
    /// left untouched. Erasing the key (`erase(forKey:)`) forgets it.
    case undecodableHistoryEntry(suite: String, key: String)

    /// The domain's schema (or, for a key it leaves to the app, the typed key's own declaration) does not
    /// accept the value: not of the key's type, not holding its content, out of its range, too long, not
    /// one of its choices; `accepts` says what it does accept. Nothing was written.
    case valueNotAccepted(suite: String, key: String, accepts: String)
    /// The domain's schema does not declare the key and does not allow undeclared keys
    /// (`PreferenceSchema/allowsUndeclaredKeys`); `nearest` names the schema's keys nearest to it (a
    /// typo's likely meaning), if any. Nothing was written.
    case undeclaredKey(suite: String, key: String, nearest: [String])
    /// The value found for a key is not one its schema entry (or the typed key's own declaration)
    /// accepts (`accepts` says what it does): the key reads as its default and the stored value is left
    /// as it is. A read reports it once per key name and `Defaults` instance.
    case storedValueNotAccepted(suite: String, key: String, accepts: String)
    /// A schema's declaration does not hold together (`reason` says why; `key` names the key, if one).
    /// Nothing was installed.
    case invalidSchema(suite: String, key: String?, reason: String)
    /// The schema file at `path` cannot be trusted: it is not a schema of this format (`reason` says
    /// where it fails, never quoting it). It is not used, and was left untouched.
    case malformedSchema(path: String, reason: String)
    /// The drop-in file at `path` (`line`, when one line is at fault) cannot be applied: `reason` says why,
    /// naming the key, never quoting a value. Nothing of the file applies; the other files of its folder
    /// still do, and the file was left untouched.
    case invalidDropIn(path: String, line: Int?, reason: String)
    /// A file in a sync folder cannot be used: `reason` says why (torn, not JSON, a newer format, too
    /// large, another device's name), never quoting a value. Nothing of the file was merged, and it was
    /// left untouched.
    case invalidSyncFile(path: String, reason: String)
    /// The domain `suite` cannot sync as configured: `reason` says why (a device id that cannot name a
    /// file, an in-memory location without one, a domain of a system-wide layer, which never syncs).
    /// Nothing was opened, synced or changed.
    case syncNotPossible(suite: String, reason: String)

    /// The longest suite name, in characters (`SuiteName.maximumLength` of the store).
    package static let maximumSuiteNameLength = 128

    /// What makes a property list's value unmappable, for the messages that name its keys.
    package static let unmappableReasons =
        "an integer outside Int64, a real too large, an invalid date or one outside the years 1-9999, data that is not base64, a lone UTF-16 surrogate, nesting deeper than \(PreferenceValue.maximumNestingDepth) levels, a set, a UID or a null"

    /// The message: what went wrong, naming the suite, key, file or type, and what to do next; never a value.
    public var description: String {
        switch self {
        case .invalidSuiteName(let name):
            "Invalid suite name \(name.debugDescription): use 1-\(Self.maximumSuiteNameLength) letters, digits, '.', '-' or '_', not '.' or '..'"
        case .invalidKey(let suite):
            "Invalid key in suite '\(suite)': a key must not be empty, nor hold more than \(String.maximumCombiningRun) combining marks in a row"
        case .notPropertyList(let suite, let key, let type):
            "Cannot store a value of type \(type) for key '\(key)' in suite '\(suite)': not a property list (use string, number, bool, date, data, array or [String: ...] dictionary)"
        case .valueOutOfRange(let suite, let key, let type):
            "Cannot store a \(type) for key '\(key)' in suite '\(suite)': it does not fit in a signed 64-bit integer"
        case .corruptStore(let path, let reason):
            "The preferences file '\(path)' is not a readable database (\(reason)); it was left untouched: move it aside with `prefs repair <domain>` (Defaults.Domain.repair), then restore a backup, if you have one, with `prefs restore <domain> <file>` (Defaults.Domain.restore), never by copying a file over it"
        case .foreignDatabase(let path):
            "The file '\(path)' is a SQLite database but not a LayeredDefaults store; it was left untouched"
        case .unsupportedSchemaVersion(let path, let found, let supported):
            "The preferences file '\(path)' has schema version \(found), newer than this version supports (\(supported)); it was left untouched: upgrade LayeredDefaults"
        case .unsafePath(let path):
            "Refusing to open '\(path)': it is a symbolic link or not a regular file"
        case .hardLinked(let path):
            "Refusing to open '\(path)': it has more than one name (a hard link, e.g. from `cp -al` or `ln`), and SQLite would keep a separate write-ahead log for each name and lose writes; nothing was opened: give it one name (copy the file instead of linking it)"
        case .mountPoint(let path):
            "Refusing to open '\(path)': a file is mounted on it (a bind mount, e.g. `mount --bind`), which gives that file a second path, and SQLite would keep a separate write-ahead log for each path and lose writes; nothing was opened: use the file at its own path, or bind-mount its directory instead of the file"
        case .permissionDenied(let path):
            "Permission denied: this user may not read '\(path)' or search a directory on the way to it; it is not corrupt and was left untouched: fix its permissions or run as its owner"
        case .readOnly(let suite, let key):
            "Cannot write\(Self.keyPhrase(key)) in suite '\(suite)': the preferences file or its directory is read-only"
        case .busy(let suite, let key):
            "Cannot write\(Self.keyPhrase(key)) in suite '\(suite)': another process held the database locked past the busy timeout; try again"
        case .diskFull(let suite, let key):
            "Cannot write\(Self.keyPhrase(key)) in suite '\(suite)': the disk (or the user's disk quota) is full; nothing was changed"
        case .fileTooLarge(let suite, let key):
            "Cannot write\(Self.keyPhrase(key)) in suite '\(suite)': the file would grow past the largest size this process may write (`ulimit -f`) or the file system allows; nothing was changed"
        case .undecodableValue(let suite, let key, let type):
            "The stored value for key '\(key)' in suite '\(suite)' does not match its type '\(type)'; it reads as missing and was left untouched"
        case .mismatchedValue(let suite, let key, let type):
            "The value of key '\(key)' in suite '\(suite)' cannot be read as \(type); it reads as the key's default and was left untouched: write a new value to replace it, or remove it (`reset(_:)`, `prefs delete <domain> <key>`) to start from the default"
        case .nestedTransaction(let suite):
            "Cannot write to suite '\(suite)' from inside one of its own transactions: use the transaction's `write(_:forKey:)` instead"
        case .otherSuiteInTransaction(let suite, let transactionSuite):
            "Cannot use suite '\(suite)' from inside a transaction of suite '\(transactionSuite)': a transaction's body reaches only its own domain; use '\(suite)' before or after the transaction"
        case .unencodableValue(let suite, let key, let type):
            "Cannot encode the value of type \(type) for key '\(key)' in suite '\(suite)'; nothing was changed"
        case .nestingTooDeep(let suite, let key, let limit):
            "Cannot store the value for key '\(key)' in suite '\(suite)': its arrays and dictionaries nest more than \(limit) levels deep; nothing was changed"
        case .dateOutOfRange(let suite, let key):
            "Cannot store the value for key '\(key)' in suite '\(suite)': it holds a date outside the years 1 to 9999 (or not a number); nothing was changed"
        case .forced(let suite, let key):
            "Cannot write key '\(key)' in suite '\(suite)': its value is forced by the managed domain (layered-defaults/managed under $XDG_CONFIG_DIRS); nothing was changed"
        case .storageFailure(let suite, let key, _, let reason):
            "Storage failure\(Self.keyPhrase(key)) in suite '\(suite)': \(reason)"
        case .fileSystemFailure(let path, let operation, let code):
            "Cannot \(operation) '\(path)': \(String(cString: strerror(code)))"
        case .notPropertyListFile(let path, let reason):
            "Cannot import '\(path)': \(reason); it was left untouched and nothing was imported"
        case .replacedFile(let suite, let path):
            "Cannot write to suite '\(suite)': '\(path)' is no longer the file this process opened (deleted, or another moved over it); nothing was written: restart this process, and restore backups with `prefs restore <domain> <file>` (Defaults.Domain.restore), which is safe while the domain is in use"
        case .invalidBackup(let path, let reason):
            "Cannot restore from '\(path)': \(reason); nothing was changed: give a file made by `prefs backup` (Defaults.Domain.backup)"
        case .backupExists(let path):
            "Cannot back up to '\(path)': a file is already there; nothing was written: choose another path, or replace it with `prefs backup --replace` (Defaults.Domain.backup(to:replacing: true))"
        case .backupDestinationInUse(let path):
            "Cannot back up to '\(path)': it is a database with a -wal, -shm or -journal file beside it, or such a file of one, and replacing it would mix the backup with that database's log; nothing was written: choose another path"
        case .noSuchDomain(let suite):
            "The domain '\(suite)' does not exist (it has no file); nothing was created"
        case .domainInUse(let suite):
            "Cannot delete the domain '\(suite)': a process has it open (this one, or another), and would go on using files that are gone; nothing was deleted: close it, then delete it again"
        case .noHistoryEntry(let suite, let key):
            "The history of key '\(key)' in suite '\(suite)' holds no such entry; nothing was changed: list it with `prefs history \(suite) \(key)` (Defaults.history(forKey:))"
        case .undecodableHistoryEntry(let suite, let key):
            "An entry of the history of key '\(key)' in suite '\(suite)' does not match its type; the history was left untouched and cannot be listed or reverted: erase the key and its history with `prefs delete \(suite) \(key) --forget-history` (Defaults.erase(forKey:))"
        case .valueNotAccepted(let suite, let key, let accepts):
            "Cannot store the value for key '\(key)' in suite '\(suite)': the key accepts \(accepts); nothing was changed"
        case .undeclaredKey(let suite, let key, let nearest):
            "Cannot store a value for key '\(key)' in suite '\(suite)': its schema declares no such key\(nearest.isEmpty ? "" : " (did you mean \(nearest.map { "'\($0)'" }.joined(separator: " or "))?)"); nothing was changed: the keys it declares are listed by `prefs keys \(suite)`"
        case .storedValueNotAccepted(let suite, let key, let accepts):
            "The value of key '\(key)' in suite '\(suite)' is not one the key accepts (\(accepts)); it reads as the key's default and was left untouched: where it is the user's own, write a value the key accepts, or reset it (`reset(_:)`, `prefs reset`) to the default"
        case .invalidSchema(let suite, let key, let reason):
            "The schema of suite '\(suite)' is invalid\(Self.keyPhrase(key).isEmpty ? "" : " at" + Self.keyPhrase(key)): \(reason); nothing was installed"
        case .malformedSchema(let path, let reason):
            "The schema file '\(path)' is malformed (\(reason)); it is not used and was left untouched: reinstall it from its app (Domain.installSchema, `prefs install-schema <file>`)"
        case .invalidDropIn(let path, let line, let reason):
            "The drop-in file '\(path)'\(line.map { " (line \($0))" } ?? "") cannot be applied: \(reason); nothing of it applies (the folder's other files still do) and it was left untouched: correct it, or remove it"
        case .syncNotPossible(let suite, let reason):
            "Suite '\(suite)' cannot sync: \(reason); nothing was synced or changed"
        case .invalidSyncFile(let path, let reason):
            "The sync file '\(path)' is not used: \(reason); nothing of it was merged, and it was left untouched"
        case .unmappableValues(let path, let keys):
            "Cannot import '\(path)': the values of keys \(keys.map { "'\($0)'" }.joined(separator: ", ")) have no exact preference type, or the keys are empty or held twice (\(Self.unmappableReasons)); nothing was imported and the file was left untouched: exclude those keys to import the rest"
        }
    }

    private static func keyPhrase(_ key: String?) -> String {
        key.map { " key '\($0)'" } ?? ""
    }
}
