import LayeredDefaults
import Synchronization

/// The floor of a cached read: a `Mutex`-guarded `[String: PreferenceValue]` lookup, then the same
/// conversion to `String` or `Int` that a typed getter makes. It has no disk: it only reads.
///
/// With registered defaults it is the two-level floor of a registered default: a miss in the domain's
/// dictionary, then a hit in a second dictionary under a second lock. Without, a miss is one hash and
/// one look-up (the second level is not consulted).
final class DictionaryFloor: Peer {
    let kind = PeerKind.floor
    // NB: the one `Mutex` left in the package (which otherwise uses its own `Lock`, which ThreadSanitizer
    // understands): the floor is the cheapest lock Swift has, inlined here; `Lock`'s `package` generic is
    // not specialized across modules. Read by one thread, and never run under ThreadSanitizer.
    private let values: Mutex<[String: PreferenceValue]>
    /// The registration domain: consulted on a miss once ``register(_:)`` gave it something.
    private let registration = Mutex<[String: PreferenceValue]>([:])
    /// Whether the registration domain holds anything: a relaxed load, a plain load on x86-64.
    ///
    /// NB: every field is a `let`: a `var` of a class may be accessed through Swift's runtime exclusivity
    /// check (`swift_beginAccess`, `swift_endAccess`), which a floor must not pay; whether the optimizer
    /// removes it is not this file's to decide (it did here, not in the pthread floor).
    private let hasRegistration = Atomic<Bool>(false)

    /// A dictionary holding the pairs of `workload` (empty without one).
    init(workload: Workload?) {
        values = Mutex(Self.pairs(of: workload))
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

    /// The pairs of `workload` as one dictionary (empty without one): what every floor holds.
    static func pairs(of workload: Workload?) -> [String: PreferenceValue] {
        var values: [String: PreferenceValue] = [:]
        for (key, value) in workload?.strings ?? [] { values[key] = .string(value) }
        for (key, value) in workload?.integers ?? [] { values[key] = .integer(value) }
        return values
    }

    func string(forKey key: String) -> String? {
        value(forKey: key)?.stringValue
    }

    func integer(forKey key: String) -> Int {
        value(forKey: key)?.integerValue ?? 0
    }

    func register(_ values: [String: String]) throws {
        registration.withLock { registered in
            for (key, value) in values { registered[key] = .string(value) }
        }
        hasRegistration.store(true, ordering: .releasing)
    }

    @inline(__always)
    private func value(forKey key: String) -> PreferenceValue? {
        if let value = values.withLock({ $0[key] }) { return value }
        return hasRegistration.load(ordering: .relaxed) ? registration.withLock { $0[key] } : nil
    }
}
