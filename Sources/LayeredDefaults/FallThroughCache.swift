/// What a search found for keys that its persistent domain does not hold: the value from the suites,
/// the global domain or the registration domain, or nil for a key no domain holds.
///
/// A read that falls through to a registered default or finds nothing then costs one lock and one
/// lookup here, instead of the search list's lock and a lookup in every other domain. Its entries are
/// valid for one state of everything they depend on: the instance's ``Defaults/changeGeneration``
/// (every change through the instance: registration, suites, argument domain, writes to other domains)
/// and the fingerprint of each store searched after the persistent domain (a commit by anyone). Any
/// difference, seen by the next read, empties it. It keeps at most ``limit`` keys.
struct FallThroughCache {
    /// How many keys the cache keeps; past it, it starts again empty.
    static let limit = 4096

    /// The instance's change generation the entries were found in.
    private var generation = -1
    /// The stores searched after the persistent domain, and their fingerprints, taken before the entries'
    /// searches began.
    private var stores: [(store: DomainStore, fingerprint: ChangeSignal.Fingerprint)] = []
    /// The values found, by key: `.some(nil)` is a key no domain holds.
    private(set) var entries: [String: PreferenceValue?] = [:]

    /// The state a search depends on, read before it begins.
    struct Basis {
        /// ``Defaults/changeGeneration`` when the search began.
        let generation: Int
        /// The stores searched after the persistent domain, with their fingerprints when the search began.
        let stores: [(store: DomainStore, fingerprint: ChangeSignal.Fingerprint)]
    }

    /// What the cache knows of `key` when nothing changed since its entries were found: `.some(value)`
    /// (nil: no domain holds it), else nil; entries found in an older state are dropped.
    mutating func value(forKey key: String, generation current: Int) -> PreferenceValue?? {
        guard isCurrent(generation: current) else {
            entries.removeAll()
            return nil
        }
        return entries[key]
    }

    /// Remembers `value` for `key`, found by a search that began in `basis`; the cache starts again
    /// from `basis` when its entries belong to another state.
    mutating func remember(_ value: PreferenceValue?, forKey key: String, basis: Basis) {
        if generation != basis.generation || !Self.sameStores(stores, basis.stores) {
            generation = basis.generation
            stores = basis.stores
            entries.removeAll()
        }
        if entries.count >= Self.limit { entries.removeAll(keepingCapacity: true) }
        entries[key] = .some(value)
    }

    /// True when `current` is the generation of the entries and no store committed since they were found.
    private func isCurrent(generation current: Int) -> Bool {
        guard current == generation else { return false }
        for (store, fingerprint) in stores where store.fingerprint != fingerprint { return false }
        return true
    }

    private static func sameStores(
        _ a: [(store: DomainStore, fingerprint: ChangeSignal.Fingerprint)],
        _ b: [(store: DomainStore, fingerprint: ChangeSignal.Fingerprint)]
    ) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.store === $1.store && $0.fingerprint == $1.fingerprint }
    }
}
