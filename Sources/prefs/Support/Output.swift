import Foundation
import LayeredDefaults
import ToolSupport

/// How values are printed: property-list text as macOS `defaults` prints it, or JSON.
enum Output {
    /// A value as `prefs read <domain> <key>` prints it.
    ///
    /// A string prints as it is and a date as `2026-11-29 21:44:42 +0000`, unquoted, as macOS
    /// `defaults read` prints them (so `$(prefs read d k)` is the string itself); every other value is
    /// old-style property-list text.
    static func text(of value: PreferenceValue) -> String {
        switch value {
        case .string(let string):
            return string
        case .date:
            // NB: the library quotes a date because it contains spaces; the quotes are all it adds.
            return String(PropertyListText.format(value).dropFirst().dropLast())
        default:
            return PropertyListText.format(value)
        }
    }

    /// A domain as property-list text: a dictionary, keys sorted.
    static func text(of values: [String: PreferenceValue]) -> String {
        PropertyListText.format(.dictionary(values))
    }

    /// One line of JSON, keys sorted: what `--json` prints.
    static func jsonLine(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder.sorted().encode(value), as: UTF8.self)
    }

    /// Indented JSON, keys sorted, ending with a newline: what `export` writes.
    static func jsonDocument(_ value: some Encodable) throws -> Data {
        try JSONEncoder.sorted(pretty: true).encode(value) + Data("\n".utf8)
    }
}
