import Foundation

/// The conversions of the typed getters, following Foundation's `UserDefaults`.
///
/// | stored       | `integerValue`     | `doubleValue`     | `boolValue`            | `stringValue`        |
/// |--------------|--------------------|-------------------|------------------------|----------------------|
/// | integer 42   | 42                 | 42.0              | true (non-zero)        | "42"                 |
/// | double 12.5  | 12 (truncated)     | 12.5              | true (non-zero)        | "12.5"               |
/// | Float 12.34  | 12                 | 12.34000015258789 | true                   | "12.34"              |
/// | bool true    | 1                  | 1.0               | true                   | "1"                  |
/// | "1234"       | 1234               | 1234.0            | true                   | "1234"               |
/// | "12.34"      | 12                 | 12.34             | true                   | "12.34"              |
/// | "YES"/"true" | 0                  | 0.0               | true                   | itself               |
/// | "NO"/"abc"   | 0                  | 0.0               | false                  | itself               |
/// | other types  | nil                | nil               | nil                    | nil                  |
///
/// Strings convert as `NSString` does: leading white space is skipped, then the longest numeric prefix
/// is read ("12abc" is 12); `boolValue` is true when the first non-space, non-sign, non-zero character
/// is one of `YyTt1-9`. A getter of ``Defaults`` turns nil into Foundation's 0/false.
extension PreferenceValue {
    /// The value as an integer, or nil when it is not a number, bool or string.
    public var integerValue: Int? {
        switch self {
        case .integer(let value): value
        case .double(let value): Int(exactly: value.rounded(.towardZero)) ?? 0  // NaN and out-of-range read 0
        case .bool(let value): value ? 1 : 0
        case .string(let value): NumericPrefix(value).integer
        default: nil
        }
    }

    /// The value as a double, or nil when it is not a number, bool or string.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        case .bool(let value): value ? 1 : 0
        case .string(let value): NumericPrefix(value).double
        default: nil
        }
    }

    /// The value as a bool, or nil when it is not a number, bool or string.
    public var boolValue: Bool? {
        switch self {
        case .bool(let value): value
        case .integer(let value): value != 0
        case .double(let value): value != 0
        case .string(let value): NumericPrefix.boolValue(of: value)
        default: nil
        }
    }

    /// The value as a string: strings as they are, numbers as their text (true is "1"); nil otherwise.
    public var stringValue: String? {
        switch self {
        case .string(let value): value
        case .integer(let value): String(value)
        case .double(let value):
            if value.rounded() == value && abs(value) < 1e15 {
                String(Int(value))
            } else if let float = Float(exactly: value) {
                // A stored Float (12.34 as a Float is 12.34000015258789 as a double) reads as the Float
                // wrote it, "12.34", as in Foundation; a double that a Float holds exactly reads the same.
                String(float)
            } else {
                String(value)
            }
        case .bool(let value): value ? "1" : "0"
        default: nil
        }
    }
}

/// `NSString`'s reading of a leading number: white space, an optional sign, digits, a fraction, an exponent.
private struct NumericPrefix {
    let double: Double
    let integer: Int

    init(_ text: String) {
        let scalars = Array(text.unicodeScalars.drop(while: { CharacterSet.whitespacesAndNewlines.contains($0) }))
        var end = 0
        func digits() -> Int {
            let start = end
            while end < scalars.count, ("0"..."9").contains(scalars[end]) { end += 1 }
            return end - start
        }
        if end < scalars.count, scalars[end] == "+" || scalars[end] == "-" { end += 1 }
        let integerDigits = digits()
        let integerEnd = end
        var fractionDigits = 0
        if end < scalars.count, scalars[end] == "." {
            end += 1
            fractionDigits = digits()
            if integerDigits + fractionDigits == 0 { end -= 1 }
        }
        if integerDigits + fractionDigits > 0, end < scalars.count, scalars[end] == "e" || scalars[end] == "E" {
            let mark = end
            end += 1
            if end < scalars.count, scalars[end] == "+" || scalars[end] == "-" { end += 1 }
            if digits() == 0 { end = mark }
        }
        let prefix = String(String.UnicodeScalarView(scalars[0..<end]))
        let integerPrefix = String(String.UnicodeScalarView(scalars[0..<integerEnd]))
        double = integerDigits + fractionDigits > 0 ? Double(prefix) ?? 0 : 0
        integer = integerDigits == 0 ? 0 : Int(integerPrefix) ?? (integerPrefix.hasPrefix("-") ? Int.min : Int.max)
    }

    static func boolValue(of text: String) -> Bool {
        var scalars = text.unicodeScalars.drop(while: { CharacterSet.whitespacesAndNewlines.contains($0) })
        if let sign = scalars.first, sign == "+" || sign == "-" { scalars = scalars.dropFirst() }
        guard let first = scalars.drop(while: { $0 == "0" }).first else { return false }
        return "YyTt123456789".unicodeScalars.contains(first)
    }
}
