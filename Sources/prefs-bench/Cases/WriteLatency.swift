/// Work item 10: the latency of single durable writes, each timed on its own: the tail that a WAL
/// checkpoint adds to the one commit it falls on.
enum WriteLatency {
    /// The peers compared: ours and raw SQLite (with SQLite's own automatic checkpoint).
    static let peers: [PeerKind] = [.ours, .sqlite]

    /// The writes of one repetition: at one or two log frames a commit, several of SQLite's automatic
    /// checkpoints (one per 1,000 frames).
    static let writesPerRepetition = 5_000

    /// The percentiles reported, as (label, fraction).
    static let percentiles: [(label: String, fraction: Double)] = [("p50", 0.5), ("p99", 0.99), ("p99.9", 0.999)]

    /// The label of the row of a percentile (or of the ratio p99 / p50).
    static func label(_ percentile: String) -> String { "write latency \(percentile), existing key" }

    /// Item 10: ``writesPerRepetition`` durable writes of existing keys, back to back, each timed; per
    /// repetition, the percentiles of those times and p99 / p50. The first 1,000 writes after filling
    /// the domain are untimed: the fill leaves a log that the first commits checkpoint.
    static func run(_ run: BenchRun) throws -> [Row] {
        let repetitions = run.options.quick ? 2 : 5
        var rows: [Row] = []
        for size in run.sizes {
            let workload = Workload(size: size)
            let existing = Workload.randomPool(of: workload.strings.map(\.key), seed: 10)
            var percentileRows = percentiles.map {
                Row(caseID: "write-latency", item: 10, label: label($0.label), keys: size, unit: .nanoseconds)
            }
            var ratioRow = Row(caseID: "write-latency", item: 10, label: label("p99 / p50"), keys: size, unit: .ratio)
            for kind in run.peers(peers) {
                let peer = try run.open(kind, suite: run.suite(kind, "latency", size), workload: workload)
                var index = 0
                func write() throws {
                    try peer.write("changed-\(index)", forKey: existing[index & (Workload.poolSize - 1)])
                    index += 1
                }
                for _ in 0..<1_000 { try write() }
                var figures = Array(repeating: [Double](), count: percentiles.count)
                var ratios: [Double] = []
                var times = [Double](repeating: 0, count: writesPerRepetition)
                for _ in 0..<repetitions {
                    for slot in times.indices {
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
        return rows
    }
}
