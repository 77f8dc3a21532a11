/// Work items 4 and 5: durable writes, one at a time and in a batch.
enum WriteCases {
    /// The peers that write.
    static let writers: [PeerKind] = [.ours, .foundation, .sqlite]

    /// Item 4: one durable write (committed when it returns) of a new key, and of an existing key.
    ///
    /// The new key is removed again after each timed write (untimed), so the domain keeps its size;
    /// a WAL checkpoint falls to whichever commit crosses the threshold, so the timed inserts carry
    /// their share. Repetitions are long enough to hold several checkpoints.
    static func durableWrite(_ run: BenchRun) throws -> [Row] {
        let settings = run.settings.withRepetitions(of: run.options.quick ? 60e6 : 150e6)
        var rows: [Row] = []
        for size in run.sizes {
            let workload = Workload(size: size)
            let existing = try Workload.freshPool(of: workload.strings.map(\.key), seed: 6)
            var newRow = Row(caseID: "write", item: 4, label: "durable write, new key", keys: size, unit: .nanoseconds)
            var existingRow = Row(caseID: "write", item: 4, label: "durable write, existing key", keys: size, unit: .nanoseconds)
            for kind in run.peers(writers) {
                let peer = try run.open(kind, suite: run.suite(kind, "write", size), workload: workload)
                newRow[kind] = try measureEach(settings) { index in
                    let key = Workload.newKey(index)
                    let start = monotonicNanoseconds()
                    try peer.write("new-\(index)", forKey: key)
                    let elapsed = monotonicNanoseconds() - start
                    try peer.remove(forKey: key)
                    return elapsed
                }
                existingRow[kind] = try measure(settings) { range in
                    for index in range { try peer.write("changed-\(index)", forKey: existing[index & (Workload.poolSize - 1)]) }
                }
                guard peer.string(forKey: workload.strings[0].key) != nil, peer.string(forKey: Workload.newKey(0)) == nil else {
                    throw PeerError.failed(kind, "the domain is not as written")
                }
            }
            rows += [newRow, existingRow]
        }
        return rows
    }

    /// The number of writes in a batch.
    static let batchSize = 10_000

    /// The measurement of durable writes of existing keys, `pool` in turn, each a value not written before
    /// (the counter goes on from one measurement to the next): what items 10 and 13 time with and without
    /// what they add (observers, a history), alternately, on one peer each.
    static func existingKeyWrites(of pool: [String], _ settings: MeasureSettings) -> (any Peer) throws -> Sample {
        var next = 0
        return { peer in
            try measure(settings) { range in
                for index in range {
                    try peer.write("changed-\(next + index)", forKey: pool[index & (Workload.poolSize - 1)])
                }
                next += range.count
            }
        }
    }

    /// Item 5: 10,000 writes through the batch API (ours: `transaction`; Foundation:
    /// `setPersistentDomain` + `synchronize()`; SQLite: the upserts between `BEGIN IMMEDIATE` and
    /// `COMMIT`), rewriting every key of a 10,000-key domain with a new string. Reported per row;
    /// a repetition holds several batches (and so its share of checkpoints).
    static func batch(_ run: BenchRun) throws -> [Row] {
        let workload = Workload(size: batchSize)
        let keys = workload.strings.map(\.key) + workload.integers.map(\.key)
        let batches = ["a", "b"].map { tag in keys.enumerated().map { (key: $1, value: "batch-\(tag)-\($0)") } }
        var row = Row(caseID: "batch", item: 5, label: "batch of 10,000 writes, per row", keys: batchSize, unit: .nanoseconds)
        for kind in run.peers(writers) {
            let peer = try run.open(kind, suite: run.suite(kind, "batch"), workload: workload)
            row[kind] = try measure(run.settings.withRepetitions(of: run.options.quick ? 60e6 : 200e6)) { range in
                for index in range { try peer.writeBatch(batches[index % 2]) }
            }.divided(by: Double(batchSize))
            guard let last = peer.string(forKey: keys[batchSize - 1]), last.hasPrefix("batch-") else {
                throw PeerError.failed(kind, "the batch did not read back")
            }
        }
        return [row]
    }
}
