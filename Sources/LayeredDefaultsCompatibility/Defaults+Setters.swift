import Foundation
import LayeredDefaults

/// The setters of `UserDefaults`: they never throw; errors go to the configuration's `errorHandler`
/// and leave the store unchanged. The core's `write(_:forKey:)` throws instead.
extension Defaults {
    /// Stores a property-list value (`String`, number, `Bool`, `Date`, `Data`, arrays, `[String: ...]`
    /// dictionaries); nil removes the key, so a registered default shows through again.
    ///
    /// A value that is not a property list (a `URL`, a custom struct, non-string dictionary keys) is
    /// rejected: the store is unchanged and the error handler receives `DefaultsError.notPropertyList`.
    public func set(_ value: Any?, forKey key: String) {
        _ = reportingErrors {
            try write(value.map { try PreferenceValue(any: $0, suite: suiteName, key: key) }, forKey: key)
        }
    }

    /// Stores an integer.
    public func set(_ value: Int, forKey key: String) { set(PreferenceValue.integer(value), forKey: key) }
    /// Stores a double.
    public func set(_ value: Double, forKey key: String) { set(PreferenceValue.double(value), forKey: key) }
    /// Stores a float, as a double.
    public func set(_ value: Float, forKey key: String) { set(PreferenceValue.double(Double(value)), forKey: key) }
    /// Stores a bool.
    public func set(_ value: Bool, forKey key: String) { set(PreferenceValue.bool(value), forKey: key) }

    /// Stores a URL as a string: a file URL under the home directory as `~/...` (read back expanded),
    /// any other URL as its whole absolute string. Nil removes the key. What a `URL` typed key stores
    /// (`URL.preferenceValue()`).
    public func set(_ url: URL?, forKey key: String) {
        set(url.map { $0.preferenceValue() } as Any?, forKey: key)
    }

    /// Removes `key` from the persistent domain; a registered default or another domain's value shows
    /// through again.
    public func removeObject(forKey key: String) {
        _ = reportingErrors { try write(nil, forKey: key) }
    }
}
