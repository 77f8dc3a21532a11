import CSQLite
import Foundation

/// The two ways to ask "has anyone committed since I last looked?", measured side by side for item 9.
///
/// - ours: what `ChangeSignal` does on every read: six acquire loads from the WAL-index header at the
///   start of the database's `-shm` file, mapped read-only (format: https://sqlite.org/walformat.html),
///   compared with the previous six.
/// - SQLite: `PRAGMA data_version` on an open connection, the C API's own answer.
enum ChangeCheck {
    /// The WAL-index header of a database in WAL mode, mapped read-only.
    final class WALIndexHeader {
        private let descriptor: Int32
        private let address: UnsafeRawPointer
        private let length: Int

        /// Maps the first page of `databasePath-shm`.
        /// - Throws: ``PeerError`` when the file cannot be mapped.
        init(databasePath: String) throws {
            descriptor = open(databasePath + "-shm", O_RDONLY | O_CLOEXEC)
            length = Int(sysconf(Int32(_SC_PAGESIZE)))
            guard descriptor >= 0, let mapped = mmap(nil, length, PROT_READ, MAP_SHARED, descriptor, 0), mapped != MAP_FAILED
            else {
                throw PeerError.failed(.ours, "cannot map \(databasePath)-shm")
            }
            address = UnsafeRawPointer(mapped)
        }

        // NB: the descriptor is never closed (the measuring process exits soon after): closing any
        // descriptor of the file would drop the process's POSIX locks on it, those of SQLite included.
        deinit { munmap(UnsafeMutableRawPointer(mutating: address), length) }

        /// The 32-bit word at `offset` of the `-shm` file (an acquire load).
        func word(at offset: Int) -> UInt32 { csqlite_load_acquire_u32(address + offset) }

        /// The words every commit rewrites: iChange, mxFrame, the frame checksum, the salts.
        @inline(__always)
        func words() -> (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) {
            (
                csqlite_load_acquire_u32(address + 8), csqlite_load_acquire_u32(address + 16),
                csqlite_load_acquire_u32(address + 24), csqlite_load_acquire_u32(address + 28),
                csqlite_load_acquire_u32(address + 32), csqlite_load_acquire_u32(address + 36)
            )
        }
    }

    /// ns per check of `header` against the previous words.
    static func measureHeader(_ header: WALIndexHeader, _ settings: MeasureSettings) -> Sample {
        measure(settings) { range in
            var last = header.words()
            var changes = 0
            for _ in range {
                let current = header.words()
                if current != last { changes += 1 }
                last = current
            }
            consume(changes)
        }
    }

    /// ns per `PRAGMA data_version` on `peer`'s open connection.
    static func measureDataVersion(_ peer: RawSQLitePeer, _ settings: MeasureSettings) -> Sample {
        measure(settings) { range in
            var sum = 0
            for _ in range { sum &+= peer.dataVersion() }
            consume(sum)
        }
    }
}
