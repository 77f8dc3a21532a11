import Foundation

/// Parses launch arguments into the argument domain, as Foundation does.
///
/// An argument `-key` followed by one that does not start with `-` is a pair. The value is trimmed;
/// when it then starts with `(`, `{`, `<` or `"` it is parsed as old-style property-list text
/// (``PropertyListText``), falling back to the raw string when that fails; any other value is a string.
/// A `-key` followed by another `-flag`, or last, is dropped, and so is a bare `-`, and a pair holding more
/// than `String.maximumCombiningRun` combining marks in a row (which no key needs, and which costs time
/// quadratic in its length to hash).
///
/// ```swift
/// ArgumentDomain.parse(["app", "-theme", "dark", "-sizes", "(1, 2)", "-verbose"])
/// // ["theme": "dark", "sizes": ["1", "2"]]
/// ```
package enum ArgumentDomain {
    /// The argument domain of `arguments`.
    /// - Parameter arguments: the launch arguments, typically `CommandLine.arguments`.
    /// - Returns: the key-value pairs found; a later pair for the same key wins.
    static func parse(_ arguments: [String]) -> [String: PreferenceValue] {
        var domain: [String: PreferenceValue] = [:]
        var index = arguments.startIndex
        while index + 1 < arguments.endIndex {
            let flag = arguments[index]
            let next = arguments[index + 1]
            guard flag.isStreamSafe, next.isStreamSafe, flag.hasPrefix("-"), flag.count > 1, !next.hasPrefix("-") else {
                index += 1
                continue
            }
            domain[String(flag.dropFirst())] = value(of: next)
            index += 2
        }
        return domain
    }

    /// The value of one argument: property-list text when it looks like one and parses, else the string.
    static func value(of argument: String) -> PreferenceValue {
        do {
            return try checkedValue(of: argument)
        } catch {
            return .string(argument.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// The value of one argument as ``value(of:)`` reads it, except that property-list text nested
    /// ``PropertyListText/maximumDepth`` levels or more is refused rather than read as a string.
    ///
    /// Text that deep is no string anyone meant, but Foundation reads such a launch argument as one,
    /// so only `prefs write` uses this.
    /// - Throws: ``PropertyListText/ParseError`` of kind ``PropertyListText/ParseError/Kind/tooDeep``.
    package static func checkedValue(of argument: String) throws(PropertyListText.ParseError) -> PreferenceValue {
        let trimmed = argument.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let first = trimmed.first, "({<\"".contains(first) else { return .string(trimmed) }
        do {
            return try PropertyListText.parse(trimmed)
        } catch  where error.kind == .tooDeep {
            throw error
        } catch {
            return .string(trimmed)
        }
    }
}
