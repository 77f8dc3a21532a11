import Foundation

extension Set: PreferenceRepresentable where Element: PreferenceRepresentable {
    /// The set of an array's elements, when every element converts; an element stored twice is one
    /// element of the set.
    public init?(preferenceValue: PreferenceValue) {
        guard let elements = [Element](preferenceValue: preferenceValue) else { return nil }
        self.init(elements)
    }

    /// An array of the elements' preferences, in ascending order of those stored values, so the same set
    /// is stored the same way every time: strings (raw values of string enums too), numbers and dates
    /// ascending (`["dark", "light"]`, `[1, 2, 3]`), false before true, data, arrays and dictionaries in
    /// lexicographic order.
    /// - Throws: what an element's encoding throws (only ``CodablePreference`` types can fail).
    public func preferenceValue() throws -> PreferenceValue {
        .array(try map { try $0.preferenceValue() }.sorted(by: PreferenceValue.precedesInStoredOrder))
    }
}

extension PreferenceValue {
    /// True when `first` comes before `second` in the order a set's elements are stored in: by kind
    /// (string, integer, double, bool, date, data, array, dictionary), then by value. A total order:
    /// NaN included, and dictionaries compared by their sorted keys, then their values in that order.
    static func precedesInStoredOrder(_ first: PreferenceValue, _ second: PreferenceValue) -> Bool {
        switch (first, second) {
        case (.string(let a), .string(let b)): return a < b
        case (.integer(let a), .integer(let b)): return a < b
        case (.double(let a), .double(let b)): return precedesTotally(a, b)
        case (.bool(let a), .bool(let b)): return !a && b
        case (.date(let a), .date(let b)):
            return precedesTotally(a.timeIntervalSinceReferenceDate, b.timeIntervalSinceReferenceDate)
        case (.data(let a), .data(let b)): return a.lexicographicallyPrecedes(b)
        case (.array(let a), .array(let b)): return a.lexicographicallyPrecedes(b, by: precedesInStoredOrder)
        case (.dictionary(let a), .dictionary(let b)):
            let keys = (a.keys.sorted(), b.keys.sorted())
            guard keys.0 == keys.1 else { return keys.0.lexicographicallyPrecedes(keys.1) }
            return keys.0.map { a[$0]! }.lexicographicallyPrecedes(keys.0.map { b[$0]! }, by: precedesInStoredOrder)
        default: return first.kindRank < second.kindRank
        }
    }

    /// IEEE 754's total order, strictly: a NaN sorts after every number, never equal to one.
    private static func precedesTotally(_ a: Double, _ b: Double) -> Bool {
        a.isTotallyOrdered(belowOrEqualTo: b) && !b.isTotallyOrdered(belowOrEqualTo: a)
    }

    /// The place of the value's kind in ``precedesInStoredOrder(_:_:)``.
    private var kindRank: Int {
        switch self {
        case .string: 0
        case .integer: 1
        case .double: 2
        case .bool: 3
        case .date: 4
        case .data: 5
        case .array: 6
        case .dictionary: 7
        }
    }
}
