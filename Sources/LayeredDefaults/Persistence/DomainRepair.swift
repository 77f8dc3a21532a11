import Foundation

/// The work of ``Defaults/Domain/repair()``: a domain's unusable database file renamed aside,
/// with its companions, never copied over or deleted, and a new, empty domain created in its place.
enum DomainRepair {
    /// Moves the file of the domain `name` of `registry` aside when it exists and opening it fails because
    /// it is not a usable store of ours, then creates the domain anew.
    /// - Returns: the new path of the bad file, or nil when there was nothing to repair (in memory too).
    /// - Throws: what opening the file throws when it is not one of those failures (nothing is touched
    ///   then), ``DefaultsError/readOnly(suite:key:)`` or another storage error when the file cannot be
    ///   moved or the new domain cannot be created.
    static func repair(_ name: String, in registry: StoreRegistry) throws -> String? {
        guard let root = registry.root else { return nil }
        guard try needsRepair(name, registry: registry) else { return nil }

        // NB: a lock on the directory itself serializes repairs across processes; under it, check again,
        // so that a second repairer finds the first one's fresh file healthy and moves nothing.
        let directory = open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw failure(name, root.path, "open the store directory", errno) }
        defer { close(directory) }
        guard flock(directory, LOCK_EX) == 0 else { throw failure(name, root.path, "lock the store directory", errno) }
        defer { flock(directory, LOCK_UN) }
        guard try needsRepair(name, registry: registry) else { return nil }

        let path = registry.filePath(of: name) ?? StoreRegistry.path(of: name, in: root)
        let aside = try moveAside(path, suite: name)
        _ = try registry.store(named: name, create: true)
        return aside
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
