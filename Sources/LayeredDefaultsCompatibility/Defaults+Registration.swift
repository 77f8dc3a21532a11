import Foundation
import LayeredDefaults

extension Defaults {
    /// Merges `defaults` into the registration domain, as `UserDefaults.register(defaults:)` does: the
    /// `[String: Any]` form of the core's `register(_:)`, which takes `PreferenceValue`s.
    ///
    /// A `URL` value is registered as ``set(_:forKey:)-(URL?,_)`` stores it, so ``url(forKey:)`` reads it.
    /// If any other value is not a property list, nothing is registered and the error handler receives
    /// `DefaultsError.notPropertyList`.
    public func register(defaults: [String: Any]) {
        let values = defaults.mapValues { value in (value as? URL).map { $0.preferenceValue() } ?? value }
        _ = reportingErrors { register(try Self.values(of: values, suite: Self.registrationDomain)) }
    }
}
