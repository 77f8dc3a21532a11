import Foundation

extension PreferenceValue {
    /// Converts a value of the `Any`-based API into a property-list value, as `UserDefaults` accepts it.
    ///
    /// Accepted: `String`, `Bool`, every integer type whose value fits in `Int64`, `Double`, `Float`,
    /// `Date`, `Data`, `NSNumber`, arrays of these and `[String: ...]` dictionaries of these, nested.
    /// - Parameters:
    ///   - value: the value to convert.
    ///   - suite: the suite name, for the error message.
    ///   - key: the key, for the error message.
    /// - Throws: ``DefaultsError/notPropertyList(suite:key:type:)`` for anything else (a `URL`, a custom
    ///   struct, a dictionary with non-string keys, a nil inside a container), and
    ///   ``DefaultsError/valueOutOfRange(suite:key:type:)`` for an unsigned number above `Int64.max`.
    public init(any value: Any, suite: String = "", key: String = "") throws {
        func reject() -> DefaultsError { .notPropertyList(suite: suite, key: key, type: "\(type(of: value))") }
        func outOfRange() -> DefaultsError { .valueOutOfRange(suite: suite, key: key, type: "\(type(of: value))") }
        func integer<T: BinaryInteger>(_ number: T) throws -> PreferenceValue {
            guard let exact = Int(exactly: number) else { throw outOfRange() }
            return .integer(exact)
        }

        // NB: the common cases first, and NSNumber only for real NSNumber objects: casting a Swift value
        // to NSNumber goes through Objective-C bridging, costly for a String.
        if let value = value as? String {
            self = .string(value)
            return
        }
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
            self = try Self(number: number, outOfRange: outOfRange)
            return
        }
        switch value {
        case let value as PreferenceValue: self = value
        case let value as Substring: self = .string(String(value))
        case let value as Bool: self = .bool(value)
        case let value as Int: self = .integer(value)
        case let value as Int8: self = try integer(value)
        case let value as Int16: self = try integer(value)
        case let value as Int32: self = try integer(value)
        case let value as Int64: self = try integer(value)
        case let value as UInt: self = try integer(value)
        case let value as UInt8: self = try integer(value)
        case let value as UInt16: self = try integer(value)
        case let value as UInt32: self = try integer(value)
        case let value as UInt64: self = try integer(value)
        case let value as Double: self = .double(value)
        case let value as Float: self = .double(Double(value))
        case let value as Date: self = .date(value)
        case let value as Data: self = .data(value)
        case let values as [Any]:
            self = .array(try values.map { try PreferenceValue(any: $0, suite: suite, key: key) })
        case let values as [String: Any]:
            self = .dictionary(try values.mapValues { try PreferenceValue(any: $0, suite: suite, key: key) })
        default:
            throw reject()
        }
    }

    private init(number: NSNumber, outOfRange: () -> DefaultsError) throws {
        switch String(cString: number.objCType) {
        // NB: a bool is "c" (or "B"), but so is an Int8: only 0 and 1 are taken for bools.
        case "B": self = .bool(number.boolValue)
        case "c" where number.int64Value == 0 || number.int64Value == 1: self = .bool(number.boolValue)
        case "f", "d": self = .double(number.doubleValue)
        case "Q", "L", "I":
            guard number.uint64Value <= UInt64(Int.max) else { throw outOfRange() }
            self = .integer(Int(number.uint64Value))
        default: self = .integer(number.intValue)
        }
    }

    /// The value as the `Any`-based API returns it: `String`, `Int`, `Double`, `Bool`, `Date`, `Data`,
    /// `[Any]` or `[String: Any]`.
    public var anyValue: Any {
        switch self {
        case .string(let value): value
        case .integer(let value): value
        case .double(let value): value
        case .bool(let value): value
        case .date(let value): value
        case .data(let value): value
        case .array(let values): values.map(\.anyValue)
        case .dictionary(let values): values.mapValues(\.anyValue)
        }
    }
}
