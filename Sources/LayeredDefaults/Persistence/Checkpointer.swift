import Dispatch
import Synchronization

/// Copies the write-ahead log back into the database file on a background queue, so a write never
/// pays for a checkpoint.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses 1,000 log pages, copying up to
/// 1,000 scattered pages and syncing the file: one write in a thousand then takes milliseconds, more in
/// a large domain. A store turns it off (`PRAGMA wal_autocheckpoint = 0`) and asks for a checkpoint here
/// instead; it runs `PRAGMA wal_checkpoint(PASSIVE)` on a connection of its own, which waits for no one.
/// Durability does not change: a commit is durable once it is in the log.
final class Checkpointer: Sendable {
    /// The log size, in pages (frames), from which a store asks for a checkpoint: SQLite's own default.
    static let threshold: UInt32 = 1000

    private let path: String
    private let pending = Atomic<Bool>(false)
    /// The log size at the last request: while a reader keeps a checkpoint from finishing, the log
    /// stays long, and asking again after every commit would only repeat the same work.
    private let requestedAt = Atomic<UInt32>(0)
    private static let queue = DispatchQueue(label: "LayeredDefaults.checkpoint", qos: .utility)

    /// A checkpointer for the database at `path`.
    init(path: String) { self.path = path }

    /// Asks for a checkpoint when the log holds `frames` pages: from ``threshold`` pages on, once the log
    /// grew by a quarter of it since the last request (or was restarted), unless one is already waiting.
    func logGrew(to frames: UInt32) {
        let last = requestedAt.load(ordering: .relaxed)
        guard frames >= Self.threshold, frames < last || frames >= last + Self.threshold / 4 else { return }
        requestedAt.store(frames, ordering: .relaxed)
        guard pending.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        Self.queue.async { [self] in
            pending.store(false, ordering: .releasing)
            // NB: a SQLite connection of its own (SQLite shares locks between its connections to one file;
            // no descriptor of ours is closed). It cannot create the file: a domain removed meanwhile is skipped.
            guard let connection = try? Connection(path: path, busyTimeoutMilliseconds: 0) else { return }
            _ = try? connection.text("PRAGMA wal_checkpoint(PASSIVE)")
            connection.close()
        }
    }
}
