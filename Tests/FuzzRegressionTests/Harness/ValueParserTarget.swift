import Foundation

@testable import LayeredDefaults
@testable import prefs

extension FuzzTarget {
    /// `prefs write`'s value parser (`ValueParser`). The first byte chooses what the rest is read as:
    /// the text of one scalar type flag (`-string`, `-int`, `-float`, `-bool`, `-date`, `-data`, in that
    /// order), a plain value, the elements of `-array` or the entries of `-dict` (arguments separated by
    /// NUL bytes).
    ///
    /// Invariants: a value or a usage error; a scalar has its flag's type and, written back as text,
    /// parses to itself; a plain value is read as a launch argument is; every refusal is one of the
    /// parser's fixed messages, which name flags, the domain and the key but can never quote the text.
    static let valueParser = FuzzTarget(name: "value-parser") { data throws(FuzzViolation) in
        guard let selector = data.first else { return }
        let rest = Data(data.dropFirst())
        let types = ValueParser.ScalarType.allCases
        switch Int(selector) % (types.count + 3) {
        case let index where index < types.count: try expectScalar(FuzzInput.text(rest), as: types[index])
        case types.count: try expectPlain(FuzzInput.text(rest))
        case types.count + 1: try expectElements(FuzzInput.arguments(rest))
        default: try expectEntries(FuzzInput.arguments(rest))
        }
    }

    private static func expectScalar(_ text: String, as type: ValueParser.ScalarType) throws(FuzzViolation) {
        let value: PreferenceValue
        do throws(PrefsError) {
            value = try ValueParser.parse(text, as: type)
        } catch {
            try expect(error == refusal(of: type), "a refused -\(type.rawValue) value gets the flag's one message")
            return
        }
        let typeName =
            switch type {
            case .string: "string"
            case .int: "integer"
            case .float: "float"
            case .bool: "boolean"
            case .date: "date"
            case .data: "data"
            }
        try expect(value.typeName == typeName, "-\(type.rawValue) gives a \(typeName), not a \(value.typeName)")
        let written: String? =
            switch value {
            case .string(let string): string
            case .integer(let number): String(number)
            case .double(let number): String(number)
            case .bool(let flag): String(flag)
            case .data(let bytes): bytes.map { String(format: "%02x", $0) }.joined()
            default: nil  // NB: a date's text form is not exact (an ISO 8601 date keeps milliseconds at best).
            }
        guard let written else { return }
        let again = try? ValueParser.parse(written, as: type)
        try expect(again.map { $0.isIdentical(to: value) } ?? false, "a -\(type.rawValue) value written as text parses to itself")
    }

    private static func expectPlain(_ text: String) throws(FuzzViolation) {
        let (domain, key) = ("fuzz.domain", "key")
        let value: PreferenceValue
        do throws(PrefsError) {
            value = try ValueParser.plain(text, domain: domain, key: key)
        } catch {
            let tooDeep = PrefsError(
                DefaultsError.nestingTooDeep(suite: domain, key: key, limit: PreferenceValue.maximumNestingDepth))
            try expect(error == tooDeep, "a refused plain value is refused as nested too deep, naming the domain and key")
            return
        }
        try expect(value.isIdentical(to: ArgumentDomain.value(of: text)), "a plain value is read as a launch argument is")
    }

    private static func expectElements(_ arguments: [String]) throws(FuzzViolation) {
        let values: [PreferenceValue]
        do throws(PrefsError) {
            values = try ValueParser.elements(arguments)
        } catch {
            let fixed = [refusal { () throws(PrefsError) in try ValueParser.elements(["-\u{1}"]) }]
            let flagsWithoutValue = typeFlags(in: arguments).map { flag in
                refusal { () throws(PrefsError) in try ValueParser.elements([flag]) }
            }
            try expect(
                (fixed + flagsWithoutValue + scalarRefusals).contains(error), "a refused -array is one of the fixed messages")
            return
        }
        try expect(values.count <= arguments.count, "-array has at most one element an argument")
        try expect(values.allSatisfy(\.isScalar), "every element of -array is a scalar")
        if typeFlags(in: arguments).isEmpty, !arguments.contains(where: { $0.hasPrefix("-") && $0.count > 1 }) {
            try expect(
                PreferenceValue.array(values).isIdentical(to: .array(arguments.map(PreferenceValue.string))),
                "-array of untyped arguments is their strings")
        }
    }

    private static func expectEntries(_ arguments: [String]) throws(FuzzViolation) {
        let values: [String: PreferenceValue]
        do throws(PrefsError) {
            values = try ValueParser.entries(arguments)
        } catch {
            let fixed = [
                refusal { () throws(PrefsError) in try ValueParser.entries(["k"]) },
                refusal { () throws(PrefsError) in try ValueParser.entries(["k", "-\u{1}"]) },
            ]
            let flagsWithoutValue = typeFlags(in: arguments).map { flag in
                refusal { () throws(PrefsError) in try ValueParser.entries(["k", flag]) }
            }
            try expect(
                (fixed + flagsWithoutValue + scalarRefusals).contains(error), "a refused -dict is one of the fixed messages")
            return
        }
        try expect(values.keys.allSatisfy(arguments.contains), "every key of -dict is one of its arguments")
        try expect(values.values.allSatisfy(\.isScalar), "every value of -dict is a scalar")
    }

    /// The refusal of a text that no type but `-string` accepts, by type.
    private static let scalarRefusal: [ValueParser.ScalarType: PrefsError?] = Dictionary(
        uniqueKeysWithValues: ValueParser.ScalarType.allCases.map { type in
            (type, refusal { () throws(PrefsError) in try ValueParser.parse("\u{1}", as: type) })
        })

    private static func refusal(of type: ValueParser.ScalarType) -> PrefsError? { scalarRefusal[type] ?? nil }

    private static var scalarRefusals: [PrefsError?] { Array(scalarRefusal.values) }

    private static func refusal(_ body: () throws(PrefsError) -> some Any) -> PrefsError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    private static func typeFlags(in arguments: [String]) -> [String] {
        arguments.filter { ValueParser.ScalarType(flag: $0) != nil }
    }
}

extension PreferenceValue {
    /// True for every value but an array or a dictionary.
    fileprivate var isScalar: Bool {
        switch self {
        case .array, .dictionary: false
        default: true
        }
    }
}
