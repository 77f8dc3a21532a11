import Foundation
import PackageTestSupport
import Synchronization
import Testing
import ToolSupport

@testable import LayeredDefaults

/// The idle checkpoint (``IdleCheckpoint``) under attack: writers killed while the log is copied,
/// readers in other processes, stores released and reopened while an idle checkpoint is pending, batch writes and
/// repair around one, lock order with transactions and observers, a full disk, a deleted log.
@Suite(.hangLimit(minutes: 2))
struct IdleCheckpointTests {
    /// A store of `suite` in `root`, with no arguments and no system domains.
    func open(_ suite: String, _ root: URL, errors: ReportedErrors = ReportedErrors()) throws -> Defaults {
        try Defaults(
            suiteName: suite,
            configuration: .init(
                location: .directory(root), arguments: [], systemDirectories: [],
                errorHandler: { errors.record($0) }))
    }

    /// The frames of the log of `defaults` (`mxFrame`) and how many of them are in the database file
    /// (`nBackfill`), from the WAL index (https://sqlite.org/walformat.html).
    func logFrames(of defaults: Defaults) throws -> (frames: UInt32, backfilled: UInt32) {
        try defaults.persistentStoreForTesting.withConnectionForTesting { connection in
            let index = try #require(connection.walIndexHeader())
            return (index.load(fromByteOffset: 16, as: UInt32.self), index.load(fromByteOffset: 96, as: UInt32.self))
        }
    }

    /// Waits (polling, up to `limit`) until `condition` holds; returns whether it did.
    func eventually(within limit: Duration = .seconds(20), _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return try condition()
    }

    /// The idle checkpoints of the stores under `root`, run now: what a test repeats without pause (`whileRepeating`).
    func idleCheckpoints(under root: URL) -> @Sendable () -> Void {
        { StoreRegistry.checkpointIfIdleForTesting(under: root) }
    }

    // MARK: Killed writers

    /// 15 rounds: a child churns with a pause of 150 ms after every 10 operations (so its idle
    /// checkpoints run, copying pages of values up to 6 KB), and is killed with SIGKILL after a random
    /// number of acknowledgements and a random moment of up to 300 ms (often inside a pause, thus inside
    /// or around a checkpoint). Every acknowledged operation is in the file, which is healthy.
    @Test func killedWhileIdleCheckpointingLosesNothing() throws {
        var generator = SplitMix64.random()
        let seed = generator.seed
        try withTemporaryRoot { root in
            let file = databaseFile("killed", in: root)
            var model = ChurnModel()
            for round in 0..<15 {
                let target = Int.random(in: 1...120, using: &generator)
                let extra = Double(Int.random(in: 0...300_000, using: &generator)) / 1_000_000  // seconds
                let deadline = ContinuousClock.now + .seconds(30)
                let child = try ChildProcess.fixture(root, "killed", ["churn", "r\(round)", "1000000", "10", "150"])
                model.startChild()
                while model.acknowledged < target, let line = try child.nextLine(before: deadline) { model.handle(line) }
                // NB: a sleep, not a spin: the child, its checkpoint and the rest of a parallel run need the
                // cores this waits through.
                Thread.sleep(forTimeInterval: extra)
                child.send(SIGKILL)
                for line in try child.remainingLines(before: deadline) { model.handle(line) }
                _ = try child.wait(before: deadline)
                #expect(child.process.terminationReason == .uncaughtSignal, "round \(round): \(child.errorText)")
                let values = try freshValues(of: file)
                // NB: the operation in flight may have committed; only acknowledged ones are checked.
                for (key, value) in model.values where key != model.inFlightKey {
                    #expect(values[key] == value, "round \(round) (seed \(seed)): \(key) lost or stale")
                }
                for key in values.keys where model.values[key] == nil && key != model.inFlightKey {
                    #expect(Bool(false), "round \(round) (seed \(seed)): \(key) was removed but is back")
                }
                if let key = model.inFlightKey { model.values[key] = values[key] }
                #expect(try integrityCheck(of: file) == "ok", "round \(round) (seed \(seed))")
            }
        }
    }

    // MARK: Freshness across processes

    /// A child churns, pausing 150 ms after every 5 operations (its idle checkpoints run then); after
    /// each acknowledged increment this process reads the counter through its own store (its in-memory
    /// view, revalidated by the change signal). No read is stale.
    @Test func aReaderSeesEveryWriteOfAProcessThatCheckpoints() throws {
        try withTemporaryRoot { root in
            let reader = try open("fresh", root)
            _ = try reader.persistentValues()  // NB: a complete view, so every later read is from memory when current.
            let deadline = ContinuousClock.now + .seconds(60)
            let child = try ChildProcess.fixture(root, "fresh", ["churn", "p", "300", "5", "150"])
            var inFlight: [Substring]?
            var stale: [String] = []
            var checked = 0
            while let line = try child.nextLine(before: deadline) {
                let words = line.split(separator: " ")
                if words.first == "do" {
                    inFlight = words
                    continue
                }
                guard words.first == "ok", let operation = inFlight else { continue }
                // NB: the child runs on while this reads, so a key it set may be removed already: only the
                // counter, which only grows, is compared (at least the acknowledged value).
                guard operation[1] == "inc", let acknowledged = Int(words[1]) else { continue }
                checked += 1
                let found = try reader.persistentValue(forKey: String(operation[2]))?.integerValue ?? 0
                if found < acknowledged { stale.append("counter \(found) after \(acknowledged) was acknowledged") }
            }
            #expect(try child.wait(before: deadline) == 0, "\(child.errorText)")
            #expect(checked > 50)
            #expect(stale.isEmpty, "stale reads:\n\(stale.joined(separator: "\n"))")
        }
    }

    /// This process writes 1, 2, ... 150 to `k`, pausing 150 ms after every 10 writes (so its idle
    /// checkpoints run), and hands each acknowledged value to a child that loops over an empty
    /// transaction and a read of `k`. No read in the child is stale.
    @Test func aReaderInAnotherProcessIsNeverStaleWhileWeCheckpoint() throws {
        try withTemporaryRoot { root in
            let writer = try open("chased", root)
            try writer.write(.integer(0), forKey: "k")
            let acknowledgements = Pipe()
            let deadline = ContinuousClock.now + .seconds(60)
            let reader = try ChildProcess.fixture(
                root, "chased", ["chase", "k", "empty"], input: acknowledgements.fileHandleForReading)
            for value in 1...150 {
                // NB: a value of several pages, so each checkpoint copies something.
                try writer.write(.data(Data(repeating: UInt8(value % 256), count: 9000)), forKey: "pad")
                try writer.write(.integer(value), forKey: "k")
                acknowledgements.fileHandleForWriting.write(Data("\(value)\n".utf8))
                if value % 10 == 0 { Thread.sleep(forTimeInterval: 0.15) }
            }
            try acknowledgements.fileHandleForWriting.close()
            let lines = try reader.remainingLines(before: deadline)
            #expect(try reader.wait(before: deadline) == 0, "\(reader.errorText)")
            let words = try #require(lines.last?.split(separator: " "), "no summary: \(lines)")
            let figures = stride(from: 1, to: words.count, by: 2).compactMap { Int(words[$0]) }
            try #require(figures.count == 3, "unexpected summary: \(words)")
            #expect(figures[0] > 0)
            #expect(figures[1] == 0, "\(figures[1]) of \(figures[0]) reads were stale, up to \(figures[2]) behind")
        }
    }

    // MARK: Lifetime

    /// 300 stores, each written once and kept: the checkpointer's thread (no test hook) checkpoints every
    /// log; then all are released, and none is kept alive.
    @Test func hundredsOfStoresWrittenOnceAreCheckpointedAndReleased() throws {
        try withTemporaryRoot { root in
            weak var first: DomainStore?
            var weakStores: [() -> DomainStore?] = []
            do {
                var all: [Defaults] = []
                for index in 0..<300 {
                    let defaults = try open("many\(index)", root)
                    try defaults.write(.integer(index), forKey: "k")
                    all.append(defaults)
                }
                first = all[0].persistentStoreForTesting
                for defaults in all {
                    weak let store = defaults.persistentStoreForTesting
                    weakStores.append { store }
                }
                let idle = try eventually {
                    try all.allSatisfy { defaults in
                        let log = try logFrames(of: defaults)
                        return defaults.persistentStoreForTesting.idleCheckpoint?.isArmed != true
                            && log.backfilled == log.frames
                    }
                }
                #expect(idle, "every log is checkpointed once the stores are idle")
            }
            #expect(eventually(within: .seconds(5)) { weakStores.allSatisfy { $0() == nil } }, "no store is kept alive")
            #expect(first == nil)
            for index in [0, 150, 299] {
                #expect(try freshValues(of: databaseFile("many\(index)", in: root))["k"] == .integer(index))
            }
        }
    }

    /// On 4 threads, 200 rounds each: open a suite, read the last round's value, write this round's, drop
    /// the store, while another thread runs idle checkpoints without pause; the store is often reopened while the
    /// old one's idle checkpoint is pending or running (and its last reference released by the checkpointer).
    @Test func aStoreReopenedWhileItsCheckpointIsPendingSeesItsWrites() throws {
        try withTemporaryRoot { root in
            let problems = Lock<[String]>([])
            try whileRepeating(idleCheckpoints(under: root)) {
                try onThreads(4) { writer in
                    for round in 0..<200 {
                        let defaults = try open("reopen\(writer % 2)", root)
                        let key = "w\(writer)"
                        let found = try defaults.persistentValue(forKey: key)
                        if found != (round == 0 ? nil : .integer(round - 1)) {
                            problems.withLock {
                                $0.append("writer \(writer) round \(round) found \(String(describing: found))")
                            }
                        }
                        try defaults.write(.integer(round), forKey: key)
                        try defaults.write(.data(Data(count: 5000)), forKey: "pad\(writer)")
                    }
                }
            }
            #expect(problems.withLock { $0 }.isEmpty, "\(problems.withLock { $0.prefix(5) })")
            for suite in 0..<2 {
                let file = databaseFile("reopen\(suite)", in: root)
                let values = try freshValues(of: file)
                #expect(values["w\(suite)"] == .integer(199))
                #expect(values["w\(suite + 2)"] == .integer(199))
                #expect(try integrityCheck(of: file) == "ok")
            }
        }
    }

    /// Batch writes (replace, remove) and a repair of the healthy file, each right after a write that
    /// asked for an idle checkpoint, then the checkpoint: nothing is lost, the log is checkpointed.
    @Test func batchWritesAndRepairAroundAPendingCheckpoint() throws {
        try withTemporaryRoot { root in
            let errors = ReportedErrors()
            let defaults = try open("batch", root, errors: errors)
            for round in 0..<50 {
                try defaults.write(.integer(round), forKey: "k")
                switch round % 3 {
                case 0: try defaults.replacePersistentValues(["k": .integer(round), "r": .integer(round)])
                case 1: try defaults.replacePersistentValues([:])
                default: #expect(try Defaults.Domain("batch", location: .directory(root)).repair() == nil)
                }
                // NB: twice: the first finds the batch committed after the write that asked, and asks again.
                defaults.persistentStoreForTesting.checkpointIfIdle()
                defaults.persistentStoreForTesting.checkpointIfIdle()
                let expected: [String: PreferenceValue] =
                    switch round % 3 {
                    case 0: ["k": .integer(round), "r": .integer(round)]
                    case 1: [:]
                    default: ["k": .integer(round)]
                    }
                #expect(try freshValues(of: databaseFile("batch", in: root)) == expected, "round \(round)")
                #expect(try defaults.persistentValues() == expected, "round \(round)")
                let log = try logFrames(of: defaults)
                #expect(log.backfilled == log.frames, "round \(round): the idle log is checkpointed")
            }
            #expect(errors.all.isEmpty, "\(errors.all)")
        }
    }

    /// Transactions whose bodies try to read another suite (refused at once: store locks are leaves),
    /// observers (`observe`) reading both, and idle checkpoints running all the time, on two suites written
    /// crosswise: nothing deadlocks, and every round commits.
    @Test func transactionsObserversAndCheckpointsDoNotDeadlock() throws {
        try withTemporaryRoot { root in
            let a = try open("lockA", root)
            let b = try open("lockB", root)
            let seen = Atomic<Int>(0)
            let observations = [a, b].map { defaults in
                defaults.observe(.key("k"), initial: false) { _ in
                    _ = try? a.value(forKey: "k")
                    _ = try? b.value(forKey: "k")
                    seen.add(1, ordering: .relaxed)
                }
            }
            try whileRepeating(idleCheckpoints(under: root)) {
                try onThreads(2) { index in
                    let (mine, other) = index == 0 ? (a, b) : (b, a)
                    for round in 0..<300 {
                        try mine.transaction { domain in
                            let refused = DefaultsError.otherSuiteInTransaction(
                                suite: other.suiteName, transactionSuite: mine.suiteName)
                            #expect(throws: refused) { try other.value(forKey: "unread\(round)") }
                            try domain.write(.integer(round), forKey: "k")
                        }
                        // NB: a quiet period now and then, so the store's own timer (not only the
                        // repeated idle checkpoints) checkpoints while the other thread commits.
                        if round % 50 == 0 { Thread.sleep(forTimeInterval: 0.12) }
                    }
                }
            }
            for observation in observations { observation.cancel() }
            #expect(seen.load(ordering: .relaxed) > 0, "the observers ran, reading both suites")
            #expect(try a.persistentValue(forKey: "k") == .integer(299))
            #expect(try b.persistentValue(forKey: "k") == .integer(299))
        }
    }

    // MARK: Hostile environment

    /// A child limited to files of 128 KiB (SIGXFSZ ignored) churns with a pause after every 2 operations, so its idle checkpoints
    /// try to grow the database file past the limit. It stops at its first error, which is a full disk,
    /// never another failure; every acknowledged operation is in the file, which is healthy.
    @Test func aFullDiskDuringIdleCheckpointsLosesNothing() throws {
        try withTemporaryRoot { root in
            let file = databaseFile("full", in: root)
            let deadline = ContinuousClock.now + .seconds(60)
            let child = try ChildProcess.fixture(
                root, "full", ["churn", "f", "3000", "2", "120"], options: ["--file-size-limit", "\(128 * 1024)"])
            var model = ChurnModel()
            while let line = try child.nextLine(before: deadline) { model.handle(line) }
            let status = try child.wait(before: deadline)
            if status != 0 {
                #expect(status == 2)
                #expect(child.errorText.lowercased().contains("full"), "the failure is a full disk: \(child.errorText)")
            }
            let values = try freshValues(of: file)
            for (key, value) in model.values { #expect(values[key] == value, "\(key) lost or stale") }
            #expect(try integrityCheck(of: file) == "ok")
        }
    }

    /// The `-wal` file is deleted (as a cleaner of "temporary files" would) while an idle checkpoint is pending: the
    /// store's next write is refused, typed (another process would not find its commit), and the checkpoint
    /// still copies what the store acknowledged into the database, where it is once the store closes.
    @Test func aDeletedLogWhileACheckpointIsPendingLosesNothing() throws {
        try withTemporaryRoot { root in
            let errors = ReportedErrors()
            let file = databaseFile("unlinked", in: root)
            do {
                let defaults = try open("unlinked", root, errors: errors)
                for index in 0..<20 { try defaults.write(.integer(index), forKey: "a\(index)") }
                try FileManager.default.removeItem(atPath: file.path + "-wal")
                #expect(throws: DefaultsError.replacedFile(suite: "unlinked", path: file.path + "-wal")) {
                    try defaults.write(.integer(0), forKey: "b")
                }
                defaults.persistentStoreForTesting.checkpointIfIdle()  // NB: armed at the first commit, it arms again.
                defaults.persistentStoreForTesting.checkpointIfIdle()
                #expect(try defaults.persistentValues().count == 20)
            }
            // NB: read by a child process, through the library, once this process has closed the store.
            let read = try runFixture(root, "unlinked", ["read", "a19"])
            #expect(read.output == "{\"integer\":19}\n", "the last write before the log went: \(read.output) \(read.error)")
            let values = try freshValues(of: file)
            #expect(values.count == 20 && values["b"] == nil, "after close: \(values.count) of 20 values")
            #expect(try integrityCheck(of: file) == "ok")
            #expect(errors.all.isEmpty, "\(errors.all)")
        }
    }
}
