import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// The database file of `suite` in `root`.
func databaseFile(_ suite: String, in root: URL) -> URL {
    root.appendingPathComponent(suite + "." + Location.fileExtension)
}

/// Every value stored in the database `file`, read through a new SQLite connection of its own (not the
/// process's shared store, nor its in-memory view), which is closed again before this returns.
func freshValues(of file: URL) throws -> [String: PreferenceValue] {
    let connection = try Connection(path: file.path, busyTimeoutMilliseconds: 10_000)
    defer { connection.close() }
    let (values, undecodable) = try PreferencesTable(connection: connection, suite: file.lastPathComponent).allValues()
    #expect(undecodable.isEmpty, "rows that do not decode: \(undecodable)")
    return values
}

/// The result of `PRAGMA integrity_check` on `file`, through a new connection ("ok" when healthy).
func integrityCheck(of file: URL) throws -> String {
    let connection = try Connection(path: file.path, busyTimeoutMilliseconds: 10_000)
    defer { connection.close() }
    return try connection.text("PRAGMA integrity_check") ?? "(no result)"
}

/// The permission bits of `path` (not following a symbolic link), or nil when it does not exist.
func mode(of path: String) -> mode_t? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    return status.st_mode & 0o7777
}

/// Everything observable about a file or directory tree, to prove it was left untouched: kind, mode,
/// owner, inode, size, modification time, and the bytes of every file (or a link's target).
struct FileSnapshot: Equatable, CustomStringConvertible {
    var kind: mode_t
    var mode: mode_t
    var owner: uid_t
    var inode: UInt64
    var size: Int64
    var modified: Int
    var modifiedNanoseconds: Int
    var bytes: Data?
    var linkTarget: String?
    var children: [String: FileSnapshot] = [:]

    /// The snapshot of `url`, or nil when nothing is there. Symbolic links are not followed.
    static func take(_ url: URL) -> FileSnapshot? {
        var status = stat()
        guard lstat(url.path, &status) == 0 else { return nil }
        var snapshot = FileSnapshot(
            kind: status.st_mode & S_IFMT, mode: status.st_mode & 0o7777, owner: status.st_uid,
            inode: UInt64(status.st_ino), size: Int64(status.st_size),
            modified: Int(status.st_mtim.tv_sec), modifiedNanoseconds: Int(status.st_mtim.tv_nsec))
        switch snapshot.kind {
        case S_IFREG:
            snapshot.bytes = try? Data(contentsOf: url)
        case S_IFLNK:
            snapshot.linkTarget = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)
        case S_IFDIR:
            for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] {
                snapshot.children[name] = take(url.appendingPathComponent(name))
            }
        default:
            break
        }
        return snapshot
    }

    /// This snapshot with the content of every `-shm` child left out (its kind, mode and inode kept).
    ///
    /// NB: a `-shm` file is SQLite's shared-memory index of a `-wal` file, rebuilt from the log by any
    /// connection that opens the database; its bytes are not data, and SQLite may rewrite them on a
    /// read. The main file and the log must stay byte-identical; the index must merely stay in place.
    var ignoringIndexContent: FileSnapshot {
        var copy = self
        for (name, child) in children {
            var child = child.ignoringIndexContent
            if name.hasSuffix("-shm"), child.kind == S_IFREG {
                (child.bytes, child.size, child.modified, child.modifiedNanoseconds) = (nil, 0, 0, 0)
            }
            copy.children[name] = child
        }
        return copy
    }

    var description: String {
        "kind \(String(kind, radix: 8)) mode \(String(mode, radix: 8)) inode \(inode) size \(size) children \(children.keys.sorted())"
    }
}
