import Foundation

/// A strict reader of XML property lists, written for untrusted files.
///
/// It reads what Foundation writes (`<plist version="1.0"><dict>...`, UTF-8) and refuses what
/// Foundation's reader would guess at: a dictionary key held twice (Foundation keeps the last), a date
/// that is not a real date (`2020-13-45T99:99:99Z`, which Foundation rolls over into 2021), text in
/// `<data>` that is not canonical base64 (`AB==`, which Foundation reads as `AA==`), a character
/// reference to a lone UTF-16 surrogate (which becomes U+FFFD), an integer outside `Int64`, a real too
/// large for a `Double`. Each such value maps to no
/// ``PreferenceValue``, so the key holding it is named; a document whose markup cannot be read is refused
/// whole. A document type with an internal subset (where entities could be defined) is refused.
///
/// NB: like Foundation's own reader, and unlike a general XML parser, it keeps a string's line endings
/// as they are: what Foundation writes reads back exactly.
struct XMLPropertyListReader {
    /// The entries of the document's top-level dictionary, in document order: each key with its value,
    /// or with nil where the value has no exact ``PreferenceValue``.
    /// - Throws: ``PropertyListMalformed`` when the markup cannot be read, the text is not UTF-8, the
    ///   top level is not a dictionary, or the document holds more than `limit` values.
    static func entries(of bytes: [UInt8], limit: Int) throws(PropertyListMalformed) -> [PropertyListEntry] {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw PropertyListMalformed("its text is not valid UTF-8")
        }
        var reader = XMLPropertyListReader(bytes: bytes, limit: limit)
        return try reader.document()
    }

    // The markup the reader looks for.
    private static let declarationStart = Array("<?xml".utf8)
    private static let instructionEnd = Array("?>".utf8)
    private static let endTagStart = Array("</".utf8)
    private static let cdataStart = Array("<![CDATA[".utf8)
    private static let cdataEnd = Array("]]>".utf8)
    private static let commentStart = Array("<!--".utf8)
    private static let commentEnd = Array("-->".utf8)
    private static let instructionStart = Array("<?".utf8)
    private static let documentTypeStart = Array("<!DOCTYPE".utf8)

    private let bytes: [UInt8]
    private let limit: Int
    private var index = 0
    private var counted = 0

    private init(bytes: [UInt8], limit: Int) {
        self.bytes = bytes
        self.limit = limit
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }  // a byte-order mark
    }

    /// A start tag: its element's name, and whether it was empty (`<name/>`).
    private struct StartTag {
        var name: String
        var isEmpty: Bool
    }

    /// A value with how deeply its containers nest; nil when it has no exact ``PreferenceValue``.
    private struct Mapped {
        var value: PreferenceValue?
        var height: Int
    }

    private mutating func document() throws(PropertyListMalformed) -> [PropertyListEntry] {
        // NB: white space before the declaration is not XML, but the declaration is still read, so that
        // an encoding it names is never skipped over as a processing instruction.
        skipSpace()
        if bytes[index...].starts(with: Self.declarationStart) { try declaration() }
        try skipMisc(allowingDocumentType: true)
        var tag = try startTag()
        let wrapped = tag.name == "plist"
        if wrapped {
            guard !tag.isEmpty else { throw PropertyListMalformed("its plist element is empty") }
            try skipMisc()
            tag = try startTag()
        }
        guard tag.name == "dict" else { throw PropertyListMalformed("its top level is not a dictionary") }
        counted = 1
        var entries: [PropertyListEntry] = []
        if !tag.isEmpty {
            while let key = try nextKey(closing: "dict") {
                guard let key else { throw PropertyListMalformed("a key of its top-level dictionary is not valid text") }
                entries.append(
                    PropertyListEntry(key: key, value: try value(depthLeft: PreferenceValue.maximumNestingDepth).value))
            }
        }
        if wrapped {
            try skipMisc()
            try endTag("plist")
        }
        try skipMisc()
        guard index == bytes.count else { throw PropertyListMalformed("markup follows its top-level element") }
        return entries
    }

    /// `<?xml version="1.0" encoding="UTF-8"?>`: any encoding it names must be UTF-8.
    private mutating func declaration() throws(PropertyListMalformed) {
        guard let end = find(Self.instructionEnd) else { throw PropertyListMalformed("its XML declaration is not closed") }
        let text = String(decoding: bytes[index..<end], as: UTF8.self).lowercased()
        if let range = text.range(of: "encoding") {
            let rest = text[range.upperBound...].drop { " =\"'\t\r\n".contains($0) }
            guard rest.hasPrefix("utf-8") || rest.hasPrefix("utf8") else {
                throw PropertyListMalformed("its XML declaration names an encoding other than UTF-8")
            }
        }
        index = end + 2
    }

    /// The next value's element, read whole.
    private mutating func value(depthLeft: Int) throws(PropertyListMalformed) -> Mapped {
        counted += 1
        guard counted <= limit else { throw PropertyListMalformed("it holds more than \(limit) values") }
        try skipMisc()
        let tag = try startTag()
        func scalar(_ value: PreferenceValue?) -> Mapped { Mapped(value: value, height: 0) }
        switch tag.name {
        case "string": return scalar(try text(of: tag).map(PreferenceValue.string))
        case "integer": return scalar(try text(of: tag).flatMap(Self.integer).map(PreferenceValue.integer))
        case "real": return scalar(try text(of: tag).flatMap(Self.real).map(PreferenceValue.double))
        case "date": return scalar(try text(of: tag).flatMap(Self.date).map(PreferenceValue.date))
        case "data": return scalar(try text(of: tag).flatMap(Self.data).map(PreferenceValue.data))
        case "true", "false":
            if !tag.isEmpty { try endTag(tag.name) }
            return scalar(.bool(tag.name == "true"))
        case "array", "dict":
            guard depthLeft > 0 else {
                try skipContent(of: tag)
                return Mapped(value: nil, height: depthLeft + 1)
            }
            return tag.name == "array" ? try array(tag, depthLeft: depthLeft) : try dictionary(tag, depthLeft: depthLeft)
        default:
            throw PropertyListMalformed("it has an element that is not a property-list value")
        }
    }

    private mutating func array(_ tag: StartTag, depthLeft: Int) throws(PropertyListMalformed) -> Mapped {
        var values: [PreferenceValue] = []
        var result = Mapped(value: nil, height: 1)
        var exact = true
        if !tag.isEmpty {
            while true {
                try skipMisc()
                if bytes[index...].starts(with: Self.endTagStart) { break }
                let element = try value(depthLeft: depthLeft - 1)
                result.height = max(result.height, element.height + 1)
                if let value = element.value { values.append(value) } else { exact = false }
            }
            try endTag("array")
        }
        result.value = exact ? .array(values) : nil
        return result
    }

    private mutating func dictionary(_ tag: StartTag, depthLeft: Int) throws(PropertyListMalformed) -> Mapped {
        var values: [String: PreferenceValue] = [:]
        var result = Mapped(value: nil, height: 1)
        var exact = true
        if !tag.isEmpty {
            while let key = try nextKey(closing: "dict") {
                let element = try value(depthLeft: depthLeft - 1)
                result.height = max(result.height, element.height + 1)
                // String's == treats canonically equivalent texts as one key, as the store does.
                if let key, key.isStreamSafe, let value = element.value, values.updateValue(value, forKey: key) == nil {
                    continue
                }
                exact = false
            }
        }
        result.value = exact ? .dictionary(values) : nil
        return result
    }

    /// The next `<key>` of a dictionary (nil inside when its text is not valid), or nil at its end tag,
    /// which it reads.
    private mutating func nextKey(closing name: String) throws(PropertyListMalformed) -> String?? {
        try skipMisc()
        if bytes[index...].starts(with: Self.endTagStart) {
            try endTag(name)
            return nil
        }
        let tag = try startTag()
        guard tag.name == "key" else { throw PropertyListMalformed("a dictionary holds a value without a key") }
        return .some(try text(of: tag))
    }

    /// The character data of a text element up to its end tag, entities and CDATA resolved; nil when a
    /// character reference names no Unicode scalar (a lone surrogate).
    private mutating func text(of tag: StartTag) throws(PropertyListMalformed) -> String? {
        guard !tag.isEmpty else { return "" }
        var text: [UInt8] = []
        var valid = true
        while true {
            guard index < bytes.count else { throw PropertyListMalformed("an element is not closed") }
            switch bytes[index] {
            case UInt8(ascii: "&"):
                if let scalar = try reference() {
                    UTF8.encode(scalar) { text.append($0) }
                } else {
                    valid = false
                }
            case UInt8(ascii: "<"):
                if bytes[index...].starts(with: Self.cdataStart) {
                    guard let end = find(Self.cdataEnd, from: index + 9) else {
                        throw PropertyListMalformed("a CDATA section is not closed")
                    }
                    text.append(contentsOf: bytes[(index + 9)..<end])
                    index = end + 3
                } else if bytes[index...].starts(with: Self.commentStart) {
                    try comment()
                } else {
                    try endTag(tag.name)
                    return valid ? String(decoding: text, as: UTF8.self) : nil
                }
            default:
                text.append(bytes[index])
                index += 1
            }
        }
    }

    /// An entity or character reference at `&`: its scalar, or nil for a reference to no scalar.
    private mutating func reference() throws(PropertyListMalformed) -> Unicode.Scalar? {
        guard let end = find([UInt8(ascii: ";")], from: index), end - index <= 12 else {
            throw PropertyListMalformed("an entity reference is not closed")
        }
        let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
        index = end + 1
        switch name {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default:
            let digits = name.dropFirst(name.hasPrefix("#x") ? 2 : 1)
            guard name.hasPrefix("#"), !digits.isEmpty, digits.allSatisfy(\.isHexDigit),
                let code = UInt32(digits, radix: name.hasPrefix("#x") ? 16 : 10)
            else { throw PropertyListMalformed("it uses an entity that XML property lists do not define") }
            return Unicode.Scalar(code)
        }
    }

    /// Skips the element whose start tag was just read, markup and all, without reading its values.
    private mutating func skipContent(of tag: StartTag) throws(PropertyListMalformed) {
        guard !tag.isEmpty else { return }
        var open = 1
        while open > 0 {
            guard let next = find([UInt8(ascii: "<")], from: index) else {
                throw PropertyListMalformed("an element is not closed")
            }
            index = next
            if bytes[index...].starts(with: Self.commentStart) {
                try comment()
            } else if bytes[index...].starts(with: Self.cdataStart) {
                guard let end = find(Self.cdataEnd, from: index) else {
                    throw PropertyListMalformed("a CDATA section is not closed")
                }
                index = end + 3
            } else if bytes[index...].starts(with: Self.endTagStart) {
                guard let end = find([UInt8(ascii: ">")], from: index) else {
                    throw PropertyListMalformed("an end tag is not closed")
                }
                index = end + 1
                open -= 1
            } else {
                open += try startTag().isEmpty ? 0 : 1
            }
        }
    }

    /// `<name attribute="...">` or `<name/>`.
    private mutating func startTag() throws(PropertyListMalformed) -> StartTag {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "<") else {
            throw PropertyListMalformed("text stands where an element was expected")
        }
        index += 1
        let name = self.name()
        guard !name.isEmpty else { throw PropertyListMalformed("an element has no name") }
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: ">"):
                index += 1
                return StartTag(name: name, isEmpty: false)
            case UInt8(ascii: "/"):
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ">") else { break }
                index += 2
                return StartTag(name: name, isEmpty: true)
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                guard let end = find([bytes[index]], from: index + 1) else {
                    throw PropertyListMalformed("an attribute value is not closed")
                }
                index = end + 1
                continue
            case UInt8(ascii: "<"):
                throw PropertyListMalformed("a start tag is not closed")
            default:
                break
            }
            index += 1
        }
        throw PropertyListMalformed("a start tag is not closed")
    }

    /// `</name>`, white space before the `>` allowed.
    private mutating func endTag(_ expected: String) throws(PropertyListMalformed) {
        guard bytes[index...].starts(with: Self.endTagStart) else { throw PropertyListMalformed("an element is not closed") }
        index += 2
        guard name() == expected else { throw PropertyListMalformed("an end tag does not match its start tag") }
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
            throw PropertyListMalformed("an end tag is not closed")
        }
        index += 1
    }

    /// Skips white space, comments and processing instructions (and, before the top element, a
    /// document type without an internal subset).
    private mutating func skipMisc(allowingDocumentType: Bool = false) throws(PropertyListMalformed) {
        while true {
            skipSpace()
            if bytes[index...].starts(with: Self.commentStart) {
                try comment()
            } else if bytes[index...].starts(with: Self.instructionStart) {
                guard let end = find(Self.instructionEnd) else {
                    throw PropertyListMalformed("a processing instruction is not closed")
                }
                index = end + 2
            } else if allowingDocumentType, bytes[index...].starts(with: Self.documentTypeStart) {
                guard let end = find([UInt8(ascii: ">")]),
                    !bytes[index..<end].contains(UInt8(ascii: "["))
                else { throw PropertyListMalformed("its document type has an internal subset") }
                index = end + 1
            } else {
                return
            }
        }
    }

    private mutating func comment() throws(PropertyListMalformed) {
        guard let end = find(Self.commentEnd, from: index + 4) else {
            throw PropertyListMalformed("a comment is not closed")
        }
        index = end + 3
    }

    private mutating func skipSpace() {
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
    }

    /// An element name: ASCII letters, digits, `-`, `_`, `.` and `:`.
    private mutating func name() -> String {
        let start = index
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: ":"):
                index += 1
            default:
                return String(decoding: bytes[start..<index], as: UTF8.self)
            }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Where `pattern` next starts at or after `start` (by default the current index), or nil.
    private func find(_ pattern: [UInt8], from start: Int? = nil) -> Int? {
        var position = start ?? index
        guard let first = pattern.first else { return position }
        while let found = bytes[position...].firstIndex(of: first) {
            if bytes[found...].starts(with: pattern) { return found }
            position = found + 1
        }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// `text` without the XML white space around it.
    private static func trimmed(_ text: String) -> Substring {
        let scalars = text.unicodeScalars
        let isText = { (scalar: Unicode.Scalar) in !(scalar.isASCII && isSpace(UInt8(scalar.value))) }
        guard let first = scalars.firstIndex(where: isText), let last = scalars.lastIndex(where: isText) else { return "" }
        return Substring(scalars[first...last])
    }

    /// `<integer>`: decimal (or `0x` hexadecimal) digits with an optional sign, within `Int64`.
    static func integer(_ text: String) -> Int? {
        var digits = trimmed(text)
        let negative = digits.first == "-"
        if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        let hexadecimal = digits.hasPrefix("0x") || digits.hasPrefix("0X")
        if hexadecimal { digits = digits.dropFirst(2) }
        guard !digits.isEmpty, digits.allSatisfy({ hexadecimal ? $0.isHexDigit : ("0"..."9").contains($0) }),
            let magnitude = UInt64(digits, radix: hexadecimal ? 16 : 10)
        else { return nil }
        return negative
            ? (magnitude <= UInt64(Int.max) + 1 ? Int(truncatingIfNeeded: 0 &- magnitude) : nil) : Int(exactly: magnitude)
    }

    /// `<real>`: a decimal number (refused when it overflows a `Double`), `nan`, or an infinity.
    static func real(_ text: String) -> Double? {
        let text = trimmed(text)
        switch text.lowercased() {
        case "nan": return .nan
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default:
            guard let number = Double(text), number.isFinite,
                text.allSatisfy({ ("0"..."9").contains($0) || "+-.eE".contains($0) })
            else { return nil }
            return number
        }
    }

    /// `<date>`: `YYYY-MM-DDTHH:MM:SSZ` naming a real moment of ``PreferenceValue/dateRange``.
    static func date(_ text: String) -> Date? {
        let characters = Array(trimmed(text).utf8)
        guard characters.count == 20, characters[4] == UInt8(ascii: "-"), characters[7] == UInt8(ascii: "-"),
            characters[10] == UInt8(ascii: "T"), characters[13] == UInt8(ascii: ":"),
            characters[16] == UInt8(ascii: ":"), characters[19] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for character in characters[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(character) else { return nil }
                value = value * 10 + Int(character - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            year >= 1, (1...12).contains(month), hour < 24, minute < 60, second < 60,
            (1...CivilCalendar.days(inMonth: month, of: year)).contains(day)
        else { return nil }
        let days = CivilCalendar.daysSinceReferenceDate(year: year, month: month, day: day)
        return Date(timeIntervalSinceReferenceDate: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    /// `<data>`: canonical padded base64, white space anywhere.
    static func data(_ text: String) -> Data? {
        let characters = text.unicodeScalars.filter { !($0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r") }
        return Data(canonicalBase64: String(characters))
    }
}
