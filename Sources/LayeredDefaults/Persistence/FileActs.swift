import Foundation

/// The acts that make, replace, lock and read the package's own files, each written once: a file is
/// created exclusively and a directory with its mode whatever the umask, a file is replaced by
/// write-sync-rename, nothing is followed through a symbolic link it should not be. The store, the
/// schema installer, backup and `prefs` make their files through these; a schema file is removed by
/// ``remove(_:)``, and a domain's files are deleted through ``DomainFiles/delete(database:)``.
package enum FileActs {
    /// An act that failed: the `errno` of its system call that failed, and the path that call named.
    package struct Failure: Error {
        /// The `errno` of the call that failed.
        package let code: Int32
        /// The path the failed call named: the directory of ``createDirectories(_:mode:)`` that could
        /// not be made, the temporary file of ``replace(_:with:mode:)`` when it could not be created, else
        /// the path the act was given.
        let path: String
    }

    /// Creates the empty file at `path` with `mode` whatever the umask, only when nothing is there
    /// (`O_CREAT | O_EXCL | O_NOFOLLOW`: not even a symbolic link is followed).
    /// - Returns: true when this call created the file, false when something was there already.
    /// - Throws: ``Failure`` for any other failure (`EACCES`, `EROFS`, `ENOENT`, ...); nothing is created.
    @discardableResult
    static func createExclusively(_ path: String, mode: mode_t) throws(Failure) -> Bool {
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            if errno == EEXIST { return false }
            throw Failure(code: errno, path: path)
        }
        // NB: the umask may have taken bits off the mode (0400 of 0600 under umask 0277). Closing this
        // descriptor drops no lock: the file is new, so no connection of this process has it open.
        fchmod(descriptor, mode)
        close(descriptor)
        return true
    }

    /// Creates the directory at `path` and its missing parents, each given `mode` whatever the umask (nil:
    /// what the umask leaves of 0777, as `mkdir -p` does). What exists is left as it is.
    /// - Throws: ``Failure`` naming the first directory that could not be made (one another process made
    ///   meanwhile is no failure); the ones above it stay.
    package static func createDirectories(_ path: String, mode: mode_t?) throws(Failure) {
        var missing: [String] = []
        var path = path
        while !path.isEmpty, path != "/", access(path, F_OK) != 0 {
            missing.append(path)
            path = (path as NSString).deletingLastPathComponent
        }
        for directory in missing.reversed() {
            if mkdir(directory, mode ?? 0o777) != 0 {
                guard errno == EEXIST else { throw Failure(code: errno, path: directory) }
            } else if let mode {
                // NB: mkdir's mode is cut by the umask, chmod's is not: 077 would leave a system directory
                // 0700, unreadable by the users it is for, and 0177 one that not even its owner can search.
                chmod(directory, mode)
            }
        }
    }

    /// Replaces the file at `path` with `data`, atomically and durably: the data goes to a new file
    /// beside it (`.<name>.<UUID>`), created with `mode` whatever the umask, flushed to disk, renamed over
    /// `path`, and the directory flushed. A reader sees the old file or the new one, never a part, and the
    /// new one never has more than `mode`.
    ///
    /// `temporaryName`, when given, names the new file instead (a sync folder's, which its engine ignores);
    /// `durable` false skips both flushes, for a file made again from the database after a crash (a reader
    /// then sees the old file, the new one, or after a crash an empty or torn one it refuses, never a part
    /// it takes for whole).
    /// - Throws: ``Failure`` of the step that failed; the new file is removed and `path` is unchanged.
    package static func replace(
        _ path: String, with data: Data, mode: mode_t, temporaryName: String? = nil, durable: Bool = true
    ) throws(Failure) {
        let file = URL(fileURLWithPath: path)
        let temporary = file.deletingLastPathComponent().appendingPathComponent(
            temporaryName ?? ".\(file.lastPathComponent).\(UUID().uuidString)"
        ).path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw Failure(code: errno, path: temporary) }
        var failure: Int32?
        // The umask may have taken bits off the mode (0400 of 0600 under umask 0277, none under
        // 0777); this only gives them back, so the file never has more than `mode` at any moment.
        if fchmod(descriptor, mode) != 0 { failure = errno }
        if failure == nil { failure = writeAll(data, to: descriptor) }
        if failure == nil, durable, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure == nil {
            if durable {
                do throws(Failure) { try rename(temporary, over: path) } catch { failure = error.code }
            } else if Foundation.rename(temporary, path) != 0 {
                failure = errno
            }
        }
        if let failure {
            unlink(temporary)
            throw Failure(code: failure, path: path)
        }
    }

    /// Renames `source` over `destination`, then flushes the directory of `destination`, so that the
    /// rename outlasts a crash.
    /// - Throws: ``Failure`` of the rename; nothing has changed then.
    static func rename(_ source: String, over destination: String) throws(Failure) {
        guard Foundation.rename(source, destination) == 0 else { throw Failure(code: errno, path: destination) }
        let directory = open(
            URL(fileURLWithPath: destination).deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    /// Removes the file at `path` (a symbolic link itself, never what it points at), then flushes its
    /// directory, so that the removal outlasts a crash.
    /// - Returns: true when this call removed it, false when nothing was there.
    /// - Throws: ``Failure`` of the removal (`EACCES`, `EISDIR`, ...); nothing has changed then.
    @discardableResult
    static func remove(_ path: String) throws(Failure) -> Bool {
        guard unlink(path) == 0 else {
            if errno == ENOENT { return false }
            throw Failure(code: errno, path: path)
        }
        let directory = open(URL(fileURLWithPath: path).deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
        return true
    }

    /// Writes all of `data` to `descriptor`, going on after a partial write or a signal.
    /// - Returns: the `errno` of the write that failed (`EPIPE`, `ENOSPC`, `EBADF`, `EFBIG`, ...), nil
    ///   when everything was written.
    package static func writeAll(_ data: Data, to descriptor: Int32) -> Int32? {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    guard errno == EINTR else { return errno }
                } else {
                    offset += written
                }
            }
            return nil
        }
    }

    /// Runs `body` holding an exclusive `flock` on the lock file at `path`, created when missing and given
    /// `mode` whatever the umask; every process that locks the file this way waits for the others.
    /// - Throws: `failure` of the ``Failure`` when the file cannot be opened or locked, or what `body`
    ///   throws.
    static func withExclusiveLock<T, E: Error>(
        onFile path: String, mode: mode_t, failure: (Failure) -> E, _ body: () throws(E) -> T
    ) throws(E) -> T {
        let lock = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, mode)
        guard lock >= 0 else { throw failure(Failure(code: errno, path: path)) }
        defer { close(lock) }
        fchmod(lock, mode)
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw failure(Failure(code: errno, path: path)) }
        }
        return try body()
    }

    /// The contents of the regular file at `path`, at most `limit` bytes and one more (so that the caller
    /// can tell a longer file), or nil when there is none.
    /// - Parameter followingLinks: true to read the file a symbolic link names (a drop-in file), false
    ///   (the default) to refuse the link.
    /// - Throws: ``DefaultsError/unsafePath(path:)`` for a symbolic link (a loop of them, when followed) or a
    ///   file that is not regular (a FIFO is not waited on), or the error of the system call that failed.
    static func contents(ofRegularFile path: String, limit: Int, followingLinks: Bool = false) throws(DefaultsError) -> Data? {
        let descriptor = open(path, O_RDONLY | (followingLinks ? 0 : O_NOFOLLOW) | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw .unsafePath(path: path) }
            throw .fileSystem(errno, path: path, operation: "open")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .fileSystem(errno, path: path, operation: "read") }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .unsafePath(path: path) }
        // Read at most one byte past the limit, whatever the file's size says.
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        while count < bytes.count {
            let read = bytes.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if read < 0, errno == EINTR { continue }
            guard read >= 0 else { throw .fileSystem(errno, path: path, operation: "read") }
            if read == 0 { break }
            count += read
        }
        return Data(bytes[0..<count])
    }
}
