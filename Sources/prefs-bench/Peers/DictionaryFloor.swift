import LayeredDefaults
import Synchronization

/// The floor of a cached read: a `Mutex`-guarded `[String: PreferenceValue]` lookup, then the same
/// conversion to `String` or `Int` that a typed getter makes. It has no disk: it only reads.
final class DictionaryFloor: Peer {
    let kind = PeerKind.floor
    // NB: the one `Mutex` left in the package (which otherwise uses its own `Lock`, which ThreadSanitizer
    // understands): the floor is the cheapest lock Swift has, inlined here; `Lock`'s `package` generic is
    // not specialized across modules. Read by one thread, and never run under ThreadSanitizer.
    private let values: Mutex<[String: PreferenceValue]>

    /// A dictionary holding the pairs of `workload` (empty without one).
    init(workload: Workload?) {
        var values: [String: PreferenceValue] = [:]
        for (key, value) in workload?.strings ?? [] { values[key] = .string(value) }
        for (key, value) in workload?.integers ?? [] { values[key] = .integer(value) }
        self.values = Mutex(values)
    }

    /// A dictionary holding the pairs of a workload of `size` keys, as a store holds them once every key
    /// was read: built one key at a time in the order the memory case reads them (so it grows as a
    /// cache does), each key made anew (no workload shares its strings).
    init(fillingLike size: Int) {
        var values: [String: PreferenceValue] = [:]
        for index in 0..<(size / 2) { values[Workload.stringKey(index)] = .string(Workload.stringValue(index)) }
        for index in 0..<(size - size / 2) { values[Workload.integerKey(index)] = .integer(index) }
        self.values = Mutex(values)
    }

    func string(forKey key: String) -> String? {
        values.withLock { $0[key] }?.stringValue
    }

    func integer(forKey key: String) -> Int {
        values.withLock { $0[key] }?.integerValue ?? 0
    }
}
