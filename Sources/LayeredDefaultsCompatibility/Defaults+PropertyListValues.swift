import Foundation
import LayeredDefaults

extension Defaults {
    /// The property-list values of `domain`, converted for storage.
    /// - Throws: `DefaultsError.notPropertyList` or `DefaultsError.valueOutOfRange`, naming the key.
    static func values(of domain: [String: Any], suite: String) throws -> [String: PreferenceValue] {
        try domain.reduce(into: [:]) { result, pair in
            result[pair.key] = try PreferenceValue(any: pair.value, suite: suite, key: pair.key)
        }
    }
}
