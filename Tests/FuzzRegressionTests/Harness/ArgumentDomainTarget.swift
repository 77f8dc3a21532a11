import Foundation

@testable import LayeredDefaults

extension FuzzTarget {
    /// The argument domain (``ArgumentDomain``): the input is a list of launch arguments separated by
    /// NUL bytes.
    ///
    /// Invariants: the domain is exactly what its documentation says, a `-key` followed by an argument
    /// that does not start with `-` is a pair, a later pair winning; each argument's value is its
    /// property-list text when the trimmed argument starts with `(`, `{`, `<` or `"` and parses, else
    /// the trimmed string; `prefs write`'s checked reading agrees with it or refuses text nested too deep.
    static let argumentDomain = FuzzTarget(name: "argument-domain") { data throws(FuzzViolation) in
        let arguments = FuzzInput.arguments(data)
        var expected: [String: PreferenceValue] = [:]
        for (flag, next) in zip(arguments, arguments.dropFirst())
        where flag.hasPrefix("-") && flag.count > 1 && !next.hasPrefix("-") {
            expected[String(flag.dropFirst())] = ArgumentDomain.value(of: next)
        }
        let domain = ArgumentDomain.parse(arguments)
        try expect(
            PreferenceValue.dictionary(domain).isIdentical(to: .dictionary(expected)),
            "the domain holds exactly the documented pairs (\(domain.count) keys, \(expected.count) expected)")
        for argument in arguments {
            try expectDocumentedValue(of: argument)
        }
    }

    private static func expectDocumentedValue(of argument: String) throws(FuzzViolation) {
        let trimmed = argument.trimmingCharacters(in: .whitespacesAndNewlines)
        let value = ArgumentDomain.value(of: argument)
        if let first = trimmed.first, "({<\"".contains(first), let parsed = try? PropertyListText.parse(trimmed) {
            try expect(value.isIdentical(to: parsed), "an argument that is property-list text is its value")
        } else {
            try expect(value.isIdentical(to: .string(trimmed)), "any other argument is its trimmed string")
        }
        let checked: PreferenceValue
        do throws(PropertyListText.ParseError) {
            checked = try ArgumentDomain.checkedValue(of: argument)
        } catch {
            try expect(error.kind == .tooDeep, "the checked value refuses only text nested too deep")
            return
        }
        try expect(checked.isIdentical(to: value), "the checked value of an argument is its value")
    }
}
