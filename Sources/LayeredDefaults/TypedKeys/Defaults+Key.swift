import Foundation

extension Defaults {
    /// A typed key: a name and the value it reads as when nothing usable is stored.
    ///
    /// ```swift
    /// extension Defaults.Key<Int> { static let fontSize = Defaults.Key("fontSize", default: 12) }
    /// defaults[.fontSize]                   // 12 until set; a stored "abc" also reads as 12
    /// try defaults.set(14, for: .fontSize)
    /// defaults.storedValue(for: .fontSize)  // 14; nil when never set (not the same as 0)
    /// ```
    public struct Key<Value: PreferenceRepresentable>: Sendable {
        /// The key's name in the store.
        public let name: String
        /// What the key reads as when no domain holds a value that converts to `Value`.
        public let defaultValue: Value

        /// A key named `name` that reads as `defaultValue` when nothing usable is stored.
        public init(_ name: String, default defaultValue: Value) {
            self.name = name
            self.defaultValue = defaultValue
        }
    }

    /// The value of `key` found by the search list, or the key's default when no domain holds one or
    /// the value found cannot be read as `Value` (the stored value is left alone, never overwritten).
    ///
    /// Setting it stores the value (nil removes it), like ``set(_:for:)``. The subscript never throws:
    /// a read or write that fails goes to ``Configuration/errorHandler`` (a failed read gives the default).
    public subscript<Value>(key: Key<Value>) -> Value {
        get { search(key.name, failed: report).flatMap(Value.init(preferenceValue:)) ?? key.defaultValue }
        set { _ = reportingErrors { try set(newValue, for: key) } }
    }

    /// The value stored for `key` in the persistent domain only: nil when the user never set it (a bool
    /// never set is not a bool turned off), or when the stored value does not convert.
    /// - Throws: ``DefaultsError`` when the domain cannot be read.
    public func storedValue<Value>(for key: Key<Value>) throws -> Value? {
        try persistentValue(forKey: key.name).flatMap(Value.init(preferenceValue:))
    }

    /// Stores `value` for `key` in the persistent domain, committed when this returns; nil removes it,
    /// so the key reads as its default (or a lower domain's value) again.
    /// - Throws: ``DefaultsError/unencodableValue(suite:key:type:)`` for a ``CodablePreference`` that
    ///   cannot be encoded, or what ``write(_:forKey:)`` throws. Nothing changes then.
    public func set<Value>(_ value: Value?, for key: Key<Value>) throws {
        let stored: PreferenceValue?
        do {
            stored = try value.map { try $0.preferenceValue() }
        } catch {
            // NB: an EncodingError describes the value it failed on: never pass it on.
            throw DefaultsError.unencodableValue(suite: suiteName, key: key.name, type: "\(Value.self)")
        }
        try write(stored, forKey: key.name)
    }
}
