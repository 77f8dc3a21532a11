import Foundation
import LayeredDefaults

/// The getters of `UserDefaults`, with its conversions (see `PreferenceValue.integerValue`). They never
/// throw: a domain that cannot be read is sent to the configuration's `errorHandler` and skipped.
/// The core's `value(forKey:)` throws instead.
extension Defaults {
    /// The value of `key` as `String`, `Int`, `Double`, `Bool`, `Date`, `Data`, `[Any]` or `[String: Any]`,
    /// or nil when no domain holds it.
    public func object(forKey key: String) -> Any? {
        lookup(key)?.anyValue
    }

    /// The string of `key`; a number reads as its text (42 is "42", true is "1"); nil for anything else.
    public func string(forKey key: String) -> String? {
        lookup(key)?.stringValue
    }

    /// The array of `key`, or nil when the value is not an array.
    public func array(forKey key: String) -> [Any]? {
        guard case .array(let values)? = lookup(key) else { return nil }
        return values.map(\.anyValue)
    }

    /// The array of `key` when every element is a string, else nil.
    public func stringArray(forKey key: String) -> [String]? {
        guard case .array(let values)? = lookup(key) else { return nil }
        var strings: [String] = []
        for case .string(let string) in values { strings.append(string) }
        return strings.count == values.count ? strings : nil
    }

    /// The dictionary of `key`, or nil when the value is not a dictionary.
    public func dictionary(forKey key: String) -> [String: Any]? {
        guard case .dictionary(let values)? = lookup(key) else { return nil }
        return values.mapValues(\.anyValue)
    }

    /// The data of `key`, or nil when the value is not data.
    public func data(forKey key: String) -> Data? {
        guard case .data(let data)? = lookup(key) else { return nil }
        return data
    }

    /// The integer of `key`: a double truncates, a bool is 1/0, a numeric string is parsed ("1234" is
    /// 1234); 0 when missing or not convertible.
    public func integer(forKey key: String) -> Int {
        lookup(key)?.integerValue ?? 0
    }

    /// The double of `key`: an integer converts, a bool is 1/0, a numeric string is parsed ("12.34" is
    /// 12.34); 0 when missing or not convertible.
    public func double(forKey key: String) -> Double {
        lookup(key)?.doubleValue ?? 0
    }

    /// The float of `key`, converted as ``double(forKey:)``.
    public func float(forKey key: String) -> Float {
        Float(double(forKey: key))
    }

    /// The bool of `key`: a number is true when non-zero, a string as `NSString.boolValue` ("YES",
    /// "true", "1" are true; "NO", "0", "abc" false); false when missing.
    public func bool(forKey key: String) -> Bool {
        lookup(key)?.boolValue ?? false
    }

    /// The URL of `key`, as stored by ``set(_:forKey:)-(URL?,_)``: a string with a scheme is that URL,
    /// `~/...` is a file URL under the home directory, any other string a file path. Nil for data or
    /// any other type (never a crash). What a `URL` typed key reads (`URL.init(preferenceValue:)`).
    public func url(forKey key: String) -> URL? {
        lookup(key).flatMap(URL.init(preferenceValue:))
    }
}
