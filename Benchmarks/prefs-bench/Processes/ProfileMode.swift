import Foundation
import LayeredDefaults

/// `prefs-bench --child profile <operation> <peer> <keys> <count>`: performs one operation a fixed
/// number of times, untimed, for an instruction profiler (valgrind's callgrind counts instructions
/// repeatably on a noisy machine). Only the calls inside ``profiledLoop(_:_:_:)`` matter:
///
/// ```sh
/// export PREFS_BENCH_SANDBOX=$(mktemp -d)
/// valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*profiledLoop*' \
///     .build/release/prefs-bench --child profile write-existing ours 100 2000
/// callgrind_annotate --inclusive=yes callgrind.out.<pid>
/// ```
///
/// Operations: `hot-read`, `hot-read-short` (the same with keys of 4 bytes, `k000`, instead of 13-15),
/// `hot-read-reverse-domain` (keys of 29-31 bytes, `com.example.app.pref.string.0`),
/// `missing` and `registered` (the domain filled, then opened anew and read key by key, as an app meets
/// them: nothing reads the whole domain first; the global domain has a file, as it had once any read
/// searched it before a domain's file was made by its first commit), `missing-without-global-file` (the
/// same with no global domain's file: each answer found past the suites asks the file system whether
/// another process made it since, one `lstat`), `read-after-write`, `write-existing`,
/// `write-observed` (`write-existing` while 100 observers watch other keys: ours only; their evaluations
/// run on a thread of their own, which `--toggle-collect` leaves out: run without it, with
/// `--collect-atstart=yes`, and subtract a run of 0 operations to count both threads),
/// `write-history` (`write-existing` in a domain that keeps history, `Defaults.History.standard`: ours only;
/// its keys below their bound, so no entry is dropped), `write-new` (each followed by its removal), `batch` (`<count>` batches rewriting every key of the domain),
/// `open` (the store opened, one key read, the store closed again: cold start without the process).
/// Foundation is refused unless `HOME` is the sandbox's (see ``Sandbox``).
///
/// Every operation checks its own result outside the counted calls, and the run fails otherwise (see
/// ``ProfileChecks``): each read returns the value expected; a write loop starts from a log of one
/// commit, takes exactly one commit a write (two for a new key and its removal), holds no checkpoint
/// and leaves its rows as last written, read through a connection of its own; each open finds the
/// database closed before it, open after it and closed after the close. Each lookup's key is a string
/// made anew, sharing no storage with a key the store, the floor or another lookup holds.
enum ProfileMode {
    /// The operations, by name.
    static let operations = [
        "hot-read", "hot-read-short", "hot-read-reverse-domain", "missing", "missing-without-global-file", "registered",
        "read-after-write",
        "write-existing", "write-observed", "write-history", "write-new", "batch", "open",
    ]

    /// Runs `<operation> <peer> <keys> <count>`.
    /// - Throws: for a bad command line or a failed operation.
    static func run(_ arguments: [String]) throws {
        guard arguments.count == 4, operations.contains(arguments[0]), let kind = PeerKind(rawValue: arguments[1]),
            let keys = Int(arguments[2]), let count = Int(arguments[3]), let sandbox = Sandbox.current
        else {
            throw ChildProcess.Failure(
                description: "usage: PREFS_BENCH_SANDBOX=<dir> prefs-bench --child profile "
                    + "<\(operations.joined(separator: "|"))> <\(PeerKind.allCases.map(\.rawValue).joined(separator: "|"))> <keys> <count>"
            )
        }
        if kind == .foundation, ProcessInfo.processInfo.environment["HOME"] != sandbox.home.path {
            throw ChildProcess.Failure(
                description: "profiling Foundation needs HOME=\(sandbox.home.path) and XDG_CONFIG_HOME=\(sandbox.configHome.path)"
            )
        }
        for directory in [sandbox.configHome, sandbox.oursDirectory, sandbox.sqliteDirectory] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        let withoutGlobalFile = arguments[0] == "missing-without-global-file"
        let operation = withoutGlobalFile ? "missing" : arguments[0]
        let keyLength: Workload.KeyLength =
            switch operation {
            case "hot-read-short": .short
            case "hot-read-reverse-domain": .reverseDomain
            default: .long
            }
        let workload = Workload(size: keys, keyLength: keyLength)
        let suite = "profile.\(kind.tag).\(getpid())"
        if operation == "open" { return try profileOpen(kind, suite: suite, in: sandbox, workload: workload, count: count) }
        let step = Step(operation)
        let peer: any Peer
        if operation == "write-history" {
            guard kind == .ours else { throw PeerError.unsupported(kind, "keep history") }
            let ours = try OursPeer(suite: suite, directory: sandbox.oursDirectory, history: .standard)
            try ours.populate(workload)
            peer = ours
        } else {
            peer = try kind.open(
                suite: suite, in: sandbox, workload: workload, asAnAppMeetsIt: operation == "missing" || operation == "registered"
            )
        }
        if operation == "missing" || operation == "registered", !withoutGlobalFile, let ours = peer as? OursPeer {
            try ours.defaults.replacePersistentValues(["bench.global": true], forName: Defaults.globalDomain)
        }
        ReadCases.warm(peer, workload)
        let domainKeys = workload.strings.map(\.key) + workload.integers.map(\.key)
        let sources =
            operation == "missing"
            ? (0..<1000).map(Workload.missingKey)
            : operation == "registered" ? (0..<1000).map(Workload.registeredKey) : workload.strings.map(\.key)
        // NB: the keys of the loop are made anew, one for each operation, and the warm pass has its own:
        // no lookup is given an instance a store or a floor kept, as no app's is (see `Workload.madeAnew`).
        let sequence = Workload.randomPool(of: sources, seed: 7)
        let loopKeys = (0..<count).map { Workload.madeAnew(sequence[$0 & (Workload.poolSize - 1)]) }
        let warmKeys = sequence.map(Workload.madeAnew)
        let newKeys = step == .writeNew ? (0..<count).map { Workload.madeAnew(Workload.newKey($0)) } : []
        try Workload.checkNoSharing(loopKeys + warmKeys + newKeys, with: domainKeys + sources)
        if operation == "registered" {
            try peer.register(Dictionary(uniqueKeysWithValues: sources.map { ($0, "registered") }))
        }
        for key in warmKeys { consume(peer.string(forKey: key)?.utf8.count ?? 0) }
        let values = Dictionary(uniqueKeysWithValues: workload.strings.map { ($0.key, $0.value) })
        let expected: [String?] = loopKeys.map {
            operation == "missing" ? nil : operation == "registered" ? "registered" : values[$0]
        }
        var observations: [DefaultsObservation] = []
        if operation == "write-observed" {
            guard let ours = peer as? OursPeer else { throw PeerError.unsupported(kind, "observe") }
            observations = ObserverCases.observeOtherKeys(ours.defaults)
        }
        defer { for observation in observations { observation.cancel() } }
        if step == .read, kind == .ours {
            for domain in [suite, Defaults.globalDomain] {
                if let path = sandbox.databasePath(of: kind, suite: domain) {
                    try ProfileChecks.awaitIdleCheckpoint(ofDatabaseAt: path)
                }
            }
        }
        let batches = ["a", "b"].map { tag in domainKeys.enumerated().map { (key: $1, value: "batch-\(tag)-\($0)") } }
        let log = try step.writes ? emptyLog(of: peer, kind, suite: suite, in: sandbox, workload: workload) : nil
        let before = log.map(ProfileChecks.LogState.init)
        var mismatches = 0
        // NB: the operation is resolved before the loop: matching its name there cost both sides the same
        // instructions an iteration (string comparisons, about 45 for `missing`), diluting the ratios. The
        // keys are made before it for the same reason; the value read is compared with the one expected
        // (a few instructions, the same for every peer: equal small strings compare by their bits).
        try profiledLoop(operation, count) { index in
            let key = loopKeys[index]
            switch step {
            case .read: if peer.string(forKey: key) != expected[index] { mismatches += 1 }
            case .readAfterWrite:
                let value = "after-\(index)"
                try peer.plainWrite(value, forKey: key)
                if peer.string(forKey: key) != value { mismatches += 1 }
            case .write: try peer.write("changed-\(index)", forKey: key)
            case .writeNew:
                try peer.write("new-\(index)", forKey: newKeys[index])
                try peer.remove(forKey: newKeys[index])
            case .batch: try peer.writeBatch(batches[index % 2])
            }
        }
        // NB: the log is read at once: ours' idle checkpoint runs 100 ms after its last commit.
        let after = log.map(ProfileChecks.LogState.init)
        guard mismatches == 0 else {
            throw ProfileChecks.Failure(
                description: "\(operation): \(mismatches) of \(count) reads did not return the value expected")
        }
        guard let before, let after, let path = sandbox.databasePath(of: kind, suite: suite) else { return }
        let commits = step == .writeNew ? 2 * count : count
        try ProfileChecks.checkLog(from: before, to: after, commits: commits, operation)
        var written: [String: String?] = [:]
        for index in 0..<count {
            switch step {
            case .write: written[loopKeys[index]] = "changed-\(index)"
            case .readAfterWrite: written[loopKeys[index]] = "after-\(index)"
            case .writeNew: written[newKeys[index]] = .some(nil)
            default: for (key, value) in batches[index % 2] { written[key] = value }
            }
        }
        try ProfileChecks.checkRows(at: path, written, rows: workload.size, operation)
        FileHandle.standardError.write(
            Data("prefs-bench: \(operation) \(kind.rawValue): checked \(commits) commits, log \(before) -> \(after)\n".utf8))
    }

    /// Prepares the log of `peer`'s database for a write loop and maps its WAL-index header, uncounted:
    /// the log is checkpointed and emptied through a connection of its own; ours reads its whole domain
    /// again (its view was complete before); then the peer writes one value (its first commit to the new
    /// log, which writes the log's header and its salts, and its first write, which prepares what the
    /// raw peer prepares on first use), so that both sides start the loop from a log of one commit, and
    /// any checkpoint in the loop shows (see ``ProfileChecks/checkLog(from:to:commits:_:)``).
    /// - Throws: ``PeerError/unsupported(_:_:)`` for a peer without a database.
    private static func emptyLog(
        of peer: any Peer, _ kind: PeerKind, suite: String, in sandbox: Sandbox, workload: Workload
    ) throws -> ChangeCheck.WALIndexHeader {
        guard let path = sandbox.databasePath(of: kind, suite: suite), let last = workload.strings.last?.key else {
            throw PeerError.unsupported(kind, "be profiled writing (it has no SQLite log to check)")
        }
        try RawSQLitePeer.checkpointTruncating(path: path)
        let header = try ChangeCheck.WALIndexHeader(databasePath: path)
        let emptied = ProfileChecks.LogState(header)
        if let ours = peer as? OursPeer { _ = try ours.defaults.persistentValues() }
        ReadCases.warm(peer, workload)
        // NB: a new value: SQLite writes no page, and commits nothing to the log, for a row rewritten as it
        // was. Written last, just before the loop: ours' idle checkpoint runs 100 ms after a commit when no
        // other followed, and the loop's commits follow at once.
        try peer.write("before-the-loop", forKey: last)
        let state = ProfileChecks.LogState(header)
        guard emptied.frames == 0, state.frames > 0, state.changes &- emptied.changes == 1 else {
            throw ProfileChecks.Failure(
                description: "the log of \(path) is not one commit long before the loop: \(emptied) -> \(state)")
        }
        return header
    }

    /// What one iteration of the profiled loop does, by operation.
    private enum Step {
        case read, readAfterWrite, write, writeNew, batch

        init(_ operation: String) {
            switch operation {
            case "hot-read", "hot-read-short", "hot-read-reverse-domain", "missing", "missing-without-global-file",
                "registered":
                self = .read
            case "read-after-write": self = .readAfterWrite
            case "write-existing", "write-observed", "write-history": self = .write
            case "write-new": self = .writeNew
            default: self = .batch
            }
        }

        /// Whether the operation commits to the database.
        var writes: Bool { self != .read }
    }

    /// `open`: fills the domain, closes it, then `count` times opens it, reads one key and closes it.
    ///
    /// Each open and each close is checked, uncounted, between two calls of the profiled loop: the
    /// database must be open in this process after the open (it is the file meant, and it was opened:
    /// it was not open before), and no longer after the close.
    private static func profileOpen(_ kind: PeerKind, suite: String, in sandbox: Sandbox, workload: Workload, count: Int) throws {
        guard let path = sandbox.databasePath(of: kind, suite: suite) else {
            throw PeerError.unsupported(kind, "be profiled opening (it holds no database open)")
        }
        _ = try kind.open(suite: suite, in: sandbox, workload: workload)
        let (key, expected) = workload.strings[workload.strings.count / 3]
        // NB: raw SQLite is opened from its path, made before the loop, as a minimal app holds it: building
        // it from the sandbox's URLs cost about 50,000 instructions an open, Foundation's, not SQLite's.
        // Ours likewise gets its directory's URL made before the loop (appending to the sandbox's URL was
        // about 10,800 instructions an open).
        let sqlitePath = sandbox.sqliteDirectory.appendingPathComponent(suite + ".sqlite3").path
        let oursDirectory = sandbox.oursDirectory
        var peer: (any Peer)?
        for index in 0..<count {
            guard try !ProfileChecks.processHasOpen(path) else {
                throw ProfileChecks.Failure(description: "open \(index): \(path) is open before the store is opened")
            }
            try profiledLoop("open", 1) { _ in
                let opened: any Peer =
                    switch kind {
                    case .sqlite: try RawSQLitePeer(path: sqlitePath)
                    default: try OursPeer(suite: suite, directory: oursDirectory)
                    }
                guard opened.string(forKey: key) == expected else {
                    throw PeerError.failed(kind, "the first read of \(key) failed")
                }
                peer = opened
            }
            guard peer?.kind == kind, try ProfileChecks.processHasOpen(path) else {
                throw ProfileChecks.Failure(description: "open \(index): the first value was read without opening \(path)")
            }
            profiledLoop("open", 1) { _ in peer = nil }
        }
        guard try !ProfileChecks.processHasOpen(path) else {
            throw ProfileChecks.Failure(description: "\(path) is still open after the last close")
        }
    }

    /// The loop the profiler collects: `operation(i)` for each `i` below `count`.
    @inline(never)
    static func profiledLoop(_ operation: String, _ count: Int, _ body: (Int) throws -> Void) rethrows {
        for index in 0..<count { try body(index) }
    }
}
