import Foundation

/// Parses launch arguments into the argument domain, as Foundation does.
///
/// An argument `-key` followed by one that does not start with `-` is a pair. The value is trimmed;
/// when it then starts with `(`, `{`, `<` or `"` it is parsed as old-style property-list text
/// (``PropertyListText``), falling back to the raw string when that fails; any other value is a string.
/// A `-key` followed by another `-flag`, or last, is dropped, and so is a bare `-`.
///
/// ```swift
/// ArgumentDomain.parse(["app", "-theme", "dark", "-sizes", "(1, 2)", "-verbose"])
/// // ["theme": "dark", "sizes": ["1", "2"]]
/// ```
package enum ArgumentDomain {
    /// The argument domain of `arguments`.
    /// - Parameter arguments: the launch arguments, typically `CommandLine.arguments`.
    /// - Returns: the key-value pairs found; a later pair for the same key wins.
    package static func parse(_ arguments: [String]) -> [String: PreferenceValue] {
        var domain: [String: PreferenceValue] = [:]
        var index = arguments.startIndex
        while index + 1 < arguments.endIndex {
            let flag = arguments[index]
            let next = arguments[index + 1]
            guard flag.hasPrefix("-"), flag.count > 1, !next.hasPrefix("-") else {
                index += 1
                continue
            }
            domain[String(flag.dropFirst())] = value(of: next)
            index += 2
        }
        return domain
    }

    /// The value of one argument: property-list text when it looks like one and parses, else the string.
    package static func value(of argument: String) -> PreferenceValue {
        let trimmed = argument.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let first = trimmed.first, "({<\"".contains(first),
              let parsed = try? PropertyListText.parse(trimmed)
        else { return .string(trimmed) }
        return parsed
    }
}
