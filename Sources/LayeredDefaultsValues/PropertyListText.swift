import Foundation

/// Old-style (OpenStep) property-list text: what launch arguments (`-key value`), `prefs read` and
/// `prefs write` use, and what a value's `description` prints. ``parse(_:)`` reads it back:
///
/// ```swift
/// let value = try PropertyListText.parse("{ size = 14; tags = (a, \"b c\"); }")
/// print(value)  // the same text, one member a line
/// ```
///
/// Grammar: a quoted string `"a \"b\""` (or `'...'`, with `\n`, `\t`, `\\`, `\"`, `\Uxxxx` and octal
/// escapes), an unquoted word of `A-Z a-z 0-9 _ $ / : . -`, an array `(a, b)`, a dictionary
/// `{ k = v; }`, data `<0a0b 0c>`; `//` comments (to the end of the line: a line feed, a carriage
/// return, U+2028 or U+2029) and `/* */` comments. Between items, white space is what Foundation
/// skips: tab, line feed, vertical tab, form feed, carriage return, space, U+2028 and U+2029. Every
/// leaf is a string or data, as in Foundation: `(1, 2)` is an array of the strings "1" and "2".
///
/// Where Foundation's reader would give another text, it refuses instead of guessing: an octal escape
/// above `\177` (Foundation reads it in the NeXTSTEP encoding; write `\Uxxxx`), a NUL character inside
/// a quoted string (Foundation refuses it too; write `\U0000`), a `\U` escape naming a lone UTF-16
/// surrogate (a pair, `\Ud83d\Ude00`, is one character, as in Foundation), a dictionary key held twice.
/// And where Foundation would refuse, it refuses too, never reading a value of its own: white space
/// Foundation does not skip (U+00A0, U+3000), a `+` outside quotes, white space inside a byte of data
/// (`<0b00a C>`) or other than space, tab, line feed, carriage return, U+2028 and U+2029 between bytes.
/// What a value's `description` prints of a tree of strings, data, arrays and dictionaries parses back
/// to that tree.
public enum PropertyListText {
    /// Nesting this deep or deeper is refused (``ParseError/Kind/tooDeep``) rather than risking the stack.
    static let maximumDepth = 256

    /// Why text is not an old-style property list, with the offset (in Unicode scalars) where it failed.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The kinds of failure a caller may treat differently.
        public enum Kind: Sendable, Equatable {
            /// The text does not follow the grammar.
            case malformed
            /// Arrays and dictionaries nest 256 levels or more, deeper than the parser follows.
            case tooDeep
        }

        /// What kind of failure this is.
        public let kind: Kind
        /// What was expected.
        let reason: String
        /// Where parsing stopped, counted in Unicode scalars from the start.
        public let offset: Int
        /// The message: what was expected and where, never the text itself.
        public var description: String { "Not an old-style property list: \(reason) at offset \(offset)" }
    }

    /// Parses one value that must span the whole text (surrounding white space and comments aside).
    /// - Throws: ``ParseError`` when the text is not exactly one old-style property list, of kind
    ///   ``ParseError/Kind/tooDeep`` when it nests 256 levels or more before it fails.
    public static func parse(_ text: String) throws(ParseError) -> PreferenceValue {
        var parser = Parser(scalars: Array(text.unicodeScalars))
        let value = try parser.value(depth: 0)
        try parser.skipSpace()
        guard parser.atEnd else { throw parser.error("unexpected text after the value") }
        return value
    }

    /// Formats a value as `defaults read` prints it: dictionaries and arrays indented by four spaces,
    /// strings quoted when they need it, numbers bare, booleans as 1/0, dates as
    /// `"2026-11-29 21:44:42 +0000"`, data as `<0a0b0c>` (which parses back to the same bytes, where
    /// macOS prints `{length = 3, bytes = 0x0a0b0c}`).
    static func format(_ value: PreferenceValue, indent: Int = 0) -> String {
        let pad = String(repeating: " ", count: indent)
        let inner = String(repeating: " ", count: indent + 4)
        switch value {
        case .string(let text): return quoted(text)
        case .integer(let number): return String(number)
        case .double(let number): return value.stringValue ?? String(number)
        case .bool(let flag): return flag ? "1" : "0"
        case .date(let date): return quoted(CivilCalendar.text(of: date) ?? "")
        case .data(let data):
            return "<\(data.map { String(format: "%02x", $0) }.joined())>"
        case .array(let values):
            guard !values.isEmpty else { return "(\n\(pad))" }
            let items = values.map { inner + format($0, indent: indent + 4) }
            return "(\n" + items.joined(separator: ",\n") + "\n\(pad))"
        case .dictionary(let values):
            guard !values.isEmpty else { return "{\n\(pad)}" }
            let items = values.keys.sorted().map { key in
                "\(inner)\(quoted(key)) = \(format(values[key]!, indent: indent + 4));"
            }
            return "{\n" + items.joined(separator: "\n") + "\n\(pad)}"
        }
    }

    /// A string as a property-list word: bare when every character is a word character and it holds no
    /// `//` or `/*` (a reader may take either for the start of a comment), quoted otherwise.
    static func quoted(_ text: String) -> String {
        if !text.isEmpty, text.unicodeScalars.allSatisfy(Parser.isWordCharacter), !text.contains("//"),
            !text.contains("/*")
        {
            return text
        }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            default:
                if let escape = escape(scalar) {
                    result += escape
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// The escape of `scalar` inside a quoted string when it is a control character (Unicode's `Cc`:
    /// U+0000 to U+001F, U+007F to U+009F), which a terminal may act on instead of showing: `\n`, `\t`,
    /// `\r`, else `\U001b`; nil for any other scalar, which stands for itself.
    static func escape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "\n": "\\n"
        case "\t": "\\t"
        case "\r": "\\r"
        default: scalar.properties.generalCategory == .control ? String(format: "\\U%04x", scalar.value) : nil
        }
    }

    /// `text` with each control character but those in `kept` escaped (``escape(_:)``), anything else as
    /// it is: text that is safe to print to a terminal, in an error message or a listing.
    package static func escapingControlCharacters(in text: String, keeping kept: Set<Unicode.Scalar> = []) -> String {
        guard text.unicodeScalars.contains(where: { !kept.contains($0) && escape($0) != nil }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if !kept.contains(scalar), let escaped = escape(scalar) {
                result += escaped
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

}

private struct Parser {
    let scalars: [Unicode.Scalar]
    var index = 0

    var atEnd: Bool { index >= scalars.count }

    static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "$", "/", ":", ".", "-": true
        default: false
        }
    }

    /// The white space Foundation skips between items.
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0x2028, 0x2029: true
        default: false
        }
    }

    /// What ends a `//` comment.
    static func isLineEnd(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x0D, 0x2028, 0x2029: true
        default: false
        }
    }

    func error(_ reason: String, kind: PropertyListText.ParseError.Kind = .malformed) -> PropertyListText.ParseError {
        PropertyListText.ParseError(kind: kind, reason: reason, offset: index)
    }

    mutating func skipSpace() throws(PropertyListText.ParseError) {
        while !atEnd {
            let scalar = scalars[index]
            if Self.isSpace(scalar) {
                index += 1
            } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "/" {
                while !atEnd, !Self.isLineEnd(scalars[index]) { index += 1 }
            } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
                index += 2
                while index + 1 < scalars.count, !(scalars[index] == "*" && scalars[index + 1] == "/") { index += 1 }
                guard index + 1 < scalars.count else { throw error("unterminated comment") }
                index += 2
            } else {
                return
            }
        }
    }

    mutating func value(depth: Int) throws(PropertyListText.ParseError) -> PreferenceValue {
        guard depth < PropertyListText.maximumDepth else { throw error("nesting too deep", kind: .tooDeep) }
        try skipSpace()
        guard !atEnd else { throw error("expected a value") }
        switch scalars[index] {
        case "(": return try array(depth: depth)
        case "{": return try dictionary(depth: depth)
        case "<": return try data()
        case "\"", "'": return .string(try quotedString())
        default: return .string(try word())
        }
    }

    mutating func word() throws(PropertyListText.ParseError) -> String {
        let start = index
        while !atEnd, Self.isWordCharacter(scalars[index]) { index += 1 }
        guard index > start else { throw error("unexpected character") }
        return String(String.UnicodeScalarView(scalars[start..<index]))
    }

    mutating func string() throws(PropertyListText.ParseError) -> String {
        guard !atEnd else { throw error("expected a string") }
        return scalars[index] == "\"" || scalars[index] == "'" ? try quotedString() : try word()
    }

    mutating func quotedString() throws(PropertyListText.ParseError) -> String {
        let quote = scalars[index]
        index += 1
        var result = String.UnicodeScalarView()
        while true {
            guard !atEnd else { throw error("unterminated quoted string") }
            let scalar = scalars[index]
            index += 1
            if scalar == quote { return String(result) }
            guard scalar != "\0" else { throw error("a NUL character inside a quoted string (write \\U0000)") }
            guard scalar == "\\" else {
                result.append(scalar)
                continue
            }
            guard !atEnd else { throw error("unterminated escape") }
            let escaped = scalars[index]
            index += 1
            switch escaped {
            case "n": result.append("\n")
            case "t": result.append("\t")
            case "r": result.append("\r")
            case "a": result.append("\u{07}")
            case "b": result.append("\u{08}")
            case "f": result.append("\u{0C}")
            case "v": result.append("\u{0B}")
            case "U", "u": result.append(try unicodeEscape())
            case "0"..."7": result.append(try octalEscape(first: escaped))
            default: result.append(escaped)
            }
        }
    }

    /// The character of `\\Uxxxx` (after the `U`), or of a pair of them naming a UTF-16 surrogate pair.
    mutating func unicodeEscape() throws(PropertyListText.ParseError) -> Unicode.Scalar {
        let unit = try hexDigits()
        if let scalar = Unicode.Scalar(unit) { return scalar }
        guard UTF16.isLeadSurrogate(UInt16(unit)), index + 1 < scalars.count, scalars[index] == "\\",
            scalars[index + 1] == "U" || scalars[index + 1] == "u"
        else { throw error("a \\U escape names a lone UTF-16 surrogate") }
        index += 2
        let trail = try hexDigits()
        guard UTF16.isTrailSurrogate(UInt16(trail)) else { throw error("a \\U escape names a lone UTF-16 surrogate") }
        return Unicode.Scalar(0x10000 + (unit - 0xD800) << 10 + (trail - 0xDC00))!
    }

    /// Four hex digits.
    mutating func hexDigits() throws(PropertyListText.ParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard !atEnd, let digit = scalars[index].hexDigitValue else { throw error("expected four hex digits") }
            value = value * 16 + UInt32(digit)
            index += 1
        }
        return value
    }

    /// The ASCII character of an octal escape of up to three digits; one above `\\177` is refused:
    /// Foundation reads it in the NeXTSTEP encoding.
    mutating func octalEscape(first: Unicode.Scalar) throws(PropertyListText.ParseError) -> Unicode.Scalar {
        var value = first.value - 48
        for _ in 0..<2 {
            guard !atEnd, ("0"..."7").contains(scalars[index]) else { break }
            value = value * 8 + scalars[index].value - 48
            index += 1
        }
        guard value < 0x80 else { throw error("an octal escape above \\177 (write \\Uxxxx instead)") }
        return Unicode.Scalar(UInt8(value))
    }

    mutating func array(depth: Int) throws(PropertyListText.ParseError) -> PreferenceValue {
        index += 1
        var values: [PreferenceValue] = []
        try skipSpace()
        while true {
            guard !atEnd else { throw error("unterminated array") }
            if scalars[index] == ")" {
                index += 1
                return .array(values)
            }
            values.append(try value(depth: depth + 1))
            try skipSpace()
            guard !atEnd else { throw error("unterminated array") }
            if scalars[index] == "," {
                index += 1
                try skipSpace()
            } else if scalars[index] != ")" {
                throw error("expected ',' or ')'")
            }
        }
    }

    mutating func dictionary(depth: Int) throws(PropertyListText.ParseError) -> PreferenceValue {
        index += 1
        var values: [String: PreferenceValue] = [:]
        while true {
            try skipSpace()
            guard !atEnd else { throw error("unterminated dictionary") }
            if scalars[index] == "}" {
                index += 1
                return .dictionary(values)
            }
            let key = try string()
            guard key.isStreamSafe else {
                throw error("a key holds more than \(String.maximumCombiningRun) combining marks in a row")
            }
            try skipSpace()
            guard !atEnd, scalars[index] == "=" else { throw error("expected '='") }
            index += 1
            let value = try value(depth: depth + 1)
            try skipSpace()
            guard !atEnd, scalars[index] == ";" else { throw error("expected ';'") }
            // String's == treats canonically equivalent texts as one key, as the store does.
            guard values.updateValue(value, forKey: key) == nil else { throw error("a dictionary holds a key twice") }
            index += 1
        }
    }

    mutating func data() throws(PropertyListText.ParseError) -> PreferenceValue {
        index += 1
        var bytes: [UInt8] = []
        var high: UInt8?
        while true {
            guard !atEnd else { throw error("unterminated data") }
            let scalar = scalars[index]
            index += 1
            if scalar == ">" {
                guard high == nil else { throw error("odd number of hex digits") }
                return .data(Data(bytes))
            }
            // NB: between bytes only, and not a vertical tab or form feed: Foundation refuses the others.
            if high == nil, scalar.value != 0x0B, scalar.value != 0x0C, Self.isSpace(scalar) { continue }
            guard let digit = scalar.hexDigitValue.map(UInt8.init) else { throw error("expected a hex digit") }
            if let first = high {
                bytes.append(first << 4 | digit)
                high = nil
            } else {
                high = digit
            }
        }
    }
}

extension Unicode.Scalar {
    fileprivate var hexDigitValue: Int? {
        switch self {
        case "0"..."9": Int(value - 48)
        case "a"..."f": Int(value - 87)
        case "A"..."F": Int(value - 55)
        default: nil
        }
    }
}
