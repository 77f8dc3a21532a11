import Foundation

// The schema type (``PreferenceSchema/ValueType``) and content (``PreferenceSchema/Content``) of each
// conforming type: what its values are stored as.

extension PreferenceRepresentable {
    /// Unknown: a type of your own that does not say; its schema takes the type of its key's default.
    public static var schemaType: PreferenceSchema.ValueType? { nil }
    /// Any text.
    public static var schemaContent: PreferenceSchema.Content? { nil }
}

extension String {
    /// ``PreferenceSchema/ValueType/string``.
    public static var schemaType: PreferenceSchema.ValueType? { .string }
}

extension Int {
    /// ``PreferenceSchema/ValueType/integer``.
    public static var schemaType: PreferenceSchema.ValueType? { .integer }
}

extension Double {
    /// ``PreferenceSchema/ValueType/float``.
    public static var schemaType: PreferenceSchema.ValueType? { .float }
}

extension Bool {
    /// ``PreferenceSchema/ValueType/boolean``.
    public static var schemaType: PreferenceSchema.ValueType? { .boolean }
}

extension Date {
    /// ``PreferenceSchema/ValueType/date``.
    public static var schemaType: PreferenceSchema.ValueType? { .date }
}

extension Data {
    /// ``PreferenceSchema/ValueType/data``.
    public static var schemaType: PreferenceSchema.ValueType? { .data }
}

extension URL {
    /// ``PreferenceSchema/ValueType/string``: a URL is stored as its string.
    public static var schemaType: PreferenceSchema.ValueType? { .string }
    /// ``PreferenceSchema/Content/url``.
    public static var schemaContent: PreferenceSchema.Content? { .url }
}

extension UUID {
    /// ``PreferenceSchema/ValueType/string``: a UUID is stored as its string.
    public static var schemaType: PreferenceSchema.ValueType? { .string }
    /// ``PreferenceSchema/Content/uuid``.
    public static var schemaContent: PreferenceSchema.Content? { .uuid }
}

extension Array where Element: PreferenceRepresentable {
    /// ``PreferenceSchema/ValueType/array``.
    public static var schemaType: PreferenceSchema.ValueType? { .array }
}

extension Set where Element: PreferenceRepresentable {
    /// ``PreferenceSchema/ValueType/array``: a set is stored as an array.
    public static var schemaType: PreferenceSchema.ValueType? { .array }
}

extension Dictionary where Key: PreferenceRepresentable & LosslessStringConvertible, Value: PreferenceRepresentable {
    /// ``PreferenceSchema/ValueType/dictionary``.
    public static var schemaType: PreferenceSchema.ValueType? { .dictionary }
}

extension Range where Bound: PreferenceRepresentable & Comparable {
    /// ``PreferenceSchema/ValueType/array``: its bounds.
    public static var schemaType: PreferenceSchema.ValueType? { .array }
}

extension ClosedRange where Bound: PreferenceRepresentable & Comparable {
    /// ``PreferenceSchema/ValueType/array``: its bounds.
    public static var schemaType: PreferenceSchema.ValueType? { .array }
}

extension PreferenceRepresentable where Self: RawRepresentable, RawValue: PreferenceRepresentable {
    /// The raw value's type.
    public static var schemaType: PreferenceSchema.ValueType? { RawValue.schemaType }
    /// The raw value's content.
    public static var schemaContent: PreferenceSchema.Content? { RawValue.schemaContent }
}

extension CodablePreference {
    /// ``PreferenceSchema/ValueType/string``: the JSON text.
    public static var schemaType: PreferenceSchema.ValueType? { .string }
    /// ``PreferenceSchema/Content/json``.
    public static var schemaContent: PreferenceSchema.Content? { .json }
}

extension Optional where Wrapped: PreferenceRepresentable {
    /// The wrapped type's.
    public static var schemaType: PreferenceSchema.ValueType? { Wrapped.schemaType }
    /// The wrapped type's.
    public static var schemaContent: PreferenceSchema.Content? { Wrapped.schemaContent }
}

/// The stored values of the cases of `type` when it is a `CaseIterable` ``PreferenceRepresentable``
/// (or an optional of one), in their declared order; nil otherwise, or when a case cannot be stored.
func storedCases(of type: Any.Type) -> [PreferenceValue]? {
    if let iterable = type as? any CaseIterable.Type { return storedCases(ofIterable: iterable) }
    if let optional = type as? any OptionalPreference.Type { return storedCases(of: optional.wrappedType) }
    return nil
}

private func storedCases<T: CaseIterable>(ofIterable _: T.Type) -> [PreferenceValue]? {
    var values: [PreferenceValue] = []
    for element in T.allCases {
        guard let representable = element as? any PreferenceRepresentable,
            let value = try? representable.preferenceValue()
        else { return nil }
        values.append(value)
    }
    return values
}

extension PreferenceSchema {
    /// The schema of `keys`, declared once on the typed keys (summary, description, what each accepts).
    ///
    /// ```swift
    /// let schema = try PreferenceSchema(suiteName: "com.example.app", version: 2, keys: .appearance, .fontSize)
    /// ```
    /// - Parameters:
    ///   - suiteName: the suite the keys are stored in.
    ///   - version: the schema's version, 1 or more; raise it when the keys change.
    ///   - allowsUndeclaredKeys: whether the domain holds other keys too, written unchecked (see
    ///     ``allowsUndeclaredKeys``). The default is false: a write of any other key is refused.
    ///   - keys: the typed keys, each with a summary.
    /// - Throws: ``DefaultsError/invalidSchema(suite:key:reason:)`` when a key has no summary, two keys
    ///   have one name, or a key's default or accepted values do not fit its type.
    public init<each Value: PreferenceRepresentable>(
        suiteName: String, version: Int, allowsUndeclaredKeys: Bool = false, keys: repeat Defaults.Key<each Value>
    ) throws(DefaultsError) {
        var entries: [Entry] = []
        for key in repeat each keys { entries.append(key.schemaEntry) }
        try self.init(suiteName: suiteName, version: version, entries: entries, allowsUndeclaredKeys: allowsUndeclaredKeys)
    }
}
