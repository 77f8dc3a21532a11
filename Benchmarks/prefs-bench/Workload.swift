import ToolSupport

/// The keys and values of a domain of a given size, and reproducible random keys over it.
///
/// Half the keys hold a short string (`pref.string.<i>` = `value-<i>`), the other half an integer
/// (`pref.int.<i>` = `i`). Every peer is filled with the same pairs. With ``KeyLength/short`` keys the
/// keys are `k<i>` and `n<i>` instead (the index of at least three digits), with
/// ``KeyLength/reverseDomain`` keys `com.example.app.pref.string.<i>` and `com.example.app.pref.int.<i>`.
struct Workload: Sendable {
    /// How long the keys of a workload are: a hashed read costs more for a longer key, for every peer.
    enum KeyLength: String, Sendable {
        /// `pref.string.<i>`, `pref.int.<i>`: 13-15 bytes at 1,000 keys (12 + the digits).
        case long
        /// `k<i>`, `n<i>` with at least three digits: 4 bytes at 1,000 keys, at most 6 up to 100,000.
        case short
        /// `com.example.app.pref.string.<i>`, `com.example.app.pref.int.<i>`: 29-31 bytes at 1,000 keys,
        /// as an app's reverse-domain keys are; past 15 bytes a `String` is no longer held inline, and an
        /// equal key is compared byte by byte.
        case reverseDomain
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
        let (stringKey, integerKey): (@Sendable (Int) -> String, @Sendable (Int) -> String) =
            switch keyLength {
            case .long: (Self.stringKey, Self.integerKey)
            case .short: (Self.shortStringKey, Self.shortIntegerKey)
            case .reverseDomain: ({ "com.example.app." + Self.stringKey($0) }, { "com.example.app." + Self.integerKey($0) })
            }
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

    /// ``randomPool(of:seed:)`` with each of its keys made anew (see ``madeAnew(_:)``): no two entries,
    /// and no entry and a key of `keys`, share a string's storage.
    /// - Throws: ``KeySharing`` when one does (see ``checkNoSharing(_:with:)``).
    static func freshPool(of keys: [String], seed: UInt64) throws -> [String] {
        let pool = randomPool(of: keys, seed: seed).map(madeAnew)
        try checkNoSharing(pool, with: keys)
        return pool
    }

    /// `key` built anew from its UTF-8 bytes: an equal string with storage of its own, as the key of an
    /// app's lookup is (a literal, or a string it built), never the very instance a store keeps.
    ///
    /// NB: a lookup with the instance a dictionary stored compares equal at once (the same storage); any
    /// other equal key longer than 15 bytes is compared byte by byte. Stores keep the first instance they
    /// were asked with (the absent set, the resolved answers), and a floor keeps the workload's: a pool of
    /// those instances measured a comparison no app makes. A key of at most 15 bytes is a small string,
    /// held in the `String` value itself: equal small strings are the same bits, for an app as here.
    static func madeAnew(_ key: String) -> String {
        String(decoding: Array(key.utf8), as: UTF8.self)
    }

    /// A string's storage is shared: a lookup key would compare by identity.
    struct KeySharing: Error, CustomStringConvertible {
        let key: String
        var description: String { "the lookup key \(key) shares its storage with another key: it would compare by identity" }
    }

    /// Checks that no key of `lookups` longer than 15 bytes (one held in storage of its own) shares that
    /// storage with another of `lookups` or with one of `stored`: equal `String` values (their 16 bytes)
    /// of such a length are one instance.
    /// - Throws: ``KeySharing`` naming the first key that does.
    static func checkNoSharing(_ lookups: [String], with stored: [String]) throws {
        var seen = Set(stored.filter { $0.utf8.count > 15 }.map(bits))
        for key in lookups where key.utf8.count > 15 {
            guard seen.insert(bits(key)).inserted else { throw KeySharing(key: key) }
        }
    }

    /// The 16 bytes of a `String` value: for a string longer than 15 bytes, its storage's address with
    /// its count and flags.
    private static func bits(_ string: String) -> [UInt8] {
        withUnsafeBytes(of: string) { Array($0) }
    }

    /// Every pair as a property list, for Foundation.
    var propertyList: [String: Any] {
        var result: [String: Any] = [:]
        for (key, value) in strings { result[key] = value }
        for (key, value) in integers { result[key] = value }
        return result
    }
}
