/// What searches found for keys that their persistent domain does not hold: the value from the suites,
/// the global domain or the registration domain, or nil for a key no domain holds.
///
/// A read that falls through to a registered default or finds nothing then costs one lock and one
/// lookup here, instead of the search list's lock and a lookup in every other domain. Its entries are
/// valid for one ``ChangeStamp`` of the stores searched after the persistent domain: any change through
/// the instance or commit by anyone, seen by the next read, empties it. It keeps at most ``limit`` keys.
struct FallThroughCache {
    /// How many keys the cache keeps; past it, it starts again empty.
    static let limit = 4096

    /// The state the entries were found in (nil: none yet).
    private var stamp: ChangeStamp?
    /// The values found, by key: `.some(nil)` is a key no domain holds.
    private(set) var entries: [String: PreferenceValue?] = [:]

    /// What the cache knows of `key` when nothing changed since its entries were found (`changes` is
    /// the instance's count now): `.some(value)` (nil: no domain holds it), else nil; entries found in
    /// an older state are dropped.
    mutating func value(forKey key: String, changes: Int) -> PreferenceValue?? {
        guard let stamp, stamp.isCurrent(changes: changes) else {
            entries.removeAll()
            return nil
        }
        return entries[key]
    }

    /// Remembers `value` for `key`, found by a search that began in `stamp`; the cache starts again
    /// from `stamp` when its entries belong to another state.
    mutating func remember(_ value: PreferenceValue?, forKey key: String, stamp: ChangeStamp) {
        if self.stamp != stamp {
            self.stamp = stamp
            entries.removeAll()
        }
        if entries.count >= Self.limit { entries.removeAll(keepingCapacity: true) }
        entries[key] = .some(value)
    }
}
