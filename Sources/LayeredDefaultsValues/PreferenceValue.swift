import Foundation

/// A property-list value: what a preference can hold.
///
/// Bool and integer stay distinct, and so do integer `1` and double `1.0`. Dates keep their full
/// `Date` precision, data is byte-exact, and containers nest (a stored value up to
/// ``maximumNestingDepth`` levels deep).
///
/// ```swift
/// let value: PreferenceValue = .dictionary(["size": .integer(12), "tags": .array([.string("a")])])
/// ```
public enum PreferenceValue: Sendable, Hashable {
    /// A string.
    case string(String)
    /// A signed 64-bit integer.
    case integer(Int)
    /// A double-precision floating-point number.
    case double(Double)
    /// A boolean.
    case bool(Bool)
    /// A point in time.
    case date(Date)
    /// Raw bytes.
    case data(Data)
    /// An ordered list of values.
    case array([PreferenceValue])
    /// A dictionary with string keys.
    case dictionary([String: PreferenceValue])

    /// The property-list name of the value's type, as `defaults read-type` prints it:
    /// `string`, `integer`, `float`, `boolean`, `date`, `data`, `array` or `dictionary`.
    public var typeName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .double: "float"
        case .bool: "boolean"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dictionary"
        }
    }
}

extension PreferenceValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// A `.string` literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An `.integer` literal.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// A `.double` literal.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A `.bool` literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An `.array` literal.
    public init(arrayLiteral elements: PreferenceValue...) { self = .array(elements) }
    /// A `.dictionary` literal; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, PreferenceValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
