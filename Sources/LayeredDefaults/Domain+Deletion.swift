import Foundation

/// Deletion: the one way to delete a domain's files, and whether it may be deleted now.
extension Defaults.Domain {
    /// Whether a domain may be deleted whole now (``deletability(unchangedFor:now:)``).
    public enum Deletability: Sendable, Hashable {
        /// Every file of it is a regular file, none changed within the age asked, and no process has it
        /// open; also a domain that has no file (in memory too), whose deletion deletes nothing.
        case deletable
        /// The file at this URL, the database or a companion (``Defaults/Domain/files``), is not a regular
        /// file (a symbolic link, a directory): deleting would leave it behind, and it is never deleted.
        case notRegularFile(URL)
        /// One of its files changed less than the age asked before the time asked.
        case changedRecently
        /// A process has it open, this one (a store of it still alive) or another, and would go on
        /// reading and writing files that are gone.
        case open
    }

    /// Whether the domain may be deleted whole now (by ``delete(unchangedFor:now:)``): every file of it that exists is a
    /// regular file, none changed less than `age` before `now`, and no process has it open. Asked in that
    /// order: the first that fails is the answer. Opens no store and changes nothing.
    ///
    /// Whether another process has the domain open is told by SQLite's lock on its `-shm` file. When this
    /// process has a store of the domain open, the answer is ``Deletability/open`` without that file
    /// being touched (a look at it would drop the locks this process's store holds).
    ///
    /// A domain that has no file, and a domain in memory, are ``Deletability/deletable``: deleting them
    /// deletes nothing.
    ///
    /// ```swift
    /// let domain = try Defaults.Domain("test.run-42")
    /// if try domain.deletability(unchangedFor: .seconds(3600)) == .deletable { try domain.delete() }
    /// ```
    /// - Parameters:
    ///   - age: how long its files must have been unchanged; nil (the default) for any age.
    ///   - now: the time `age` counts back from; the default is the present.
    /// - Throws: ``DefaultsError/permissionDenied(path:)`` naming the domain's directory when this user may
    ///   not search it, or ``DefaultsError/fileSystemFailure(path:operation:code:)``: never an answer that
    ///   is not known.
    public func deletability(unchangedFor age: Duration? = nil, now: Date = Date()) throws(DefaultsError) -> Deletability {
        guard let path = file?.path else { return .deletable }
        if let odd = try DomainFiles.irregularFile(ofDatabase: path) {
            return .notRegularFile(URL(fileURLWithPath: odd, isDirectory: false))
        }
        if let age, now.timeIntervalSince(DomainFiles.lastChange(of: DomainFiles.existing(ofDatabase: path))) < age / .seconds(1)
        {
            return .changedRecently
        }
        // Nil: this process has it open, and its -shm was not looked at.
        let open = try StoreRegistry.unlessOpen(registeredPath(of: path)) { () throws(DefaultsError) -> Bool in
            DomainFiles.isOpen(path)
        }
        return (open ?? true) ? .open : .deletable
    }

    /// Deletes the domain's files: the `-wal`, `-shm` and `-journal` files that exist first, the database
    /// last (``files``), so that a deletion stopped midway never leaves a log without its database (which
    /// SQLite would apply to a new database of the same name). Only regular files are deleted, each as
    /// one directory entry; nothing else in the directory is touched.
    ///
    /// From its look at whether a process has the domain open until its last deletion, it holds
    /// exclusive locks on the bytes of the `-shm` and of the database that SQLite's connections lock (a
    /// `-shm` is made for this when there is none): a process that opens the domain meanwhile waits (up
    /// to its busy timeout, else it fails with an error), then finds its file deleted and looks again,
    /// making a new, empty one; none of its writes is acknowledged into a deleted file. In this process,
    /// a thread opening the domain makes the deletion fail (``DefaultsError/domainInUse(suite:)``) until
    /// its store is open. Not covered: another process's new domain, deleted between the creation of
    /// its file and its first read, may leave the `-wal` of its first commit, which the next open
    /// reports (``DefaultsError/corruptStore(path:reason:)``, until `prefs repair`).
    ///
    /// A `-wal` that holds commits not yet copied into the database (its writer killed, say) is copied in
    /// first (a checkpoint), so that a deletion killed between its unlinks leaves a database that reads as
    /// the domain did, or nothing; a later deletion finishes it.
    ///
    /// With `age`, a domain one of whose files changed less than `age` before `now` is left whole (the
    /// result is false): told while the deletion holds its locks, so that a change made since the caller
    /// looked (a question asked of a user) is seen, and none is made until the files are gone.
    ///
    /// A domain that has no file, and a domain in memory, are left as they are: deleting nothing is not an
    /// error (the result is false). The next commit of the domain makes a new, empty file.
    ///
    /// ```swift
    /// try Defaults.Domain("test.run-42").delete(unchangedFor: .seconds(3600))
    /// ```
    /// - Parameters:
    ///   - age: how long its files must have been unchanged; nil (the default) for any age.
    ///   - now: the time `age` counts back from; the default is the present.
    /// - Returns: true when a file was deleted; false when the domain had none, or one changed within `age`.
    /// - Throws: ``DefaultsError/domainInUse(suite:)`` when a process has the domain open (this one through a
    ///   store of it still alive, or another: as ``deletability(unchangedFor:now:)`` tells), and
    ///   ``DefaultsError/unsafePath(path:)`` naming a file of the domain that is not a regular file:
    ///   nothing is deleted then. ``DefaultsError/permissionDenied(path:)`` or
    ///   ``DefaultsError/fileSystemFailure(path:operation:code:)`` naming the directory when it cannot be
    ///   searched (nothing deleted), or naming the first file that could not be deleted (the files after
    ///   it, the database last, are left).
    @discardableResult
    public func delete(unchangedFor age: Duration? = nil, now: Date = Date()) throws(DefaultsError) -> Bool {
        guard let path = file?.path else { return false }
        if let odd = try DomainFiles.irregularFile(ofDatabase: path) { throw .unsafePath(path: odd) }
        let cutoff = age.map { now.addingTimeInterval(-($0 / .seconds(1))) }
        let deletion = try StoreRegistry.unlessOpen(registeredPath(of: path)) {
            () throws(DefaultsError) -> DomainFiles.Deletion in
            // NB: under the registry's lock, so that no store of this process opens meanwhile; another
            // process is kept out by the locks the deletion holds on the files (``DomainFiles/deleteUnlessOpen(database:unchangedSince:)``).
            try DomainFiles.deleteUnlessOpen(database: path, unchangedSince: cutoff)
        }
        switch deletion ?? .open {
        case .open: throw .domainInUse(suite: name)
        case .changedRecently: return false
        case .deleted(let any): return any
        }
    }

    /// The spelling of the database file `path` under which this process's stores are registered (the
    /// real path of its directory), or `path` itself.
    private func registeredPath(of path: String) -> String {
        configuration().storeRegistry().filePath(of: name) ?? path
    }
}
