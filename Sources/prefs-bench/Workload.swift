import ToolSupport

/// The keys and values of a domain of a given size, and reproducible random keys over it.
///
/// Half the keys hold a short string (`pref.string.<i>` = `value-<i>`), the other half an integer
/// (`pref.int.<i>` = `i`). Every peer is filled with the same pairs.
struct Workload: Sendable {
    /// The number of keys in the domain.
    let size: Int
    /// The string-valued pairs.
    let strings: [(key: String, value: String)]
    /// The integer-valued pairs.
    let integers: [(key: String, value: Int)]

    /// The domain of `size` keys.
    init(size: Int) {
        self.size = size
        strings = (0..<(size / 2)).map { (Self.stringKey($0), Self.stringValue($0)) }
        integers = (0..<(size - size / 2)).map { (Self.integerKey($0), $0) }
    }

    /// The key of the `index`th string.
    static func stringKey(_ index: Int) -> String { "pref.string.\(index)" }
    /// The value of the `index`th string.
    static func stringValue(_ index: Int) -> String { "value-\(index)" }
    /// The key of the `index`th integer.
    static func integerKey(_ index: Int) -> String { "pref.int.\(index)" }
    /// A key no domain holds.
    static func missingKey(_ index: Int) -> String { "pref.missing.\(index)" }
    /// A key of the registration domain only.
    static func registeredKey(_ index: Int) -> String { "pref.registered.\(index)" }
    /// A key that is not in the domain until a case writes it.
    static func newKey(_ index: Int) -> String { "pref.new.\(index)" }

    /// How many random keys a read loop cycles through (a power of two).
    static let poolSize = 16_384

    /// ``poolSize`` keys drawn uniformly (with repeats) from `keys`, the same for every peer.
    static func randomPool(of keys: [String], seed: UInt64) -> [String] {
        var generator = SplitMix64(seed: seed)
        return (0..<poolSize).map { _ in keys[Int(generator.next() % UInt64(keys.count))] }
    }

    /// Every pair as a property list, for Foundation.
    var propertyList: [String: Any] {
        var result: [String: Any] = [:]
        for (key, value) in strings { result[key] = value }
        for (key, value) in integers { result[key] = value }
        return result
    }
}
