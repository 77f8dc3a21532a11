import Foundation
import LayeredDefaults

/// Turns the value arguments of `prefs write` into a ``PreferenceValue``.
///
/// Error messages name the type flag that was wrong, never the text given: it was meant to be stored.
enum ValueParser {
    /// The flags that give one scalar value its type.
    enum ScalarType: String, CaseIterable, Sendable {
        case string, int, float, bool, date, data

        /// The type named by a flag (`-int`, and the aliases `-integer`, `-boolean`), or nil.
        init?(flag: String) {
            switch flag {
            case "-integer": self = .int
            case "-boolean": self = .bool
            default:
                guard flag.hasPrefix("-"), let type = ScalarType(rawValue: String(flag.dropFirst())) else { return nil }
                self = type
            }
        }

        /// What the value must look like, for error messages.
        var expectation: String {
            switch self {
            case .string: "any text"
            case .int: "a whole number from -9223372036854775808 to 9223372036854775807"
            case .float: "a decimal number such as 0.5, 1e-3, inf or nan, no larger than 1.7976931348623157e308"
            case .bool: "one of true, false, yes, no, 1, 0 (any case)"
            case .date:
                "an ISO 8601 date (2026-11-29T21:44:42Z, with optional fraction and offset), 2026-11-29 21:44:42 +0000, or 2026-11-29"
            case .data: "hexadecimal digits, in pairs (spaces allowed)"
            }
        }
    }

    /// Every type flag of `prefs write`, as the shell completions offer them.
    static let typeFlags =
        ScalarType.allCases.map { "-\($0.rawValue)" } + ["-integer", "-boolean", "-array", "-array-add", "-dict", "-dict-add"]

    /// The value of `text` read as `type`.
    /// - Throws: ``PrefsError/usage(_:)`` when the text is not a value of that type.
    static func parse(_ text: String, as type: ScalarType) throws(PrefsError) -> PreferenceValue {
        let value: PreferenceValue? =
            switch type {
            case .string: .string(text)
            case .int: Int(text).map(PreferenceValue.integer)
            case .float: double(text).map(PreferenceValue.double)
            case .bool: boolean(text).map(PreferenceValue.bool)
            case .date: date(text).map(PreferenceValue.date)
            case .data: data(text).map(PreferenceValue.data)
            }
        guard let value else { throw .usage("-\(type.rawValue) needs \(type.expectation); nothing was changed") }
        return value
    }

    /// A plain value (no type flag): old-style property-list text when it starts with `(`, `{`, `<` or
    /// `"` and parses, else the trimmed string, as a launch argument is read
    /// (``ArgumentDomain/checkedValue(of:)``).
    /// - Parameters:
    ///   - domain: the domain it is for, named when it is refused.
    ///   - key: the key it is for, named when it is refused.
    /// - Throws: ``PrefsError/usage(_:)`` with the library's ``DefaultsError/nestingTooDeep(suite:key:limit:)``
    ///   when the text nests too deep to be read at all (less deep text is refused the same way when it
    ///   is stored, by the store's write path).
    static func plain(_ text: String, domain: String, key: String) throws(PrefsError) -> PreferenceValue {
        do {
            return try ArgumentDomain.checkedValue(of: text)
        } catch {
            throw PrefsError(DefaultsError.nestingTooDeep(suite: domain, key: key, limit: PreferenceValue.maximumNestingDepth))
        }
    }

    /// The value of `text` read as `type`, the type a domain's schema gives `key`, as `gsettings set`
    /// reads a value by its key's type: a scalar as its type flag reads it, a string as it is, an array or
    /// a dictionary as old-style property-list text.
    /// - Parameter accepts: what the key accepts in words (its schema's `acceptedPhrase`), which the
    ///   refusal cites instead of the type's whole range; nil when the key takes any value of its type.
    /// - Throws: ``PrefsError/usage(_:)`` naming the key and its type when the text is not a value of it.
    static func parse(
        _ text: String, as type: PreferenceSchema.ValueType, domain: String, key: String, accepts: String? = nil
    ) throws(PrefsError)
        -> PreferenceValue
    {
        let scalar: ScalarType? =
            switch type {
            case .string: .string
            case .integer: .int
            case .float: .float
            case .boolean: .bool
            case .date: .date
            case .data: .data
            case .array, .dictionary: nil
            }
        if let scalar {
            do {
                return try parse(text, as: scalar)
            } catch {
                // NB: the key's own range, when its schema gives one, not the whole of its type's.
                let wanted = accepts ?? scalar.expectation
                throw .usage(
                    "key '\(key)' of domain '\(domain)' holds \(type == .integer ? "an" : "a") \(type.rawValue) (its schema): give \(wanted), or a type flag; nothing was changed"
                )
            }
        }
        let value = try plain(text, domain: domain, key: key)
        guard type.matches(value) else {
            throw .usage(
                "key '\(key)' of domain '\(domain)' holds \(type == .array ? "an array" : "a dictionary") (its schema): give it as property-list text, such as \(type == .array ? "'(a, b)'" : "'{ k = v; }'"), or with \(type == .array ? "-array" : "-dict"); nothing was changed"
            )
        }
        return value
    }

    /// The elements of `-array`/`-array-add`: each a string, or typed by a preceding scalar type flag
    /// (`-array a -int 2` is `("a", 2)`).
    /// - Throws: ``PrefsError/usage(_:)`` for an unknown flag, a flag without its value, or a bad value.
    static func elements(_ arguments: [String]) throws(PrefsError) -> [PreferenceValue] {
        var values: [PreferenceValue] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            values.append(try element(arguments, at: &index, of: "array"))
        }
        return values
    }

    /// The entries of `-dict`/`-dict-add`: key-value pairs, each value a string or typed by a preceding
    /// scalar type flag (`-dict a 1 b -int 2` is `{ a = 1; b = 2; }` with `b` an integer).
    /// - Throws: ``PrefsError/usage(_:)`` for a key without a value, an unknown flag or a bad value.
    static func entries(_ arguments: [String]) throws(PrefsError) -> [String: PreferenceValue] {
        var values: [String: PreferenceValue] = [:]
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let key = arguments[index]
            index += 1
            guard index < arguments.endIndex else {
                throw .usage("-dict needs a value after each key (the last key has none); nothing was changed")
            }
            values[key] = try element(arguments, at: &index, of: "dict")
        }
        return values
    }

    private static func element(
        _ arguments: [String], at index: inout Int, of container: String
    ) throws(PrefsError) -> PreferenceValue {
        let argument = arguments[index]
        index += 1
        guard argument.hasPrefix("-"), argument.count > 1 else { return .string(argument) }
        guard let type = ScalarType(flag: argument) else {
            throw .usage(
                "unknown type flag in -\(container) (use -string, -int, -float, -bool, -date or -data before a value; put -string before text that starts with '-'); nothing was changed"
            )
        }
        guard index < arguments.endIndex else { throw .usage("\(argument) in -\(container) needs a value; nothing was changed") }
        defer { index += 1 }
        return try parse(arguments[index], as: type)
    }

    /// The double `text` writes: infinity and NaN only when it names them (`inf`, `-Infinity`, `nan`,
    /// in any case), not a number too large for a double, which `Double(_:)` reads as infinity.
    private static func double(_ text: String) -> Double? {
        guard !text.isEmpty, let number = Double(text) else { return nil }
        let name = text.lowercased().drop { $0 == "+" || $0 == "-" }
        return number.isFinite || ["inf", "infinity", "nan"].contains(name) ? number : nil
    }

    private static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "1": true
        case "false", "no", "0": false
        default: nil
        }
    }

    /// The forms of ``CivilCalendar/date(parsing:)``, in the proleptic Gregorian calendar that every
    /// format of the store uses (Foundation's date formatters switch to the Julian one before 1582).
    private static func date(_ text: String) -> Date? {
        CivilCalendar.date(parsing: text)
    }

    private static func data(_ text: String) -> Data? {
        var bytes: [UInt8] = []
        var high: UInt8?
        for character in text where !character.isWhitespace {
            guard let digit = character.hexDigitValue.map(UInt8.init) else { return nil }
            if let first = high {
                bytes.append(first << 4 | digit)
                high = nil
            } else {
                high = digit
            }
        }
        return high == nil ? Data(bytes) : nil
    }
}
