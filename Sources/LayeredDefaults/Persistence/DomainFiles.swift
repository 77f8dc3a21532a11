import Foundation

/// A domain's files on disk, `<name>.sqlite3` and its `-wal`, `-shm` and `-journal` companions, and the
/// one way to delete them: the work of ``Defaults/Domain/delete(unchangedFor:now:)`` and ``Defaults/Domain/deletability(unchangedFor:now:)``,
/// and of the backup staging's leftovers.
enum DomainFiles {
    /// The first file of the database at `path` that exists but is not a regular file (a symbolic link, a
    /// directory): the database itself, then its companions (``irregularCompanion(ofDatabase:)``); nil when
    /// there is none. ``delete(database:)`` would leave it, so the domain cannot be deleted whole.
    /// - Throws: ``DefaultsError/permissionDenied(path:)`` or ``DefaultsError/fileSystemFailure(path:operation:code:)``
    ///   naming the directory when whether the database exists cannot be known.
    static func irregularFile(ofDatabase path: String) throws(DefaultsError) -> String? {
        var status = stat()
        if lstat(path, &status) == 0 {
            if status.st_mode & S_IFMT != S_IFREG { return path }
        } else if errno != ENOENT {
            throw .fileSystem(errno, path: StoreRegistry.directory(of: path), operation: "search")
        }
        return irregularCompanion(ofDatabase: path)
    }

    /// The regular files of the database at `path` that exist, in the order they are deleted: the
    /// companions first, the database last, so that a deletion stopped midway never leaves a `-wal`
    /// without its database (which SQLite would apply to a new database of the same name).
    static func existing(ofDatabase path: String) -> [String] {
        (Location.companionSuffixes.map { path + $0 } + [path]).filter(isRegularFile)
    }

    /// The first companion (`-wal`, `-shm`, `-journal`) of the database at `path` that exists but is not a
    /// regular file (a symbolic link, a directory): ``delete(database:)`` leaves it, so the domain cannot
    /// be deleted whole.
    static func irregularCompanion(ofDatabase path: String) -> String? {
        Location.companionSuffixes.map { path + $0 }.first { companion in
            var status = stat()
            return lstat(companion, &status) == 0 && status.st_mode & S_IFMT != S_IFREG
        }
    }

    /// True when a process has the database at `path` open: SQLite (its unix VFS) holds a shared lock
    /// on the "DMS" byte of the `-shm` file for as long as a connection has the database open in WAL
    /// mode, the journal mode of every store.
    ///
    /// NB: only for a database this process does not have open: a POSIX lock (fcntl) is invisible to
    /// its own process, and closing this descriptor would drop the locks this process's connection holds
    /// on the file.
    ///
    /// NB: nor for a `-shm` with a second name (a hard link), which may be the `-shm` of a store this
    /// process has open under another name: it is not opened, and is taken for a process's. Opened
    /// without blocking: a FIFO put in its place since it was looked at would block forever.
    static func isOpen(_ path: String) -> Bool {
        var status = stat()
        if lstat(path + "-shm", &status) != 0 { return false }
        guard status.st_mode & S_IFMT == S_IFREG, status.st_nlink <= 1 else { return true }
        let descriptor = open(path + "-shm", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        // SQLite's WAL-index locks are bytes 120-127 of the -shm (WALINDEX_LOCK_OFFSET, eight locks),
        // the DMS byte the one after them (unix VFS: UNIX_SHM_DMS); any lock there is a connection's.
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 120
        lock.l_len = 9
        // A lock that cannot be asked about is taken for a process's: skipping is the safe mistake.
        guard fcntl(descriptor, F_GETLK, &lock) == 0 else { return true }
        return lock.l_type != Int16(F_UNLCK)
    }

    /// Deletes the files of the database at `path` (``delete(database:)``) unless a process has it open,
    /// holding from the look to the last deletion the locks an opener of it needs; nor when, with `cutoff`,
    /// one of its files changed after it (looked at under those locks).
    ///
    /// An exclusive lock (`F_SETLK`, never waiting) on SQLite's WAL-index lock bytes and DMS byte of the
    /// `-shm` (made when missing, deleted with the rest), and one on the database's SHARED, RESERVED and
    /// PENDING bytes: a connection holds a share of each for as long as it has the database open in WAL
    /// mode, so either lock failing is a process's connection; held, they keep any SQLite connection from
    /// reading the domain until its files are gone (it gets SQLITE_BUSY, and tries again: a store then
    /// finds its file deleted, see ``StoreRegistry/store(named:create:)``). A `-shm` this user may not
    /// write nor make is only looked at (``isOpen(_:)``), without a lock: the race is then open again, and
    /// the unlinks say why they fail when the directory is not writable either.
    ///
    /// NB: only for a database this process does not have open (see ``isOpen(_:)``): closing these
    /// descriptors drops every POSIX lock this process holds on the files.
    /// - Throws: as ``delete(database:)``.
    static func deleteUnlessOpen(database path: String, unchangedSince cutoff: Date? = nil) throws(DefaultsError) -> Deletion {
        let files = existing(ofDatabase: path)
        if files.isEmpty { return .deleted(false) }
        var locked: [HeldLock] = []
        defer { for lock in locked { close(lock.descriptor) } }
        var database = stat()
        let made = lstat(path, &database) == 0 ? database : nil
        switch exclusiveLock(path + "-shm", creating: true, like: made, start: 120, length: 9) {
        case .locked(let lock): locked.append(lock)
        case .held: return .open
        // NB: a `-shm` this user may not write, or not make: the look of ``isOpen(_:)`` alone, without a lock
        // (the unlinks then say why they fail, when they do).
        case .notWritable: if isOpen(path) { return .open }
        }
        if isRegularFile(path) {
            // 0x40000000 is SQLite's PENDING_BYTE; RESERVED and the 510 SHARED bytes follow it.
            switch exclusiveLock(path, creating: false, like: nil, start: 0x4000_0000, length: 512) {
            case .locked(let lock): locked.append(lock)
            case .held: return .open
            case .notWritable: break  // a read-only database: the `-shm`'s lock stands for both
            }
        }
        // Under the locks, so that no write is made after it: a change since the caller looked (a question
        // asked, minutes) is seen. Of the files that were there before: a `-shm` made here is new.
        if let cutoff, lastChange(of: files) > cutoff { return .changedRecently }
        if locked.count == 2, logHoldsFrames(path) {
            // NB: the -wal is deleted first; a deletion killed right after would leave a database without
            // the commits only the log held (a writer killed before its checkpoint). Copied in first.
            var before: [UInt8] = []
            foldLog(database: path) { before = walIndexHeader(locked[0].descriptor) }
            // NB: closing the fold's connection dropped the locks: a process may have opened the domain,
            // committed and gone meanwhile. Any commit (or recovery) rewrites the WAL-index header.
            afterFoldingForTesting.withLock { $0[path] }?()
            guard locked.allSatisfy(\.isHeldAgain), walIndexHeader(locked[0].descriptor) == before else { return .open }
        }
        beforeDeletingForTesting.withLock { $0[path] }?()
        try delete(database: path)
        return .deleted(true)
    }

    /// What ``deleteUnlessOpen(database:unchangedSince:)`` did.
    enum Deletion: Equatable {
        /// The files were deleted: true when there was one.
        case deleted(Bool)
        /// Nothing was deleted: a process has the domain open.
        case open
        /// Nothing was deleted: a file changed after the time asked.
        case changedRecently
    }

    /// True when the database at `path` is not empty and its `-wal` holds a frame (it is longer than its
    /// 32-byte header): commits the database may not hold yet.
    private static func logHoldsFrames(_ path: String) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_size > 0 else { return false }
        return lstat(path + "-wal", &status) == 0 && status.st_mode & S_IFMT == S_IFREG && status.st_size > 32
    }

    /// Copies the frames of the database's `-wal` into it (a `PASSIVE` checkpoint), through a connection of
    /// this process's own, closed without deleting anything. A file SQLite cannot read is left as it is.
    ///
    /// NB: closing that connection drops every POSIX lock this process holds on the files, the deletion's
    /// included: the caller takes them again (``HeldLock/isHeldAgain``) before it deletes anything.
    /// `beforeClosing` runs once the checkpoint is done, before the connection closes (the last moment the
    /// deletion's locks keep every other process out).
    private static func foldLog(database path: String, beforeClosing: () -> Void) {
        guard let connection = try? Connection(path: path, busyTimeoutMilliseconds: 0) else { return beforeClosing() }
        connection.setCheckpointOnClose(false)
        // A checkpoint of a connection that has read nothing does nothing: it has not opened the log.
        if (try? connection.execute("SELECT count(*) FROM sqlite_master")) != nil { _ = connection.checkpoint() }
        beforeClosing()
        connection.close()
    }

    /// The first copy of the WAL-index header (its first 48 bytes) in the `-shm` open at `descriptor`:
    /// every commit, and every recovery of the index, rewrites it. Read with `pread`, through the
    /// deletion's own descriptor (no other is opened).
    private static func walIndexHeader(_ descriptor: Int32) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 48)
        let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 48, 0) }
        return read == 48 ? bytes : []
    }

    /// An exclusive lock held through a descriptor of the deletion's own.
    private struct HeldLock {
        /// The descriptor, closed once the files are deleted.
        let descriptor: Int32
        /// The path of the file it was opened at.
        let path: String
        /// The first byte locked.
        let start: off_t
        /// How many bytes are locked.
        let length: off_t

        /// Takes the lock again (after a close in this process dropped it), and tells whether it holds it
        /// on the file still at its path: false when a process took a lock there meanwhile, or the file
        /// was deleted or replaced (the last connection of a process that opened and closed it meanwhile).
        var isHeldAgain: Bool {
            var lock = flock()
            lock.l_type = Int16(F_WRLCK)
            lock.l_whence = Int16(SEEK_SET)
            lock.l_start = start
            lock.l_len = length
            var status = stat()
            guard fcntl(descriptor, F_SETLK, &lock) == 0, fstat(descriptor, &status) == 0, status.st_nlink == 1 else {
                return false
            }
            return FileIdentity(ofFileAt: path) == FileIdentity(status)
        }
    }

    /// What ``exclusiveLock(_:creating:start:length:)`` got.
    private enum ExclusiveLock {
        /// The lock, held through this descriptor until it is closed.
        case locked(HeldLock)
        /// A process holds a lock there; or the file has a second name (a hard link: maybe an open
        /// domain's file under another name), is not a regular file, or cannot be opened for another
        /// reason: taken for a process's, as not deleting is the safe mistake.
        case held
        /// This user may not open the file for writing, nor make it (`EACCES`, `EPERM`, `EROFS`).
        case notWritable
    }

    /// An exclusive lock on the bytes `start..<start + length` of the regular file at `path` (made, mode
    /// 0600, with `creating`), asked without waiting.
    /// A file made here (`creating`, none there) is given the mode of `database` and, for root, its owner, as
    /// SQLite gives a `-shm` it makes: left behind by a refused deletion, it is the one SQLite would have made
    /// (a root-owned 0600 file in a user's directory would make the domain unreadable to its owner).
    private static func exclusiveLock(
        _ path: String, creating: Bool, like database: stat?, start: off_t, length: off_t
    ) -> ExclusiveLock {
        var status = stat()
        // NB: a second name is seen before the file is opened: closing a descriptor of an open domain's
        // file would drop this process's locks on it.
        let existed = lstat(path, &status) == 0
        if existed, status.st_mode & S_IFMT != S_IFREG || status.st_nlink > 1 { return .held }
        let mode = database.map { $0.st_mode & 0o777 } ?? 0o600
        // Without blocking: a FIFO put in its place would block forever.
        let descriptor = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | (creating ? O_CREAT : 0), mode)
        guard descriptor >= 0 else { return [EACCES, EPERM, EROFS].contains(errno) ? .notWritable : .held }
        if creating, !existed, let database {
            _ = fchmod(descriptor, mode)  // whatever the umask
            if geteuid() == 0 { _ = fchown(descriptor, database.st_uid, database.st_gid) }
        }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = start
        lock.l_len = length
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_nlink == 1,
            fcntl(descriptor, F_SETLK, &lock) == 0
        else {
            close(descriptor)
            return .held
        }
        return .locked(HeldLock(descriptor: descriptor, path: path, start: start, length: length))
    }

    /// The hooks ``deleteUnlessOpen(database:)`` runs holding its locks, before deleting, by the database's
    /// path: a seam for tests of an opener racing a deletion.
    static let beforeDeletingForTesting = Lock<[String: @Sendable () -> Void]>([:])
    /// Run between the fold's close (which drops the deletion's locks) and taking them again, by the
    /// database's path: a seam for tests of a process that commits in that gap.
    static let afterFoldingForTesting = Lock<[String: @Sendable () -> Void]>([:])

    /// Deletes the files of the database at `path`, companions first (see ``existing(ofDatabase:)``).
    /// - Throws: ``DefaultsError/fileSystemFailure(path:operation:code:)`` naming the first file that
    ///   could not be deleted; the files after it (the database last) are left.
    static func delete(database path: String) throws(DefaultsError) {
        // NB: unlink, not FileManager.removeItem: it removes exactly one directory entry, never a tree.
        for file in existing(ofDatabase: path) where unlink(file) != 0 && errno != ENOENT {
            throw .fileSystem(errno, path: file, operation: "delete")
        }
    }

    /// The latest modification time of `files`, or the distant past when none exists.
    static func lastChange(of files: [String]) -> Date {
        files.compactMap { file -> Date? in
            var status = stat()
            guard lstat(file, &status) == 0 else { return nil }
            return Date(timeIntervalSince1970: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9)
        }.max() ?? .distantPast
    }

    /// True when `path` names a regular file (a symbolic link is not followed).
    static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// True when `path` names a directory, a symbolic link to one included (a drop-in folder).
    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// False when nothing is at `path` nor can be (no entry, or a component that is not a directory): one
    /// `lstat`. True otherwise, also when it cannot be known (the entries under it are then looked at, and
    /// their errors reported, as ``entryExists(_:in:)`` reports them).
    static func mayHoldEntries(_ path: String) -> Bool {
        var status = stat()
        if lstat(path, &status) == 0 { return true }
        return errno != ENOENT && errno != ENOTDIR
    }

    /// Whether the system directory `base` holds the entry at `path` (a layer's file, a schema file, in a
    /// directory of ours inside it): the one rule of the store's system layers and of every schema lookup.
    ///
    /// True when there is an entry at `path`, of any kind (`lstat`: a symbolic link is not followed, so
    /// that opening it reports it). False when there is none (`ENOENT`, or `ENOTDIR`: something on the
    /// way is not a directory), and when `base` itself cannot name a directory this user may enter (a
    /// symbolic link to itself, a component over 255 bytes, a regular file, a FIFO, a directory it may
    /// not search): an entry of `$XDG_CONFIG_DIRS` that names nothing holds no layer, and prints nothing.
    /// Only a directory of ours inside an entry the user may enter can fail closed.
    /// - Throws: ``DefaultsError/permissionDenied(path:)`` when a directory between `base` and the entry
    ///   may not be searched, or another file-system error (a loop in a directory of ours): whether the
    ///   entry exists is then unknown, never taken for "absent".
    static func entryExists(_ path: String, in base: String) throws(DefaultsError) -> Bool {
        var status = stat()
        // NB: one lstat in the common cases (a layer there, or none): the base is looked at only when that fails otherwise.
        if lstat(path, &status) == 0 { return true }
        let code = errno
        if code == ENOENT || code == ENOTDIR { return false }
        guard stat(base, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, access(base, X_OK) == 0 else { return false }
        throw .fileSystem(code, path: path, operation: "lstat")
    }
}
