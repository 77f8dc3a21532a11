import LayeredDefaults

/// Work item 10: a durable write while observers watch other keys of the domain.
enum ObserverCases {
    /// How many observers watch while the second row writes.
    static let observerCount = 100
    /// The domain size.
    static let size = 1_000
    /// The label of the row without observers.
    static let unobservedLabel = "durable write, existing key, no observer"
    /// The label of the row with ``observerCount`` observers.
    static let observedLabel = "durable write, existing key, \(observerCount) observers of other keys"

    /// Item 10: the durable write of an existing (string) key, with no observer and with
    /// ``observerCount`` observers registered through `observe(.key(_:), initial: false)` on integer keys of the
    /// domain (never written here). The two alternate in order from round to round.
    ///
    /// NB: observations are evaluated on a thread of their own: on a 2-core machine its work competes
    /// with the writer, so this is the time a writer sees; `--child profile write-observed` counts the
    /// instructions of both.
    static func observedWrite(_ run: BenchRun) throws -> [Row] {
        let workload = Workload(size: size)
        let existing = try Workload.freshPool(of: workload.strings.map(\.key), seed: 6)
        let settings = run.settings.withRepetitions(of: run.options.quick ? 60e6 : 150e6)
        var unobserved = Row(caseID: "observers", item: 10, label: unobservedLabel, keys: size, unit: .nanoseconds)
        var observed = Row(caseID: "observers", item: 10, label: observedLabel, keys: size, unit: .nanoseconds)
        for kind in run.peers([.ours]) {
            let peer = try run.open(kind, suite: run.suite(kind, "observers"), workload: workload)
            guard let ours = peer as? OursPeer else { throw PeerError.unsupported(kind, "observe") }
            let measureWrites = WriteCases.existingKeyWrites(of: existing, settings)
            for observing in run.round % 2 == 0 ? [false, true] : [true, false] {
                if observing {
                    let observations = observeOtherKeys(ours.defaults)
                    observed[kind] = try measureWrites(peer)
                    for observation in observations { observation.cancel() }
                } else {
                    unobserved[kind] = try measureWrites(peer)
                }
            }
        }
        return [unobserved, observed]
    }

    /// ``observerCount`` observations of integer keys of the domain, each with an empty handler.
    static func observeOtherKeys(_ defaults: Defaults) -> [DefaultsObservation] {
        (0..<observerCount).map { defaults.observe(.key(Workload.integerKey($0)), initial: false) { _ in } }
    }
}
