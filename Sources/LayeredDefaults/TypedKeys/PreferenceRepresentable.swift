import Foundation

/// A Swift type that can be stored as a preference and read back, for typed keys (``Defaults/Key``).
///
/// Conforming: `String`, `Int`, `Double`, `Bool`, `Date`, `Data`, `URL`, `UUID` (stored as its string),
/// arrays, sets (stored as arrays, in a fixed order: see `Set`'s `preferenceValue()`), `Range` and
/// `ClosedRange` (stored as `[lowerBound, upperBound]`), dictionaries whose keys are strings or other
/// conforming `LosslessStringConvertible` types (`[Int: String]`, its keys stored as their text) of
/// conforming types, any `RawRepresentable` whose raw value conforms (declare
/// `enum Mode: String, PreferenceRepresentable { ... }`), and any `Codable` type that adopts
/// ``CodablePreference``.
public protocol PreferenceRepresentable: Sendable {
    /// The value a stored preference stands for, or nil when it cannot be read as this type.
    init?(preferenceValue: PreferenceValue)
    /// The preference stored for this value.
    /// - Throws: an encoding error (only ``CodablePreference`` types can fail).
    func preferenceValue() throws -> PreferenceValue
    /// What its values are stored as, for its keys' schemas (``PreferenceSchema``); nil when unknown (a
    /// type of your own that does not say: the schema takes the type of the key's default).
    static var schemaType: PreferenceSchema.ValueType? { get }
    /// What its stored text holds, for its keys' schemas: a `UUID`'s, a `URL`'s, a ``CodablePreference``'s
    /// JSON; nil for any text (or a value that is not text).
    static var schemaContent: PreferenceSchema.Content? { get }
}

extension String: PreferenceRepresentable {
    /// A string; nothing else converts.
    public init?(preferenceValue: PreferenceValue) {
        guard case .string(let value) = preferenceValue else { return nil }
        self = value
    }
    /// The value as it is stored.
    public func preferenceValue() -> PreferenceValue { .string(self) }
}

extension Int: PreferenceRepresentable {
    /// An integer, or a string of an integer (as launch arguments give: `-fontSize 14`).
    public init?(preferenceValue: PreferenceValue) {
        switch preferenceValue {
        case .integer(let value): self = value
        case .string(let text):
            guard let value = Int(text) else { return nil }
            self = value
        default: return nil
        }
    }
    /// The value as it is stored.
    public func preferenceValue() -> PreferenceValue { .integer(self) }
}

extension Double: PreferenceRepresentable {
    /// A double, an integer, or a string of a number.
    public init?(preferenceValue: PreferenceValue) {
        switch preferenceValue {
        case .double(let value): self = value
        case .integer(let value): self = Double(value)
        case .string(let text):
            guard let value = Double(text) else { return nil }
            self = value
        default: return nil
        }
    }
    /// The value as it is stored.
    public func preferenceValue() -> PreferenceValue { .double(self) }
}

extension Bool: PreferenceRepresentable {
    /// A bool, or one of the strings `YES`/`NO`, `true`/`false`, `1`/`0` (as launch arguments give).
    public init?(preferenceValue: PreferenceValue) {
        switch preferenceValue {
        case .bool(let value): self = value
        case .string("YES"), .string("true"), .string("1"): self = true
        case .string("NO"), .string("false"), .string("0"): self = false
        default: return nil
        }
    }
    /// The value as it is stored.
    public func preferenceValue() -> PreferenceValue { .bool(self) }
}

extension Date: PreferenceRepresentable {
    /// A date; nothing else converts.
    public init?(preferenceValue: PreferenceValue) {
        guard case .date(let value) = preferenceValue else { return nil }
        self = value
    }
    /// The value as it is stored.
    public func preferenceValue() -> PreferenceValue { .date(self) }
}

extension Data: PreferenceRepresentable {
    /// Data; nothing else converts.
    public init?(preferenceValue: PreferenceValue) {
        guard case .data(let value) = preferenceValue else { return nil }
        self = value
    }
    /// The value as it is stored.
    public func preferenceValue() -> PreferenceValue { .data(self) }
}

extension URL: PreferenceRepresentable {
    /// A string, read as `url(forKey:)` of `LayeredDefaultsCompatibility` reads it.
    public init?(preferenceValue: PreferenceValue) {
        guard case .string(let text) = preferenceValue, let url = StoredURL.url(fromText: text) else { return nil }
        self = url
    }
    /// The string `set(_:forKey:)` of `LayeredDefaultsCompatibility` stores for a `URL`.
    public func preferenceValue() -> PreferenceValue { .string(StoredURL.text(of: self)) }
}

extension UUID: PreferenceRepresentable {
    /// A string of a UUID (`E621E1F8-C36C-495A-93FC-0C247A3E6E5F`, in either case); nothing else converts.
    public init?(preferenceValue: PreferenceValue) {
        guard case .string(let text) = preferenceValue, let uuid = UUID(uuidString: text) else { return nil }
        self = uuid
    }
    /// The UUID's string, `uuidString` (upper case).
    public func preferenceValue() -> PreferenceValue { .string(uuidString) }
}

extension Array: PreferenceRepresentable where Element: PreferenceRepresentable {
    /// An array whose every element converts.
    public init?(preferenceValue: PreferenceValue) {
        guard case .array(let values) = preferenceValue else { return nil }
        var elements: [Element] = []
        elements.reserveCapacity(values.count)
        for value in values {
            guard let element = Element(preferenceValue: value) else { return nil }
            elements.append(element)
        }
        self = elements
    }
    /// The value as it is stored.
    public func preferenceValue() throws -> PreferenceValue { .array(try map { try $0.preferenceValue() }) }
}

extension Dictionary: PreferenceRepresentable
where Key: PreferenceRepresentable & LosslessStringConvertible, Value: PreferenceRepresentable {
    /// A dictionary whose every value converts and whose every key reads as `Key` (`"12"` as the `Int`
    /// 12); nil when one does not, or when two stored keys read as one (`"1"` and `"01"`): a value is
    /// never dropped.
    public init?(preferenceValue: PreferenceValue) {
        guard case .dictionary(let values) = preferenceValue else { return nil }
        var result: [Key: Value] = [:]
        result.reserveCapacity(values.count)
        for (text, value) in values {
            guard let key = Key(text), let converted = Value(preferenceValue: value),
                result.updateValue(converted, forKey: key) == nil
            else { return nil }
        }
        self = result
    }
    /// A dictionary of the keys' text (`description`) and the values' preferences.
    public func preferenceValue() throws -> PreferenceValue {
        var stored: [String: PreferenceValue] = [:]
        stored.reserveCapacity(count)
        for (key, value) in self { stored[key.description] = try value.preferenceValue() }
        return .dictionary(stored)
    }
}

extension PreferenceRepresentable where Self: RawRepresentable, RawValue: PreferenceRepresentable {
    /// The case whose raw value the stored preference holds; nil for an unknown raw value.
    public init?(preferenceValue: PreferenceValue) {
        guard let raw = RawValue(preferenceValue: preferenceValue) else { return nil }
        self.init(rawValue: raw)
    }
    /// The raw value's preference.
    public func preferenceValue() throws -> PreferenceValue { try rawValue.preferenceValue() }
}

/// A `Codable` type stored as a preference: `.string` holding its compact JSON, keys sorted
/// (`{"family":"Menlo","size":13}`), readable in `prefs read` and any text tool.
///
/// ```swift
/// struct Window: CodablePreference { var width: Int; var height: Int }
/// let window = Defaults.Key("window", default: Window(width: 800, height: 600))
/// ```
///
/// A value stored by an earlier version as `.data` holding the JSON still reads. A stored value that
/// no longer decodes (the type gained a non-optional property) reads as the key's default, is
/// reported to the error handler once, and is left as it is.
public protocol CodablePreference: PreferenceRepresentable, Codable {}

extension CodablePreference {
    /// The value decoded from stored JSON text (or JSON data, as earlier versions stored it); nil when
    /// it is neither or does not decode.
    public init?(preferenceValue: PreferenceValue) {
        let json: Data
        switch preferenceValue {
        case .string(let text): json = Data(text.utf8)
        case .data(let data): json = data
        default: return nil
        }
        guard let value = try? JSONDecoder().decode(Self.self, from: json) else { return nil }
        self = value
    }

    /// The compact JSON text of the value, keys sorted, as `.string`.
    /// - Throws: `EncodingError` when the value cannot be encoded.
    public func preferenceValue() throws -> PreferenceValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return .string(String(decoding: try encoder.encode(self), as: UTF8.self))
    }
}

extension Optional: PreferenceRepresentable where Wrapped: PreferenceRepresentable {
    /// The wrapped value a stored preference stands for (an optional key's value when stored), or nil
    /// when it cannot be read as `Wrapped`.
    public init?(preferenceValue: PreferenceValue) {
        guard let value = Wrapped(preferenceValue: preferenceValue) else { return nil }
        self = .some(value)
    }

    /// The wrapped value's preference.
    /// - Throws: `EncodingError.invalidValue` for nil, which has no stored form (setting an optional
    ///   key to nil removes it instead), or what the wrapped value's encoding throws.
    public func preferenceValue() throws -> PreferenceValue {
        guard let self else {
            throw EncodingError.invalidValue(self as Any, .init(codingPath: [], debugDescription: "nil is stored as no value"))
        }
        return try self.preferenceValue()
    }
}

/// An optional typed value, whose nil stands for "not stored".
protocol OptionalPreference {
    /// The preference stored for `value`: nil for nil.
    static func storedForm(of value: Self) throws -> PreferenceValue?
    /// The type an optional of it wraps (for a `CaseIterable` enum's cases: ``storedCases(of:)``).
    static var wrappedType: Any.Type { get }
}

extension Optional: OptionalPreference where Wrapped: PreferenceRepresentable {
    static func storedForm(of value: Self) throws -> PreferenceValue? { try value?.preferenceValue() }
    static var wrappedType: Any.Type { Wrapped.self }
}

extension PreferenceRepresentable {
    /// The preference stored for this value, or nil when it is an optional's nil (nothing is stored).
    func storedForm() throws -> PreferenceValue? {
        guard let optional = Self.self as? any OptionalPreference.Type else { return try preferenceValue() }
        // Opens the optional type so that its nil can be told apart (a generic `Self` cannot be
        // compared with nil); `self as! T` casts a value to its own type.
        func stored<T: OptionalPreference>(_: T.Type) throws -> PreferenceValue? { try T.storedForm(of: self as! T) }
        return try stored(optional)
    }
}
