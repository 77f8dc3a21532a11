import CSQLite
import Foundation
import Synchronization

/// A cheap answer to "has any connection committed to this database since I last looked?".
///
/// For a file in WAL mode it reads the WAL-index header at the start of the `-shm` file, mapped
/// read-only into memory. SQLite documents this header (https://sqlite.org/walformat.html): every
/// commit rewrites it, incrementing `iChange` (offset 8) and setting `mxFrame` (16), the frame
/// checksum (24, 28) and, after a WAL reset, new salts (32, 36). Any writer, ours or not (the `sqlite3`
/// shell included), changes it before its commit returns, so comparing these words costs a few
/// nanoseconds and misses no commit. Where no header can be mapped (a file not in WAL mode) every look
/// reports a change, so the store reads through to SQLite: slower, never stale. In memory no other
/// connection exists, so nothing ever changes behind the store's back.
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
    }

    // NB: a raw pointer to a read-only shared mapping, only ever loaded from: safe to share.
    nonisolated(unsafe) private let source: Source
    private let descriptor: Int32
    private let mappedLength: Int
    private static let uniqueCounter = Atomic<UInt64>(0)

    /// A signal that never fires, for an in-memory database.
    static let never = ChangeSignal(source: .never, descriptor: -1, mappedLength: 0)

    private init(source: Source, descriptor: Int32, mappedLength: Int) {
        self.source = source
        self.descriptor = descriptor
        self.mappedLength = mappedLength
    }

    /// Maps the WAL-index header of the database at `databasePath`, which `connection` has open in WAL
    /// mode; falls back to reporting every look as a change when that is impossible.
    ///
    /// NB: POSIX advisory locks belong to the process, and closing *any* descriptor of a file drops all
    /// of the process's locks on it, SQLite's included. So the descriptor stays open until this signal
    /// is destroyed, which its owner does only after closing its SQLite connection.
    static func open(databasePath: String, connection: Connection) -> ChangeSignal {
        guard (try? connection.text("PRAGMA journal_mode")) == "wal" else {
            return ChangeSignal(source: .alwaysChanged, descriptor: -1, mappedLength: 0)
        }
        let descriptor = Foundation.open(databasePath + "-shm", O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return ChangeSignal(source: .alwaysChanged, descriptor: -1, mappedLength: 0) }
        var status = stat()
        let length = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard fstat(descriptor, &status) == 0, Int(status.st_size) >= length,
              let address = mmap(nil, length, PROT_READ, MAP_SHARED, descriptor, 0), address != MAP_FAILED
        else {
            return ChangeSignal(source: .alwaysChanged, descriptor: descriptor, mappedLength: 0)
        }
        return ChangeSignal(source: .walIndex(UnsafeRawPointer(address)), descriptor: descriptor, mappedLength: length)
    }

    deinit {
        if case .walIndex(let address) = source { munmap(UnsafeMutableRawPointer(mutating: address), mappedLength) }
        if descriptor >= 0 { close(descriptor) }
    }

    /// The current fingerprint; two equal fingerprints mean no commit happened in between.
    var fingerprint: Fingerprint {
        switch source {
        case .walIndex(let header):
            return Fingerprint(
                change: csqlite_load_acquire_u32(header + 8),
                lastFrame: csqlite_load_acquire_u32(header + 16),
                checksum1: csqlite_load_acquire_u32(header + 24),
                checksum2: csqlite_load_acquire_u32(header + 28),
                salt1: csqlite_load_acquire_u32(header + 32),
                salt2: csqlite_load_acquire_u32(header + 36))
        case .alwaysChanged:
            return Fingerprint(unique: Self.uniqueCounter.add(1, ordering: .relaxed).newValue)
        case .never:
            return Fingerprint()
        }
    }
}
