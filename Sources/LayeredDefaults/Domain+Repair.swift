import Foundation

/// Recovery: the explicit, opt-in way out of a database file that cannot be opened.
extension Defaults.Domain {
    /// Moves the domain's unusable database file aside, so that the domain starts afresh, and
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
    ///     if let aside = try Defaults.Domain("com.example.app").repair() {
    ///         print("\(path) could not be read; it is kept at \(aside.path)")
    ///     }
    ///     defaults = try Defaults(suiteName: "com.example.app")
    /// }
    /// ```
    /// - Returns: the new path of the bad file, or nil when there was nothing to repair.
    /// - Throws: ``DefaultsError/unsafePath(path:)``,
    ///   ``DefaultsError/hardLinked(path:)``, ``DefaultsError/mountPoint(path:)`` or ``DefaultsError/permissionDenied(path:)``
    ///   (nothing touched),
    ///   ``DefaultsError/readOnly(suite:key:)`` or another storage error when the file cannot be moved or
    ///   the new domain cannot be created.
    @discardableResult
    public func repair() throws -> URL? {
        try DomainRepair.repair(name, in: configuration().storeRegistry()).map { URL(fileURLWithPath: $0) }
    }
}
