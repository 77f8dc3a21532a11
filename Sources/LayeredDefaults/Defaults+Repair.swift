import Foundation

/// Recovery: the explicit, opt-in way out of a database file that cannot be opened.
extension Defaults {
    /// Moves the unusable database file of `suiteName` aside, so that the domain starts afresh, and
    /// returns where the file went.
    ///
    /// Opening a store never does this on its own: a file that is not a readable store of ours
    /// (``DefaultsError/corruptStore(path:reason:)``, ``DefaultsError/foreignDatabase(path:)``,
    /// ``DefaultsError/unsupportedSchemaVersion(path:found:supported:)``) is refused and left untouched
    /// until someone calls this. The file is renamed, never copied over or deleted, to
    /// `<suite>.sqlite3.corrupt-<UTC time>` in the same directory (its `-wal`, `-shm` and `-journal`
    /// files, if any, go along with the same new name plus their suffix, so `sqlite3` can still open the
    /// set), and a new, empty domain is created in its place.
    ///
    /// A healthy file, a missing one, an in-memory location and a file open in this process are left
    /// alone (the result is nil). A symbolic link, a file with a second name (a hard link), a companion
    /// that is not a regular file and a file this user may not read are refused with their error, and
    /// neither they nor what they point to are touched.
    /// Concurrent repairs of one domain, in any process, are serialized: only the first moves anything.
    ///
    /// ```swift
    /// do {
    ///     defaults = try Defaults(suiteName: "com.example.app")
    /// } catch DefaultsError.corruptStore(let path, _) {
    ///     if let aside = try Defaults.repair(suiteName: "com.example.app") {
    ///         print("\(path) could not be read; it is kept at \(aside.path)")
    ///     }
    ///     defaults = try Defaults(suiteName: "com.example.app")
    /// }
    /// ```
    /// - Parameters:
    ///   - suiteName: the domain whose file to repair.
    ///   - location: where the domain lives; the default resolves as for ``init(suiteName:configuration:)``.
    /// - Returns: the new path of the bad file, or nil when there was nothing to repair.
    /// - Throws: ``DefaultsError/invalidSuiteName(_:)`` (nothing touched), ``DefaultsError/unsafePath(path:)``,
    ///   ``DefaultsError/hardLinked(path:)``, ``DefaultsError/mountPoint(path:)`` or ``DefaultsError/permissionDenied(path:)``
    ///   (nothing touched),
    ///   ``DefaultsError/readOnly(suite:key:)`` or another storage error when the file cannot be moved or
    ///   the new domain cannot be created.
    @discardableResult
    public static func repair(suiteName: String, location: Location = .default) throws -> URL? {
        try SuiteName.validate(suiteName)
        let registry = StoreRegistry(configuration: Configuration(location: location))
        guard let root = registry.root else { return nil }
        guard try needsRepair(suiteName, registry: registry) else { return nil }

        // NB: a lock on the directory itself serializes repairs across processes; under it, check again,
        // so that a second repairer finds the first one's fresh file healthy and moves nothing.
        let directory = Foundation.open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw failure(suiteName, root.path, "open the store directory", errno) }
        defer { close(directory) }
        guard flock(directory, LOCK_EX) == 0 else { throw failure(suiteName, root.path, "lock the store directory", errno) }
        defer { flock(directory, LOCK_UN) }
        guard try needsRepair(suiteName, registry: registry) else { return nil }

        let path = registry.filePath(of: suiteName) ?? StoreRegistry.path(of: suiteName, in: root)
        let aside = try moveAside(path, suite: suiteName)
        _ = try registry.store(named: suiteName, create: true)
        return URL(fileURLWithPath: aside)
    }

    /// True when the file of `name` exists and opening it fails because it is not a usable store of ours.
    private static func needsRepair(_ name: String, registry: StoreRegistry) throws -> Bool {
        do {
            _ = try registry.store(named: name, create: false)
            return false
        } catch let error as DefaultsError {
            switch error {
            case .corruptStore, .foreignDatabase, .unsupportedSchemaVersion: return true
            default: throw error
            }
        }
    }

    /// Renames `path` (and its companion files) to a new, unused timestamped name next to it.
    private static func moveAside(_ path: String, suite: String) throws -> String {
        let stamp = path + ".corrupt-" + DateFormatter.posixUTC("yyyyMMdd'T'HHmmss'Z'").string(from: Date())
        var aside = stamp
        var status = stat()
        var attempt = 1
        let companions = [""] + Location.companionSuffixes
        while companions.contains(where: { lstat(aside + $0, &status) == 0 }) {
            attempt += 1
            aside = "\(stamp)-\(attempt)"
        }
        guard rename(path, aside) == 0 else { throw failure(suite, path, "move aside", errno) }
        for suffix in companions.dropFirst() where lstat(path + suffix, &status) == 0 {
            guard rename(path + suffix, aside + suffix) == 0 else {
                throw failure(suite, path + suffix, "move aside (its database file was moved to '\(aside)')", errno)
            }
        }
        return aside
    }

    /// The error of a system call doing `operation` on `path` that failed with `code`: a permission
    /// problem here is the directory's, which cannot be written.
    private static func failure(_ suite: String, _ path: String, _ operation: String, _ code: Int32) -> DefaultsError {
        if code == EACCES || code == EPERM { return .readOnly(suite: suite, key: nil) }
        return .system(code, path: path, operation: operation, suite: suite)
    }
}
