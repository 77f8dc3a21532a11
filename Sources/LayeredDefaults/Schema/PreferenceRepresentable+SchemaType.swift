import Foundation

// The schema type (``PreferenceSchema/ValueType``) of each conforming type: what its values are stored as.

extension PreferenceRepresentable {
    /// Unknown: a type of your own that does not say; its schema takes the type of its key's default.
    public static var schemaType: PreferenceSchema.ValueType? { nil }
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
}

extension UUID {
    /// ``PreferenceSchema/ValueType/string``: a UUID is stored as its string.
    public static var schemaType: PreferenceSchema.ValueType? { .string }
}

extension Array where Element: PreferenceRepresentable {
    /// ``PreferenceSchema/ValueType/array``.
    public static var schemaType: PreferenceSchema.ValueType? { .array }
}

extension Set where Element: PreferenceRepresentable {
    /// ``PreferenceSchema/ValueType/array``: a set is stored as an array.
    public static var schemaType: PreferenceSchema.ValueType? { .array }
}

extension Dictionary where Key == String, Value: PreferenceRepresentable {
    /// ``PreferenceSchema/ValueType/dictionary``.
    public static var schemaType: PreferenceSchema.ValueType? { .dictionary }
}

extension PreferenceRepresentable where Self: RawRepresentable, RawValue: PreferenceRepresentable {
    /// The raw value's type.
    public static var schemaType: PreferenceSchema.ValueType? { RawValue.schemaType }
}

extension CodablePreference {
    /// ``PreferenceSchema/ValueType/string``: the JSON text.
    public static var schemaType: PreferenceSchema.ValueType? { .string }
}

extension Optional where Wrapped: PreferenceRepresentable {
    /// The wrapped type's.
    public static var schemaType: PreferenceSchema.ValueType? { Wrapped.schemaType }
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
