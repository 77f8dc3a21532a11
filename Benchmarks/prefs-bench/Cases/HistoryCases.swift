import LayeredDefaults

/// Work item 13: what keeping a key's history costs a durable write.
enum HistoryCases {
    /// The domain size.
    static let size = 1_000
    /// The label of the row of a domain without history.
    static let plainLabel = "durable write, existing key, no history"
    /// The label of the row of a domain that keeps history.
    static let historyLabel = "durable write, existing key, history kept (standard bound)"

    /// Item 13: the durable write of an existing (string) key in a domain without history, and in one
    /// that keeps it (`Defaults.History.standard`: each write also reads the previous value, inserts an
    /// entry and enforces the key's bound, in one transaction instead of one upsert). Two domains of the
    /// same size, measured alternately from round to round; each key's history is at its bound once the
    /// pool has been written over 50 times, as in a long-lived domain.
    static func historyWrite(_ run: BenchRun) throws -> [Row] {
        let workload = Workload(size: size)
        let existing = try Workload.freshPool(of: workload.strings.map(\.key), seed: 6)
        let settings = run.settings.withRepetitions(of: run.options.quick ? 60e6 : 150e6)
        var plain = Row(caseID: "history", item: 13, label: plainLabel, keys: size, unit: .nanoseconds)
        var kept = Row(caseID: "history", item: 13, label: historyLabel, keys: size, unit: .nanoseconds)
        for kind in run.peers([.ours]) {
            let directory = run.sandbox.oursDirectory
            let without = try OursPeer(suite: run.suite(kind, "history", "plain"), directory: directory)
            try without.populate(workload)
            let with = try OursPeer(suite: run.suite(kind, "history", "kept"), directory: directory, history: .standard)
            try with.populate(workload)
            let measureWrites = WriteCases.existingKeyWrites(of: existing, settings)
            for keeping in run.round % 2 == 0 ? [false, true] : [true, false] {
                if keeping { kept[kind] = try measureWrites(with) } else { plain[kind] = try measureWrites(without) }
            }
            guard try with.defaults.keepsHistory, try !without.defaults.keepsHistory else {
                throw PeerError.failed(kind, "history was not kept as configured")
            }
        }
        return [plain, kept]
    }
}
