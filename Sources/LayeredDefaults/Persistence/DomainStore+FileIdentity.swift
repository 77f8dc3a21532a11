import Foundation
import Synchronization

/// The file-identity guard: whether the paths of a store's files still name the files its connection opened.
extension DomainStore {
    /// What the paths of this store's files name now, compared with what its connection opened.
    enum FilesAtPath: Equatable {
        /// The database, its `-wal` and its `-shm` (always, in memory).
        case opened
        /// The database's path names nothing, and the file opened still has a name: its directory was
        /// renamed (the store, which found it by identity, goes on with it, see ``StoreRegistry/store(named:create:)``).
        /// A file deleted (no name left) is ``replaced(paths:)``.
        case databaseGone
        /// Each of `paths` (the database's, its `-wal`'s, its `-shm`'s, in that order) names another file
        /// than was opened, or names nothing while the database is there: deleted, or replaced (`mv` over it).
        case replaced(paths: [String])
    }

    /// What the paths of this store's files name now (three `lstat`s).
    ///
    /// NB: SQLite keeps the files it opened, whatever their paths name later. A commit into a `-wal`
    /// other processes no longer find at its path, or one made through a WAL index (`-shm`) other
    /// processes no longer share, writes over their commits or is lost, without an error anywhere; a
    /// checkpoint through an index not shared copies frames that may since hold other pages.
    var filesAtPath: FilesAtPath {
        guard let path, let identity else { return .opened }
        guard let found = FileIdentity(ofFileAt: path) else { return isDeleted ? .replaced(paths: [path]) : .databaseGone }
        // Nothing allocated while every file is the one opened: this runs in every write.
        var replaced: [String] = []
        if found != identity { replaced.append(path) }
        for companion in companions where FileIdentity(ofFileAt: companion.path) != companion.identity {
            replaced.append(companion.path)
        }
        return replaced.isEmpty ? .opened : .replaced(paths: replaced)
    }

    /// True when the database file SQLite opened has no name left (deleted; `fstat` of its descriptor); false
    /// while it has one, or when the descriptor is not known (another VFS: a renamed root is then assumed).
    private var isDeleted: Bool {
        guard let descriptor else { return false }
        var status = stat()
        return fstat(descriptor, &status) == 0 && status.st_nlink == 0
    }

    /// Thrown while opening when the file SQLite opened is not the one looked at, or is no longer at its
    /// path (deleted, or another put there): ``StoreRegistry/store(named:create:)`` looks at the path again.
    struct FileMovedWhileOpening: Error {}

    /// Throws ``FileMovedWhileOpening`` unless the database file `connection` has open is the one whose
    /// `lstat` status is `status` and `path` still names it (by device and inode).
    ///
    /// NB: the file's own descriptor (``Connection/mainFileDescriptor``) is asked, not only the path: a
    /// file deleted and another made at its path, or the path looked at before another was put there,
    /// would pass a look by path. A file held open keeps its inode number, so the answer is never an
    /// older file's (no ABA). Under another VFS only the path is looked at.
    static func refuseUnlessOpened(_ status: stat, at path: String, by connection: Connection) throws {
        let identity = FileIdentity(status)
        if let descriptor = connection.mainFileDescriptor {
            var opened = stat()
            guard fstat(descriptor, &opened) == 0, FileIdentity(opened) == identity, opened.st_nlink > 0 else {
                throw FileMovedWhileOpening()
            }
        }
        guard FileIdentity(ofFileAt: path) == identity else { throw FileMovedWhileOpening() }
    }

    /// The hooks run while a file is opened, by its path (``runOpeningHookForTesting(_:)``).
    static let openingHooksForTesting = Lock<[String: @Sendable () -> Void]>([:])
    /// True while ``openingHooksForTesting`` holds a hook: the one look an open makes when none does.
    static let hasOpeningHooksForTesting = Atomic<Bool>(false)

    /// Runs the hook a test set for `path` (``setOpeningHookForTesting(_:at:)``), between SQLite's opening
    /// of the file and its first read: a seam for tests of a file deleted while it is opened.
    static func runOpeningHookForTesting(_ path: String) {
        guard hasOpeningHooksForTesting.load(ordering: .relaxed) else { return }
        openingHooksForTesting.withLock { $0[path] }?()
    }

    /// Sets (or with nil removes) the hook run while the file at `path` is opened (see ``runOpeningHookForTesting(_:)``).
    static func setOpeningHookForTesting(_ hook: (@Sendable () -> Void)?, at path: String) {
        openingHooksForTesting.withLock { hooks in
            hooks[path] = hook
            hasOpeningHooksForTesting.store(!hooks.isEmpty, ordering: .relaxed)
        }
    }

    /// Whether a checkpoint may copy this store's log into its database, its files at their paths being
    /// `files` (``filesAtPath``): while its three files are the ones opened; or, its `-wal` alone deleted or replaced, while no other process has committed
    /// since this store's last commit (the WAL index, still shared, is as that commit left it), so the
    /// index names frames of this store's log, unlinked, alone: copying them puts what this store
    /// acknowledged into the database every process shares.
    ///
    /// NB: never with a `-shm` not this store's: the other processes' index is another, and they may
    /// have written the database since. Nor in a renamed root (``FilesAtPath/databaseGone``), whose
    /// log goes with it, to the next process that opens it there; SQLite's own checkpoint at 1,000
    /// frames still bounds the log.
    func mayCheckpoint(_ files: FilesAtPath) -> Bool {
        switch files {
        case .opened: true
        case .databaseGone: false
        case .replaced(let paths):
            paths == [path! + "-wal"] && headerAfterOwnCommit.withLock { $0 } == signal.fingerprint
        }
    }

    /// True while ``path`` names this store's own file (by device and inode); false once that file was
    /// deleted or another file was put at its path (`mv` or `cp` over it). Always true in memory.
    var isFileAtPath: Bool {
        guard let path, let identity else { return true }
        return FileIdentity(ofFileAt: path) == identity
    }

    /// Refuses to write when the database's path, or its `-wal`'s or `-shm`'s, names another file than
    /// this store's connection opened, or its `-wal` or `-shm` was deleted (see ``filesAtPath``): its
    /// commits would mix with another file's, or be lost.
    ///
    /// A database path that names nothing is allowed while the file opened still has a name: a root
    /// renamed while the store is open (its file is found by identity, see ``StoreRegistry/store(named:create:)``).
    /// A database deleted is refused: its commits would be lost with it.
    /// - Throws: ``DefaultsError/replacedFile(suite:path:)``.
    func refuseWritingIfReplaced() throws {
        if case .replaced(let paths) = filesAtPath { throw DefaultsError.replacedFile(suite: name, path: paths[0]) }
    }
}
