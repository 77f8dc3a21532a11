/// One benchmark case: an identifier for `--filter`, the peers it compares, and the
/// measurement producing its rows.
struct BenchCase: Sendable {
    /// The identifier `--filter` matches.
    let id: String
    /// The number of the case, as the report lists it.
    let item: Int
    /// What it measures.
    let title: String
    /// The peers it compares.
    let peers: [PeerKind]
    /// True when it is measured at each domain size (100, 10,000, 100,000 keys).
    var sized = false
    /// The domain sizes it is measured at, when ``sized``.
    var sizes = Conductor.sizes
    /// Peers left out of a `--quick` run, with the reason.
    var quickSkips: [PeerKind: String] = [:]
    /// Measures the case for the run's peers and sizes, and returns its rows.
    let run: @Sendable (BenchRun) throws -> [Row]

    /// Every case, in report order.
    static let all: [BenchCase] = [
        BenchCase(
            id: "hot-read", item: 1, title: "hot read of a stored string and a stored int",
            peers: ReadCases.readers, sized: true, run: ReadCases.hotRead),
        BenchCase(
            id: "fallthrough", item: 2, title: "read falling through to the registration domain; read of a missing key",
            peers: ReadCases.readers, sized: true, run: ReadCases.fallThrough),
        BenchCase(
            id: "read-after-write", item: 3, title: "read right after a write",
            peers: WriteCases.writers, sized: true, run: ReadCases.readAfterWrite),
        BenchCase(
            id: "write", item: 4, title: "durable single write, of a new and of an existing key",
            peers: WriteCases.writers, sized: true, run: WriteCases.durableWrite),
        BenchCase(
            id: "batch", item: 5, title: "batch of 10,000 writes", peers: WriteCases.writers,
            quickSkips: [
                .foundation: "Foundation's batch (setPersistentDomain, quadratic on Linux) takes 20-30 s: not run with --quick"
            ],
            run: WriteCases.batch),
        BenchCase(
            id: "cold-start", item: 6, title: "cold start: a new process's first read of a 10,000-key domain",
            peers: ProcessCases.stores, run: ProcessCases.coldStart),
        BenchCase(
            id: "memory", item: 7, title: "peak resident memory with a domain of 100,000 keys",
            peers: ProcessCases.memoryPeers, run: ProcessCases.memory),
        BenchCase(
            id: "two-writers", item: 8, title: "two processes writing one suite at once",
            peers: ProcessCases.stores, run: ProcessCases.twoWriters),
        BenchCase(
            id: "freshness", item: 9, title: "cross-process freshness", peers: ProcessCases.stores, run: ProcessCases.freshness),
        BenchCase(
            id: "observers", item: 10, title: "durable write while 100 observers watch other keys", peers: [.ours],
            run: ObserverCases.observedWrite),
        BenchCase(
            id: "write-latency", item: 11,
            title: "latency of single durable writes, back to back and in bursts (the checkpoints' tail)",
            peers: WriteLatency.peers, sized: true, sizes: [100, 100_000], run: WriteLatency.run),
        BenchCase(
            id: "observation", item: 12,
            title: "another process's write seen by an observer; an idle observing process's wake-ups",
            peers: CrossProcessObservation.peers, run: CrossProcessObservation.run),
        BenchCase(
            id: "history", item: 13, title: "durable write of an existing key, without and with the key's history kept",
            peers: [.ours], run: HistoryCases.historyWrite),
        BenchCase(
            id: "sync", item: 14, title: "durable write of a synced key beside a key and a domain that do not sync",
            peers: [.ours], run: SyncCases.syncedWrite),
    ]

    /// The cases `filter` selects: the one whose identifier it is, else those containing it; all without one.
    static func selected(by filter: String?) -> [BenchCase] {
        guard let filter else { return all }
        let exact = all.filter { $0.id == filter }
        return exact.isEmpty ? all.filter { $0.id.contains(filter) } : exact
    }
}
