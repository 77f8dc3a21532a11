import Foundation

/// The file-identity guard: whether the paths of a store's files still name the files its connection opened.
extension DomainStore {
    /// What the paths of this store's files name now, compared with what its connection opened.
    enum FilesAtPath: Equatable {
        /// The database, its `-wal` and its `-shm` (always, in memory).
        case opened
        /// The database's path names nothing: the file was deleted, or its directory renamed (then the
        /// store, which found it by identity, goes on with it, see ``StoreRegistry/store(named:create:)``).
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
        guard let found = FileIdentity(ofFileAt: path) else { return .databaseGone }
        // Nothing allocated while every file is the one opened: this runs in every write.
        var replaced: [String] = []
        if found != identity { replaced.append(path) }
        for companion in companions where FileIdentity(ofFileAt: companion.path) != companion.identity {
            replaced.append(companion.path)
        }
        return replaced.isEmpty ? .opened : .replaced(paths: replaced)
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
    /// A database path that names nothing is allowed: a root renamed while the store is open (its
    /// file is found by identity, see ``StoreRegistry/store(named:create:)``) looks the same as a deleted file.
    /// - Throws: ``DefaultsError/replacedFile(suite:path:)``.
    func refuseWritingIfReplaced() throws {
        if case .replaced(let paths) = filesAtPath { throw DefaultsError.replacedFile(suite: name, path: paths[0]) }
    }
}
