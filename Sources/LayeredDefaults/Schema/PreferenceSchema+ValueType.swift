extension PreferenceSchema {
    /// The type of a key's values in a schema: the property-list type names `prefs read-type` prints
    /// (``PreferenceValue/typeName``).
    public enum ValueType: String, Sendable, Hashable, CaseIterable, Codable {
        /// A string (also a `URL`, a `UUID`, a ``CodablePreference``'s JSON text, a string enum).
        case string
        /// A 64-bit integer.
        case integer
        /// A double; an integer is accepted too, as `Double` reads it.
        case float
        /// A boolean.
        case boolean
        /// A date.
        case date
        /// Bytes.
        case data
        /// An array (also a `Set`).
        case array
        /// A dictionary with string keys.
        case dictionary

        /// True when `value` is of this type (an integer is of ``float`` too).
        public func matches(_ value: PreferenceValue) -> Bool {
            if value.typeName == rawValue { return true }
            if self == .float, case .integer = value { return true }
            return false
        }

        /// The type with an article, for messages: `a string`, `an integer`.
        var phrase: String {
            self == .integer || self == .array ? "an \(rawValue)" : "a \(rawValue)"
        }
    }
}
