import CSQLite
import Foundation
import Synchronization

/// A cheap answer to "has any connection committed to this database since I last looked?".
///
/// For a file in WAL mode it reads the WAL-index header at the start of the `-shm` file, through the
/// mapping SQLite itself made for the store's connection (see ``Connection/walIndexHeader()``).
/// SQLite documents this header (https://sqlite.org/walformat.html): every commit rewrites it,
/// incrementing `iChange` (offset 8) and setting `mxFrame` (16), the frame checksum (24, 28) and,
/// after a WAL reset, new salts (32, 36). Any writer, ours or not (the `sqlite3` shell included),
/// changes it before its commit returns, so comparing these words costs a few nanoseconds and misses
/// no commit. Where no header can be had (a file not in WAL mode) every check reports a change, so the
/// store reads through to SQLite: slower, never stale. In memory no other connection exists, so
/// nothing ever changes behind the store's back.
final class ChangeSignal: Sendable {
    /// The words of the WAL-index header that change with every commit.
    struct Fingerprint: Equatable {
        var change: UInt32 = 0, lastFrame: UInt32 = 0, checksum1: UInt32 = 0, checksum2: UInt32 = 0
        var salt1: UInt32 = 0, salt2: UInt32 = 0, unique: UInt64 = 0
    }

    private enum Source {
        case walIndex(UnsafeRawPointer)
        case alwaysChanged
        case never
        /// The path of a file that was absent, as a C string (``deinit`` frees it).
        case absent(UnsafePointer<CChar>)
        /// The path of a drop-in folder, as a C string (``deinit`` frees it).
        // NB: a pointer, as every other payload: a `String` here made the switch of every read's
        // fingerprint dearer (the enum's layout), about 30 instructions a read (callgrind).
        case folder(UnsafePointer<CChar>)
    }

    /// The fingerprint of the drop-in folder at `path` now. A file changed too recently to be told from
    /// the next change (timestamps are coarse) reads as changed at every check, until it is old enough.
    @inline(never) private static func fingerprint(ofFolder path: UnsafePointer<CChar>) -> Fingerprint {
        guard let hash = FolderFingerprint(of: String(cString: path)).hash else {
            return Fingerprint(unique: uniqueCounter.add(1, ordering: .relaxed).newValue)
        }
        return Fingerprint(change: UInt32(truncatingIfNeeded: hash >> 32), lastFrame: UInt32(truncatingIfNeeded: hash), salt1: 1)
    }

    // NB: a pointer into SQLite's shared mapping of the -shm file, only ever loaded from, valid while the
    // store's connection is open (the store never reads it after closing), or a C string of the signal's
    // own, never written, freed with it: safe to share.
    nonisolated(unsafe) private let source: Source
    /// The WAL-index header of ``Source/walIndex(_:)``, nil for every other source; and the path of
    /// ``Source/absent(_:)``, nil for every other source.
    ///
    /// NB: the reads' own fields: with the other sources' payloads, the switch over ``source`` cost every
    /// read's fingerprint a few instructions more than the test of a pointer (callgrind).
    nonisolated(unsafe) private let walHeader: UnsafeRawPointer?
    nonisolated(unsafe) private let absentPath: UnsafePointer<CChar>?
    private static let uniqueCounter = Atomic<UInt64>(0)

    /// A signal that never fires, for an in-memory database or an immutable snapshot.
    static let never = ChangeSignal(source: .never)

    private init(source: Source) {
        self.source = source
        if case .walIndex(let header) = source { walHeader = header } else { walHeader = nil }
        if case .absent(let path) = source { absentPath = path } else { absentPath = nil }
    }

    /// The signal of a domain whose file at `path` does not exist: unchanged while nothing is there, and
    /// changed at every check once something is (one `lstat` a check), so that the first commit of
    /// another process is seen at once.
    static func absent(path: String) -> ChangeSignal { ChangeSignal(source: .absent(UnsafePointer(strdup(path)!))) }

    deinit {
        switch source {
        case .absent(let path), .folder(let path): free(UnsafeMutablePointer(mutating: path))
        default: break
        }
    }

    /// The signal of a drop-in folder at `path`: its entries and the files they name, by their status
    /// (``FolderFingerprint``), so that a file added, changed, renamed or removed moves it.
    static func folder(path: String) -> ChangeSignal { ChangeSignal(source: .folder(UnsafePointer(strdup(path)!))) }

    /// The signal of a database that `connection` has open and has read from: its WAL-index header when
    /// it is in WAL mode, else a signal that reports every check as a change.
    ///
    /// `PRAGMA journal_mode` (compiled, run and finalized: a noticeable share of an open) is
    /// asked only when the header ``FileAdmission`` judged (`headerSaysWAL`) and the connection disagree or
    /// cannot tell: the header says WAL (bytes 18 and 19 are 2) and SQLite has a log open for the
    /// connection (``Connection/hasLogOpen``), or it is a new file, or one switched since its header was read.
    static func open(connection: Connection, headerSaysWAL: Bool? = nil) -> ChangeSignal {
        let isWAL = headerSaysWAL == true && connection.hasLogOpen || (try? connection.text("PRAGMA journal_mode")) == "wal"
        guard isWAL, let header = connection.walIndexHeader() else { return ChangeSignal(source: .alwaysChanged) }
        return ChangeSignal(source: .walIndex(header))
    }

    /// The current fingerprint; two equal fingerprints mean no commit happened in between.
    @inline(__always) var fingerprint: Fingerprint {
        if let header = walHeader { return Self.fingerprint(ofHeader: header) }
        if let path = absentPath { return Self.fingerprint(ofAbsent: path) }
        return Self.fingerprint(of: source)
    }

    /// The fingerprint of the WAL-index header at `header`.
    @inline(__always) private static func fingerprint(ofHeader header: UnsafeRawPointer) -> Fingerprint {
        Fingerprint(
            change: csqlite_load_acquire_u32(header + 8),
            lastFrame: csqlite_load_acquire_u32(header + 16),
            checksum1: csqlite_load_acquire_u32(header + 24),
            checksum2: csqlite_load_acquire_u32(header + 28),
            salt1: csqlite_load_acquire_u32(header + 32),
            salt2: csqlite_load_acquire_u32(header + 36))
    }

    /// ``fingerprint`` of any source: out of line, and static, so that a signal without a WAL-index
    /// header is not retained to be asked.
    @inline(never) private static func fingerprint(of source: Source) -> Fingerprint {
        switch source {
        case .walIndex(let header):
            return fingerprint(ofHeader: header)
        case .alwaysChanged:
            return Fingerprint(unique: uniqueCounter.add(1, ordering: .relaxed).newValue)
        case .never:
            return Fingerprint()
        case .absent(let path):
            return fingerprint(ofAbsent: path)
        case .folder(let path):
            return fingerprint(ofFolder: path)
        }
    }

    /// The fingerprint of a file that was absent: unchanged while nothing is at `path`.
    ///
    /// Out of line, with the path made a C string once: inlined, the `stat` buffer put a stack guard
    /// and the path's bridging into every read that asks a fingerprint.
    @inline(never)
    private static func fingerprint(ofAbsent path: UnsafePointer<CChar>) -> Fingerprint {
        let found = withUnsafeTemporaryAllocation(of: stat.self, capacity: 1) { lstat(path, $0.baseAddress!) }
        guard found == 0 else { return Fingerprint() }
        return Fingerprint(unique: uniqueCounter.add(1, ordering: .relaxed).newValue)
    }

    /// True when the only commit between the two fingerprints, taken under the write lock before a
    /// commit and after it, was that commit, which `wroteLog` says wrote to the log (SQLite told the
    /// connection so: see ``Connection/walCommitCount``).
    ///
    /// NB: `iChange` grows by one with every commit that writes and with nothing else (a WAL reset keeps
    /// it). A commit that wrote nothing leaves it as it was, so "one more" then means another process
    /// committed after ours: never count, know.
    func isOnlyCommit(wroteLog: Bool, between before: Fingerprint, and after: Fingerprint) -> Bool {
        switch source {
        case .walIndex: wroteLog && after.change == before.change &+ 1
        case .alwaysChanged: false
        case .never: true
        case .absent, .folder: false
        }
    }
}
