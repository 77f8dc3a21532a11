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
/// `missing` and `registered` (the domain filled, then opened anew and read key by key, as an app meets
/// them: nothing reads the whole domain first), `read-after-write`, `write-existing`,
/// `write-observed` (`write-existing` while 100 observers watch other keys: ours only; their evaluations
/// run on a thread of their own, which `--toggle-collect` leaves out: run without it, with
/// `--collect-atstart=yes`, and subtract a run of 0 operations to count both threads),
/// `write-new` (each followed by its removal), `batch` (`<count>` batches rewriting every key of the domain),
/// `open` (the store opened, one key read, the store closed again: cold start without the process).
/// Foundation is refused unless `HOME` is the sandbox's (see ``Sandbox``).
enum ProfileMode {
    /// The operations, by name.
    static let operations = [
        "hot-read", "hot-read-short", "missing", "registered", "read-after-write", "write-existing", "write-observed",
        "write-new", "batch",
        "open",
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
        let operation = arguments[0]
        let workload = Workload(size: keys, keyLength: operation == "hot-read-short" ? .short : .long)
        let suite = "profile.\(kind.tag).\(getpid())"
        if operation == "open" { return try profileOpen(kind, suite: suite, in: sandbox, workload: workload, count: count) }
        let peer = try kind.open(
            suite: suite, in: sandbox, workload: workload, asAnAppMeetsIt: operation == "missing" || operation == "registered")
        ReadCases.warm(peer, workload)
        let pool = Workload.randomPool(
            of: operation == "missing"
                ? (0..<1000).map(Workload.missingKey)
                : operation == "registered" ? (0..<1000).map(Workload.registeredKey) : workload.strings.map(\.key), seed: 7)
        if operation == "registered" {
            try peer.register(Dictionary(pool.map { ($0, "registered") }, uniquingKeysWith: { first, _ in first }))
        }
        for key in pool { consume(peer.string(forKey: key)?.utf8.count ?? 0) }
        var observations: [DefaultsObservation] = []
        if operation == "write-observed" {
            guard let ours = peer as? OursPeer else { throw PeerError.unsupported(kind, "observe") }
            observations = ObserverCases.observeOtherKeys(ours.defaults)
        }
        defer { for observation in observations { observation.cancel() } }
        let domainKeys = workload.strings.map(\.key) + workload.integers.map(\.key)
        let batches = ["a", "b"].map { tag in domainKeys.enumerated().map { (key: $1, value: "batch-\(tag)-\($0)") } }
        // NB: the operation is resolved before the loop: matching its name there cost both sides the same
        // instructions an iteration (string comparisons, about 45 for `missing`), diluting the ratios.
        let step = Step(operation)
        try profiledLoop(operation, count) { index in
            let key = pool[index & (Workload.poolSize - 1)]
            switch step {
            case .read: consume(peer.string(forKey: key)?.utf8.count ?? 0)
            case .readAfterWrite:
                try peer.plainWrite("after-\(index)", forKey: key)
                consume(peer.string(forKey: key)?.utf8.count ?? 0)
            case .write: try peer.write("changed-\(index)", forKey: key)
            case .writeNew:
                try peer.write("new-\(index)", forKey: Workload.newKey(index))
                try peer.remove(forKey: Workload.newKey(index))
            case .batch: try peer.writeBatch(batches[index % 2])
            }
        }
    }

    /// What one iteration of the profiled loop does, by operation.
    private enum Step {
        case read, readAfterWrite, write, writeNew, batch

        init(_ operation: String) {
            switch operation {
            case "hot-read", "hot-read-short", "missing", "registered": self = .read
            case "read-after-write": self = .readAfterWrite
            case "write-existing", "write-observed": self = .write
            case "write-new": self = .writeNew
            default: self = .batch
            }
        }
    }

    /// `open`: fills the domain, closes it, then `count` times opens it, reads one key and closes it.
    private static func profileOpen(_ kind: PeerKind, suite: String, in sandbox: Sandbox, workload: Workload, count: Int) throws {
        _ = try kind.open(suite: suite, in: sandbox, workload: workload)
        let (key, expected) = workload.strings[workload.strings.count / 3]
        // NB: raw SQLite is opened from its path, made before the loop, as a minimal app holds it: building
        // it from the sandbox's URLs cost about 50,000 instructions an open, Foundation's, not SQLite's.
        // Ours likewise gets its directory's URL made before the loop (appending to the sandbox's URL was
        // about 10,800 instructions an open).
        let sqlitePath = sandbox.sqliteDirectory.appendingPathComponent(suite + ".sqlite3").path
        let oursDirectory = sandbox.oursDirectory
        try profiledLoop("open", count) { _ in
            let peer: any Peer =
                switch kind {
                case .sqlite: try RawSQLitePeer(path: sqlitePath)
                case .ours: try OursPeer(suite: suite, directory: oursDirectory)
                default: try kind.open(suite: suite, in: sandbox)
                }
            guard peer.string(forKey: key) == expected else { throw PeerError.failed(kind, "the first read of \(key) failed") }
        }
    }

    /// The loop the profiler collects: `operation(i)` for each `i` below `count`.
    @inline(never)
    static func profiledLoop(_ operation: String, _ count: Int, _ body: (Int) throws -> Void) rethrows {
        for index in 0..<count { try body(index) }
    }
}
