/// Work items 6-9: several processes. Each child is a copy of this executable in a hidden role (see
/// ``ChildMode``); the same peer code runs in every process.
enum ProcessCases {
    /// The peers with files that other processes can open.
    static let stores: [PeerKind] = [.ours, .foundation, .sqlite]

    /// Item 6: a new process whose first read is from a domain of 10,000 keys. Inside the process:
    /// from entering the child role to holding the value (opening the store included); and from the
    /// parent's launch to the answer (process start-up included, the same for every peer). The files
    /// are in the page cache: "cold" is the process, not the disk.
    static func coldStart(_ run: BenchRun) throws -> [Row] {
        let workload = Workload(size: 10_000)
        let (key, expected) = workload.strings[workload.strings.count / 3]
        var inside = Row(caseID: "cold-start", item: 6, label: "cold start, open + first read", keys: 10_000, unit: .nanoseconds)
        var launch = Row(
            caseID: "cold-start", item: 6, label: "cold start, launch to first value", keys: 10_000, unit: .nanoseconds)
        for kind in run.peers(stores) {
            let suite = run.suite(kind, "cold-start")
            _ = try run.open(kind, suite: suite, workload: workload)
            var insideValues: [Double] = []
            var launchValues: [Double] = []
            for _ in 0..<run.settings.processRepetitions {
                let start = monotonicNanoseconds()
                let child = try ChildProcess(["cold-start", kind.rawValue, suite, key])
                let answer = try child.readLine()
                launchValues.append(Double(monotonicNanoseconds() - start))
                try child.finish()
                let parts = answer.split(separator: " ", maxSplits: 1).map(String.init)
                guard parts.count == 2, let nanoseconds = Double(parts[0]), parts[1] == expected else {
                    throw PeerError.failed(kind, "cold start read '\(answer)', expected '\(expected)'")
                }
                insideValues.append(nanoseconds)
            }
            inside[kind] = Sample(insideValues, operations: 1)
            launch[kind] = Sample(launchValues, operations: 1)
        }
        return [inside, launch]
    }

    /// The peers of the memory case: the stores, and the dictionary floor (a plain
    /// `[String: PreferenceValue]` of the same content, the floor of a cache).
    static let memoryPeers: [PeerKind] = stores + [.floor]

    /// The label of the memory case's cache cost row.
    static let cacheCostLabel = "cache cost: every key read - first read"

    /// Item 7: peak resident memory (`VmHWM`) of a new process with a domain of 100,000 keys: before
    /// opening it, after the first read, and after reading every key (the dictionary floor is filled
    /// with the same keys and values then). The cache cost is the growth from the first read to every
    /// key: what holding the values costs, without the process and the open connections (ours also
    /// fills SQLite's page cache there, bounded by `cache_size`, as raw SQLite does; see the target).
    static func memory(_ run: BenchRun) throws -> [Row] {
        let keys = 100_000
        let workload = Workload(size: keys)
        var baseline = Row(caseID: "memory", item: 7, label: "peak RSS, process before opening", keys: keys, unit: .kibibytes)
        var first = Row(caseID: "memory", item: 7, label: "peak RSS, after the first read", keys: keys, unit: .kibibytes)
        var every = Row(caseID: "memory", item: 7, label: "peak RSS, after reading every key", keys: keys, unit: .kibibytes)
        var cost = Row(caseID: "memory", item: 7, label: cacheCostLabel, keys: keys, unit: .kibibytes)
        for kind in run.peers(memoryPeers) {
            let suite = run.suite(kind, "memory")
            if kind != .floor { _ = try run.open(kind, suite: suite, workload: workload) }
            let child = try ChildProcess(["memory", kind.rawValue, suite, "\(keys)"])
            let figures = try child.readLine().split(separator: " ").compactMap { Double($0) }
            try child.finish()
            guard figures.count == 3 else { throw PeerError.failed(kind, "the memory child answered \(figures)") }
            baseline[kind] = Sample(exactly: figures[0])
            first[kind] = Sample(exactly: figures[1])
            every[kind] = Sample(exactly: figures[2])
            cost[kind] = Sample(exactly: figures[2] - figures[1])
        }
        return [baseline, first, every, cost]
    }

    /// Item 8: two processes writing distinct keys to one suite at the same time, each write durable.
    /// Writes per second together, and keys missing afterwards (counted by a third, new process).
    static func twoWriters(_ run: BenchRun) throws -> [Row] {
        let count = run.options.quick ? 200 : 1000
        var speed = Row(
            caseID: "two-writers", item: 8, label: "two writers, writes/s together", keys: nil, unit: .operationsPerSecond)
        var lost = Row(caseID: "two-writers", item: 8, label: "two writers, keys lost of \(2 * count)", keys: nil, unit: .count)
        for kind in run.peers(stores) {
            var speeds: [Double] = []
            var losses: [Double] = []
            for repetition in 0..<(run.options.quick ? 1 : 3) {
                let suite = run.suite(kind, "two-writers", repetition)
                _ = try run.open(kind, suite: suite, workload: Workload(size: 2))
                let writers = try ["a", "b"].map { try ChildProcess(["writer", kind.rawValue, suite, $0, "\(count)"]) }
                for writer in writers where try writer.readLine() != "ready" {
                    throw PeerError.failed(kind, "a writer did not start")
                }
                let start = monotonicNanoseconds()
                for writer in writers { writer.send("go") }
                let answers = try writers.map { try $0.readLine() }
                let elapsed = Double(monotonicNanoseconds() - start)
                for writer in writers { try writer.finish() }
                let failures = answers.compactMap { Int($0.split(separator: " ").last ?? "") }.reduce(0, +)
                if failures > 0 { run.progress("  \(kind.rawValue): \(failures) writes failed (reported above)") }
                let counter = try ChildProcess(["count", kind.rawValue, suite, "\(count)", "a", "b"])
                guard let found = Int(try counter.readLine()) else {
                    throw PeerError.failed(kind, "the count child did not answer")
                }
                try counter.finish()
                speeds.append(Double(2 * count) / elapsed * 1e9)
                losses.append(Double(2 * count - found))
            }
            speed[kind] = Sample(speeds, operations: 2 * count)
            lost[kind] = Sample(losses, operations: 2 * count)
        }
        return [speed, lost]
    }

    /// Item 9: process A (this one) writes a key durably, then tells process B, which has read the key
    /// before (a hot cache); B's next read must return the new value. Stale reads, the time of one
    /// round (write, signal, read, answer), and the cost of the change check itself (see ``ChangeCheck``).
    static func freshness(_ run: BenchRun) throws -> [Row] {
        let rounds = run.options.quick ? 50 : 200
        let key = "pref.fresh"
        var stale = Row(caseID: "freshness", item: 9, label: "freshness, stale reads of \(rounds)", keys: 100, unit: .count)
        var round = Row(caseID: "freshness", item: 9, label: "freshness, write + signal + read", keys: 100, unit: .nanoseconds)
        var check = Row(
            caseID: "freshness", item: 9, label: "change check (ours: WAL-index header; SQLite: data_version)",
            keys: nil, unit: .nanoseconds)
        for kind in run.peers(stores) {
            let suite = run.suite(kind, "freshness")
            let writer = try run.open(kind, suite: suite, workload: Workload(size: 100))
            try writer.write("fresh-start", forKey: key)
            let reader = try ChildProcess(["fresh-reader", kind.rawValue, suite, key])
            guard try reader.readLine() == "ready" else { throw PeerError.failed(kind, "the reader did not start") }
            var staleReads = 0
            var times: [Double] = []
            for index in 0..<rounds {
                let value = "fresh-\(index)"
                let start = monotonicNanoseconds()
                try writer.write(value, forKey: key)
                reader.send(value)
                let answer = try reader.readLine()
                times.append(Double(monotonicNanoseconds() - start))
                if answer != "ok" { staleReads += 1 }
            }
            reader.send("quit")
            try reader.finish()
            stale[kind] = Sample(exactly: Double(staleReads))
            round[kind] = Sample(times, operations: 1)
            switch kind {
            case .ours:
                let path = run.sandbox.oursDirectory.appendingPathComponent(suite + ".sqlite3").path
                check[kind] = ChangeCheck.measureHeader(try ChangeCheck.WALIndexHeader(databasePath: path), run.settings)
            case .sqlite:
                check[kind] = (writer as? RawSQLitePeer).map { ChangeCheck.measureDataVersion($0, run.settings) }
            default:
                break
            }
        }
        return [stale, round, check]
    }
}
