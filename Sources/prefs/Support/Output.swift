import Foundation
import LayeredDefaults
import ToolSupport

/// How values are printed: property-list text as macOS `defaults` prints it, or JSON.
///
/// No text printed through here holds a raw control character (Unicode's `Cc`, `ESC` among them), which
/// a terminal would act on instead of showing: each is escaped as old-style property-list text escapes
/// it (`\U001b`, `\n`), except the newlines and tabs of a string `prefs read` prints as it is.
enum Output {
    /// A value as `prefs read <domain> <key>` prints it.
    ///
    /// A string prints as it is and a date as `2026-11-29 21:44:42 +0000`, unquoted, as macOS
    /// `defaults read` prints them (so `$(prefs read d k)` is the string itself, unless it holds a
    /// control character other than a newline or a tab: that is escaped, `\U001b`); every other value
    /// is old-style property-list text.
    static func text(of value: PreferenceValue) -> String {
        switch value {
        case .string(let string):
            return escapingControlCharacters(string, keeping: ["\n", "\t"])
        case .date:
            // NB: the library quotes a date because it contains spaces; the quotes are all it adds.
            return String(value.description.dropFirst().dropLast())
        default:
            return value.description
        }
    }

    /// A value as ``text(of:)`` prints it, on one line: a string's newlines and tabs escaped too, an
    /// array or a dictionary without its line breaks (`( a, b )`, `{ k = v; }`). What `keys` and
    /// `describe` print, one line each.
    static func line(of value: PreferenceValue) -> String {
        if case .string(let string) = value { return escapingControlCharacters(string) }
        return singleLine(text(of: value))
    }

    /// Property-list text (a value's `description`) on one line: its lines, trimmed,
    /// joined by a space.
    ///
    /// NB: a line break of formatted text is never inside a string, whose newlines it escapes.
    static func singleLine(_ formatted: String) -> String {
        formatted.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    /// A `name: value` line of `describe`; a value of several lines continues on lines indented by two
    /// spaces, so that none of them reads as a line of its own. Every other control character is escaped.
    static func field(_ name: String, _ value: String) -> String {
        let lines = value.split(separator: "\n", omittingEmptySubsequences: false)
        return "\(name): " + lines.map { escapingControlCharacters(String($0)) }.joined(separator: "\n  ")
    }

    /// `text` with each control character but those in `kept` escaped as in a quoted property-list
    /// string (``PropertyListText/escape(_:)``: `\n`, `\t`, `\r`, `\U001b`); anything else as it is.
    static func escapingControlCharacters(_ text: String, keeping kept: Set<Unicode.Scalar> = []) -> String {
        PropertyListText.escapingControlCharacters(in: text, keeping: kept)
    }

    /// True when `text` holds a control character (Unicode's `Cc`) other than those in `kept`.
    static func hasControlCharacter(_ text: String, besides kept: Set<Unicode.Scalar> = []) -> Bool {
        text.unicodeScalars.contains { !kept.contains($0) && $0.properties.generalCategory == .control }
    }

    /// A domain as property-list text: a dictionary, keys sorted.
    static func text(of values: [String: PreferenceValue]) -> String {
        PreferenceValue.dictionary(values).description
    }

    /// One line of JSON, keys sorted: what `--json` prints.
    static func jsonLine(_ value: some Encodable) throws -> String {
        String(decoding: try escapingC1Controls(JSONEncoder.sorted().encode(value)), as: UTF8.self)
    }

    /// Indented JSON, keys sorted, ending with a newline: what `export` writes.
    static func jsonDocument(_ value: some Encodable) throws -> Data {
        try escapingC1Controls(JSONEncoder.sorted(pretty: true).encode(value)) + Data("\n".utf8)
    }

    /// JSON with the control characters the encoder leaves raw (U+007F to U+009F; it escapes those
    /// below U+0020) written as `\u007f`: the same JSON to a reader, nothing a terminal acts on.
    ///
    /// NB: outside its strings, JSON holds no such character, so each is inside a string.
    private static func escapingC1Controls(_ json: Data) -> Data {
        Data(
            replacingScalars(of: String(decoding: json, as: UTF8.self)) {
                (0x7F...0x9F).contains($0.value) ? String(format: "\\u%04x", $0.value) : nil
            }.utf8)
    }

    /// `text` with each scalar for which `replacement` gives a text replaced by it.
    private static func replacingScalars(of text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        guard text.unicodeScalars.contains(where: { replacement($0) != nil }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) {
                result += replaced
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
