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

        /// A launch argument's text read as this type, as a typed key reads it (`-fontSize 14` is the
        /// integer 14; `YES`, `true` and `1` are true), or as it is when it does not read as one. Arguments
        /// are text (as in Foundation), so a schema types them before it checks them.
        func value(ofArgument value: PreferenceValue) -> PreferenceValue {
            guard case .string = value else { return value }
            switch self {
            case .integer: return Int(preferenceValue: value).map(PreferenceValue.integer) ?? value
            case .float: return Double(preferenceValue: value).map(PreferenceValue.double) ?? value
            case .boolean: return Bool(preferenceValue: value).map(PreferenceValue.bool) ?? value
            case .string, .date, .data, .array, .dictionary: return value
            }
        }

        /// The type with an article, for messages: `a string`, `an integer`.
        var phrase: String {
            self == .integer || self == .array ? "an \(rawValue)" : "a \(rawValue)"
        }
    }
}
