import Foundation

/// What `--child profile` checks around its profiled loop, outside it (so the profiler counts none of
/// it): that each operation did what it is named for, so that a count cannot pass on an operation that
/// did nothing (see ``ProfileMode``).
enum ProfileChecks {
    /// A profiled operation did not do what it is named for.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The state of a database's write-ahead log, from its WAL-index header at the start of the `-shm`
    /// file (https://sqlite.org/walformat.html).
    struct LogState: Equatable, CustomStringConvertible {
        /// `iChange` (offset 8): incremented by every commit that wrote to the log, and by a reset of the log.
        var changes: UInt32
        /// `mxFrame` (16): the frames in the log.
        var frames: UInt32
        /// `aSalt` (32, 36): new at each reset of the log.
        var salts: [UInt32]
        /// `nBackfill` (96) and `nBackfillAttempted` (128): the frames a checkpoint copied, and tried to.
        var backfilled: [UInt32]

        /// The state `header` shows now.
        init(_ header: ChangeCheck.WALIndexHeader) {
            changes = header.word(at: 8)
            frames = header.word(at: 16)
            salts = [header.word(at: 32), header.word(at: 36)]
            backfilled = [header.word(at: 96), header.word(at: 128)]
        }

        var description: String {
            "\(changes) changes, \(frames) frames, salts \(salts), backfilled \(backfilled)"
        }
    }

    /// Waits, uncounted, until the idle checkpoint of the database at `path` has run: its log is empty or
    /// every frame of it copied (`nBackfill` up to `mxFrame`), then a little longer for the checkpointing
    /// thread to let go of the store's lock. Returns at once for a database without a `-shm` file.
    ///
    /// NB: ours checkpoints 100 ms after a burst's last commit, on a thread of its own that holds the
    /// store's lock across the checkpoint's `fsync`; a read loop that ran meanwhile counted about 30
    /// instructions more a read (with any store's lock held anywhere, a read asks whether its own thread
    /// holds one, a thread-specific value).
    /// - Throws: ``Failure`` when the checkpoint has not run within 60 s.
    static func awaitIdleCheckpoint(ofDatabaseAt path: String) throws {
        guard FileManager.default.fileExists(atPath: path + "-shm") else { return }
        let header = try ChangeCheck.WALIndexHeader(databasePath: path)
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            let state = LogState(header)
            if state.frames == 0 || state.backfilled[0] >= state.frames { break }
            guard ContinuousClock.now < deadline else {
                throw Failure(description: "the idle checkpoint of \(path) did not run within 60 s: \(state)")
            }
            usleep(10_000)
        }
        usleep(200_000)
    }

    /// Checks that between `before` and `after` the log took exactly `commits` commits, each of at least
    /// one frame, and no checkpoint: no frame copied into the database (`nBackfill`) and no reset (the salts).
    ///
    /// NB: SQLite checkpoints when a commit leaves 1,000 frames or more in the log (the raw peer's
    /// automatic checkpoint, ours' backstop at the same size); a count is only comparable when both sides
    /// hold the same number of them, so none is allowed: the loop starts from an empty log and must be
    /// short enough (a checkpoint costs hundreds of thousands of instructions, a few hundred a write).
    /// A checkpoint moves `nBackfill`; the reset of the log that follows a complete one, the salts.
    /// (Ours' idle checkpoint, on its own thread, runs only after 100 ms without a commit: a loop that
    /// fails here with fewer than 900 frames was starved that long by the machine; run it again.)
    static func checkLog(from before: LogState, to after: LogState, commits: Int, _ operation: String) throws {
        guard after.salts == before.salts, after.backfilled == before.backfilled else {
            throw Failure(
                description: "a checkpoint fell inside the profiled loop of \(operation) (log \(before) -> \(after)): "
                    + "profile fewer operations, so that the log stays under 1,000 frames")
        }
        // NB: 900, not 1,000: a count that leaves less than a tenth to spare would hold a checkpoint after a
        // small change of the library or of SQLite.
        guard after.frames < 900 else {
            throw Failure(
                description: "\(operation): the profiled loop left \(after.frames) frames in the log, near SQLite's "
                    + "checkpoint at 1,000: profile fewer operations")
        }
        guard Int(after.changes &- before.changes) == commits else {
            throw Failure(
                description: "\(operation): the log took \(after.changes &- before.changes) commits in the profiled loop, "
                    + "\(commits) expected (log \(before) -> \(after))")
        }
        guard Int(after.frames) - Int(before.frames) >= commits else {
            throw Failure(
                description: "\(operation): \(commits) commits wrote \(Int(after.frames) - Int(before.frames)) frames to the log")
        }
    }

    /// Checks, through a connection of its own, that the database at `path` holds `expected` (a key with
    /// nil: no row) and `rows` rows in all.
    static func checkRows(at path: String, _ expected: [String: String?], rows: Int, _ operation: String) throws {
        let reader = try RawSQLitePeer(path: path)
        for (key, value) in expected where reader.string(forKey: key) != value {
            throw Failure(
                description: "\(operation): after the profiled loop, \(path) holds \(reader.string(forKey: key) ?? "no row") "
                    + "for \(key), where \(value ?? "no row") was written")
        }
        let count = try reader.rowCount()
        guard count == rows else {
            throw Failure(description: "\(operation): after the profiled loop, \(path) holds \(count) rows, \(rows) expected")
        }
    }

    /// Whether this process has the file at `path` open: a descriptor in `/proc/self/fd` names it.
    /// - Throws: ``Failure`` when `/proc/self/fd` cannot be read (the check would pass on nothing).
    static func processHasOpen(_ path: String) throws -> Bool {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let descriptors = "/proc/self/fd"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: descriptors), !entries.isEmpty else {
            throw Failure(description: "cannot list \(descriptors): cannot tell whether \(path) is open")
        }
        return entries.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(descriptors)/\($0)")) == target }
    }
}
