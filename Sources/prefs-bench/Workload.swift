import ToolSupport

/// The keys and values of a domain of a given size, and reproducible random keys over it.
///
/// Half the keys hold a short string (`pref.string.<i>` = `value-<i>`), the other half an integer
/// (`pref.int.<i>` = `i`). Every peer is filled with the same pairs. With ``KeyLength/short`` keys the
/// keys are `k<i>` and `n<i>` instead (the index of at least three digits).
struct Workload: Sendable {
    /// How long the keys of a workload are: a hashed read costs more for a longer key, for every peer.
    enum KeyLength: String, Sendable {
        /// `pref.string.<i>`, `pref.int.<i>`: 13-15 bytes at 1,000 keys (12 + the digits).
        case long
        /// `k<i>`, `n<i>` with at least three digits: 4 bytes at 1,000 keys, at most 6 up to 100,000.
        case short
    }

    /// The number of keys in the domain.
    let size: Int
    /// The length of the keys.
    let keyLength: KeyLength
    /// The string-valued pairs.
    let strings: [(key: String, value: String)]
    /// The integer-valued pairs.
    let integers: [(key: String, value: Int)]

    /// The domain of `size` keys, of `keyLength`.
    init(size: Int, keyLength: KeyLength = .long) {
        self.size = size
        self.keyLength = keyLength
        let stringKey = keyLength == .long ? Self.stringKey : Self.shortStringKey
        let integerKey = keyLength == .long ? Self.integerKey : Self.shortIntegerKey
        strings = (0..<(size / 2)).map { (stringKey($0), Self.stringValue($0)) }
        integers = (0..<(size - size / 2)).map { (integerKey($0), $0) }
    }

    /// The key of the `index`th string.
    static func stringKey(_ index: Int) -> String { "pref.string.\(index)" }
    /// The value of the `index`th string.
    static func stringValue(_ index: Int) -> String { "value-\(index)" }
    /// The key of the `index`th integer.
    static func integerKey(_ index: Int) -> String { "pref.int.\(index)" }
    /// The short key of the `index`th string: `k000`, `k001`, ..., `k1000`.
    static func shortStringKey(_ index: Int) -> String { "k" + threeDigits(index) }
    /// The short key of the `index`th integer: `n000`, ...
    static func shortIntegerKey(_ index: Int) -> String { "n" + threeDigits(index) }
    /// `index` in decimal, with leading zeros to three digits.
    private static func threeDigits(_ index: Int) -> String {
        let digits = String(index)
        return String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }
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
