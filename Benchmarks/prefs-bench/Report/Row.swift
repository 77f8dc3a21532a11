/// One line of the report: one measurement (a case, a variant, a domain size) for every peer.
struct Row: Codable, Sendable {
    /// The unit of a row's figures.
    enum Unit: String, Codable, Sendable {
        /// Nanoseconds per operation (lower is better).
        case nanoseconds = "ns/op"
        /// Kibibytes of resident memory (lower is better).
        case kibibytes = "KiB"
        /// Operations per second (higher is better).
        case operationsPerSecond = "ops/s"
        /// A count of failures (lower is better).
        case count
        /// Events per second, e.g. a process's wake-ups (lower is better).
        case perSecond = "1/s"
        /// A ratio of two figures of the same peer (e.g. p99 / p50; lower is better).
        case ratio
    }

    /// The case's identifier (see ``BenchCase/id``).
    let caseID: String
    /// The benchmark case.
    let item: Int
    /// What the row measures.
    let label: String
    /// The number of keys in the domain, where it matters.
    let keys: Int?
    /// The unit of the figures.
    let unit: Unit
    /// The figure of each peer that took part, by ``PeerKind`` raw value.
    var results: [String: Sample] = [:]

    /// The figure of `kind`, when it took part.
    subscript(kind: PeerKind) -> Sample? {
        get { results[kind.rawValue] }
        set { results[kind.rawValue] = newValue }
    }

    /// Our median divided by `kind`'s, when both took part (and `kind`'s is not zero).
    func ratio(to kind: PeerKind) -> Double? {
        guard let ours = self[.ours]?.median, let other = self[kind]?.median, other != 0 else { return nil }
        return ours / other
    }
}
