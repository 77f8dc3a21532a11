import Foundation

/// Work item 11: the latency of single durable writes, each timed on its own: the tail that a WAL
/// checkpoint adds to the one commit it falls on.
enum WriteLatency {
    /// The peers compared: ours and raw SQLite (with SQLite's own automatic checkpoint).
    static let peers: [PeerKind] = [.ours, .sqlite]

    /// How the writes follow each other.
    enum Pattern: String, CaseIterable {
        /// Without a pause: a process that never idles (ours checkpoints at its backstop only).
        case backToBack = "back to back"
        /// In bursts of ``burstLength`` writes, each followed by a pause of ``pause``: an app between
        /// bursts of changes (ours checkpoints in the pauses).
        case bursts = "in bursts"
    }

    /// The writes of one repetition: at about one log frame a commit, five of SQLite's automatic
    /// checkpoints (one per 1,000 frames).
    static let writesPerRepetition = 5_000
    /// The writes of a burst.
    static let burstLength = 250
    /// The pause after a burst: longer than the store's idle period (it checkpoints a store that
    /// committed nothing for 0.1-0.2 s) plus its checkpoint.
    static let pause = 0.25

    /// The percentiles reported, as (label, fraction); 1 is the slowest write.
    static let percentiles: [(label: String, fraction: Double)] = [("p50", 0.5), ("p99", 0.99), ("p99.9", 0.999), ("max", 1)]

    /// The label of the row of a percentile (or of the ratio p99 / p50) of `pattern`.
    static func label(_ percentile: String, _ pattern: Pattern) -> String {
        "write latency \(percentile), \(pattern.rawValue)"
    }

    /// Item 11: per pattern, repetitions of ``writesPerRepetition`` durable writes of existing keys, each
    /// timed; per repetition, the percentiles of those times and p99 / p50. The first 1,000 writes
    /// after filling the domain, and the pause after them, are untimed: the fill leaves a large log.
    static func run(_ run: BenchRun) throws -> [Row] {
        var rows: [Row] = []
        for size in run.sizes {
            let workload = Workload(size: size)
            let existing = try Workload.freshPool(of: workload.strings.map(\.key), seed: 10)
            for pattern in Pattern.allCases {
                let repetitions = run.options.quick ? 1 : pattern == .bursts ? 3 : 5
                var percentileRows = percentiles.map {
                    Row(caseID: "write-latency", item: 11, label: label($0.label, pattern), keys: size, unit: .nanoseconds)
                }
                var ratioRow = Row(
                    caseID: "write-latency", item: 11, label: label("p99 / p50", pattern), keys: size, unit: .ratio)
                for kind in run.peers(peers) {
                    let suite = run.suite(kind, "latency", pattern == .bursts ? "b" : "c", size)
                    let peer = try run.open(kind, suite: suite, workload: workload)
                    var index = 0
                    func write() throws {
                        try peer.write("changed-\(index)", forKey: existing[index & (Workload.poolSize - 1)])
                        index += 1
                    }
                    for _ in 0..<1_000 { try write() }
                    Thread.sleep(forTimeInterval: pause)
                    var figures = Array(repeating: [Double](), count: percentiles.count)
                    var ratios: [Double] = []
                    var times = [Double](repeating: 0, count: writesPerRepetition)
                    for _ in 0..<repetitions {
                        for slot in times.indices {
                            if pattern == .bursts, slot > 0, slot % burstLength == 0 { Thread.sleep(forTimeInterval: pause) }
                            let start = monotonicNanoseconds()
                            try write()
                            times[slot] = Double(monotonicNanoseconds() - start) - timerOverheadNanoseconds
                        }
                        times.sort()
                        let values = percentiles.map { times[min(times.count - 1, Int(Double(times.count) * $0.fraction))] }
                        for (slot, value) in values.enumerated() { figures[slot].append(value) }
                        ratios.append(values[1] / values[0])
                    }
                    for slot in percentileRows.indices {
                        percentileRows[slot][kind] = Sample(figures[slot], operations: writesPerRepetition)
                    }
                    ratioRow[kind] = Sample(ratios, operations: writesPerRepetition)
                }
                rows += percentileRows + [ratioRow]
            }
        }
        return rows
    }
}
