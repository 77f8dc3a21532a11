import Foundation

/// What a typed key accepts besides being of its type: anything, one of a list of choices, a range of
/// numbers, or strings up to a length. Declared on ``Defaults/Key`` and written in its schema
/// (``PreferenceSchema``).
///
/// ```swift
/// extension Defaults.Key<Int> {
///     static let fontSize = Defaults.Key("fontSize", default: 12, summary: "The font size", accepts: .integers(6...72))
/// }
/// ```
public enum AcceptedValues: Sendable, Hashable {
    /// Any value of the key's type.
    case anyValue
    /// One of these stored values: a `CaseIterable` enum's cases (given without asking), or a list.
    case choices([PreferenceValue])
    /// An integer in this range.
    case integers(ClosedRange<Int>)
    /// A number (a double, or an integer) in this range.
    case numbers(ClosedRange<Double>)
    /// A string of at most this many characters (as Swift counts them: grapheme clusters).
    case maximumLength(Int)

    /// True when the stored `value` is one this accepts. The type is not checked here (a key's Swift
    /// type does that; ``PreferenceSchema/Entry/accepts(_:)`` checks both).
    public func admits(_ value: PreferenceValue) -> Bool {
        switch self {
        case .anyValue:
            return true
        case .choices(let choices):
            if choices.contains(value) { return true }
            // A number is one choice whether it is written as an integer or as a double (a float key
            // holds integers too): `2` is the choice `2.0`, and `2.0` the choice `2`.
            switch value {
            case .integer(let integer): return choices.contains(.double(Double(integer)))
            case .double(let number):
                guard let integer = Int(exactly: number) else { return false }
                return choices.contains(.integer(integer))
            default: return false
            }
        case .integers(let range):
            guard case .integer(let integer) = value else { return false }
            return range.contains(integer)
        case .numbers(let range):
            switch value {
            case .double(let number): return range.contains(number)
            case .integer(let integer): return range.contains(Double(integer))
            default: return false
            }
        case .maximumLength(let length):
            guard case .string(let text) = value else { return false }
            return text.count <= length
        }
    }

    /// What this accepts, in words for messages and `prefs describe`: `one of system, light, dark`,
    /// `from 6 to 72`, `at most 64 characters`; nil for ``anyValue``. The choices are the schema's,
    /// never a stored value.
    public var phrase: String? {
        switch self {
        case .anyValue: nil
        case .choices(let choices): "one of " + choices.map(Self.text(of:)).joined(separator: ", ")
        case .integers(let range): "from \(range.lowerBound) to \(range.upperBound)"
        case .numbers(let range): "from \(range.lowerBound) to \(range.upperBound)"
        case .maximumLength(let length): "at most \(length) characters"
        }
    }

    /// A choice as `prefs` prints it: a string as it is (quoted when it needs to be), else property-list text.
    private static func text(of value: PreferenceValue) -> String {
        value.description
    }
}
