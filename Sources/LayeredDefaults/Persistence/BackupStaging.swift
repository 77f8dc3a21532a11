import Foundation

/// Where a backup is written before it is renamed into place: a hidden directory beside the
/// destination, `.<name>.backup-<UUID>` (mode 0700), that holds the copy (``copy``, mode 0600) and
/// what SQLite makes beside it while it writes (a journal). This process holds an `flock` on the
/// directory for as long as it uses it.
///
/// NB: a backup killed before its rename leaves its directory behind. Each backup first removes the
/// directories of this shape beside its destination whose lock is free (their process is gone), so a
/// later backup into a directory leaves nothing of a killed one; one whose lock is held is another
/// backup's, still running. The lock is an `flock` on the directory, never a POSIX lock, and nothing
/// here opens a file SQLite opens: closing a descriptor drops every POSIX lock the process holds on
/// its file, SQLite's included, and no `flock`.
final class BackupStaging {
    /// The file the copy is written to: close every connection to it before ``moveIntoPlace(replacing:)``.
    let copy: String
    /// The destination, named by every error.
    private let target: String
    /// The staging directory.
    private let directory: String
    /// The locked directory's descriptor; -1 once let go.
    private var descriptor: Int32

    /// The name of the copy inside its directory.
    private static let copyName = "copy.sqlite3"

    /// Removes what killed backups left beside `target`, then creates a locked staging directory there
    /// and the empty copy in it.
    /// - Throws: ``DefaultsError/fileSystemFailure(path:operation:code:)`` or
    ///   ``DefaultsError/permissionDenied(path:)`` naming `target`.
    init(for target: String) throws {
        let parent = (target as NSString).deletingLastPathComponent
        Self.removeAbandoned(in: parent)
        self.target = target
        (directory, descriptor) = try Self.makeLockedDirectory(in: parent, for: target)
        copy = directory + "/" + Self.copyName
        var failure: Int32?
        do throws(FileActs.Failure) {
            if try !FileActs.createExclusively(copy, mode: 0o600) { failure = EEXIST }
        } catch {
            failure = error.code
        }
        if let failure {
            discard()
            throw DefaultsError.fileSystem(failure, path: target, operation: "create the backup")
        }
    }

    deinit { discard() }

    /// Flushes the complete copy to disk and renames it to the destination; unless `replacing`, only
    /// when nothing is there. Then removes the staging directory.
    ///
    /// Without `replacing`, the name is first claimed with an empty file made with `O_EXCL`, which
    /// fails when anything is there (another writer's file, appeared since the first look); the rename
    /// then replaces only that claim.
    /// - Throws: ``DefaultsError/backupExists(path:)``, or a file-system error naming the destination;
    ///   the destination is then as it was.
    func moveIntoPlace(replacing: Bool) throws {
        try synchronize(copy)
        if !replacing {
            let claimed: Bool
            do throws(FileActs.Failure) {
                claimed = try FileActs.createExclusively(target, mode: 0o600)
            } catch {
                throw DefaultsError.fileSystem(error.code, path: target, operation: "create the backup")
            }
            guard claimed else { throw DefaultsError.backupExists(path: target) }
        }
        do throws(FileActs.Failure) {
            try FileActs.rename(copy, over: target)
        } catch {
            if !replacing { unlink(target) }
            throw DefaultsError.fileSystem(error.code, path: target, operation: "create the backup")
        }
        discard()
    }

    /// Removes the staging directory, with the copy and its companions if they are still there, and
    /// lets go of its lock. Every connection to the copy must be closed.
    func discard() {
        guard descriptor >= 0 else { return }
        Self.remove(directory)
        close(descriptor)
        descriptor = -1
    }

    /// Flushes the file `path` to disk.
    private func synchronize(_ path: String) throws {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { throw DefaultsError.fileSystem(errno, path: target, operation: "write the backup") }
        defer { close(file) }
        guard fsync(file) == 0 else { throw DefaultsError.fileSystem(errno, path: target, operation: "write the backup") }
    }

    /// A new staging directory for `target` in `parent`, and its descriptor holding its lock.
    /// - Throws: a file-system error naming `target`.
    private static func makeLockedDirectory(in parent: String, for target: String) throws -> (String, Int32) {
        while true {
            let directory = parent + "/." + (target as NSString).lastPathComponent + ".backup-" + UUID().uuidString
            guard mkdir(directory, 0o700) == 0, let locked = lock(directory, waiting: true) else {
                throw DefaultsError.fileSystem(errno, path: target, operation: "create the backup")
            }
            // NB: another backup's sweep may take the directory between its `mkdir` and its lock (empty,
            // its lock free): the lock is then held on a directory gone from its path; make another.
            if isAtPath(locked, directory) { return (directory, locked) }
            close(locked)
        }
    }

    /// Removes every staging directory in `parent` that this user owns and whose lock is free.
    private static func removeAbandoned(in parent: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
        for name in names where isStagingName(name) {
            let directory = parent + "/" + name
            var status = stat()
            guard lstat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == geteuid(),
                let locked = lock(directory, waiting: false)
            else { continue }
            if isAtPath(locked, directory) { remove(directory) }
            close(locked)
        }
    }

    /// True when `name` has the shape of a staging directory's: `.<name>.backup-<UUID>`.
    private static func isStagingName(_ name: String) -> Bool {
        guard name.hasPrefix("."), let marker = name.range(of: ".backup-", options: .backwards) else { return false }
        let id = String(name[marker.upperBound...])
        return marker.lowerBound > name.index(after: name.startIndex) && UUID(uuidString: id)?.uuidString == id
    }

    /// A descriptor of the directory `path` holding its exclusive `flock`, or nil when it cannot be
    /// opened, or (unless `waiting`) its lock is held.
    private static func lock(_ path: String, waiting: Bool) -> Int32? {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, waiting ? LOCK_EX : LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// True when `path` still names the directory `descriptor` has open.
    private static func isAtPath(_ descriptor: Int32, _ path: String) -> Bool {
        var status = stat()
        return fstat(descriptor, &status) == 0 && FileIdentity(ofFileAt: path) == FileIdentity(status)
    }

    /// Removes the copy and its companions from the staging directory `path`, then the directory (left
    /// when anything else is in it).
    private static func remove(_ path: String) {
        try? DomainFiles.delete(database: path + "/" + copyName)
        rmdir(path)
    }
}
