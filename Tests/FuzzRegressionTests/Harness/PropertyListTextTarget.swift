import Foundation
import LayeredDefaults

extension FuzzTarget {
    /// Old-style property-list text (``PropertyListText``), as launch arguments and `prefs write` values
    /// are read; the input is UTF-8 text.
    ///
    /// Invariants: parsing returns a value or a parse error whose offset lies within the text; a value's
    /// leaves are strings or data; formatted, a value parses back identical (`parse(format(x)) == x`).
    static let propertyListText = FuzzTarget(name: "property-list-text") { data throws(FuzzViolation) in
        let text = FuzzInput.text(data)
        let value: PreferenceValue
        do throws(PropertyListText.ParseError) {
            value = try PropertyListText.parse(text)
        } catch {
            try expect(
                (0...text.unicodeScalars.count).contains(error.offset), "a parse error's offset lies within the text")
            return
        }
        try expect(value.leavesAreStringsOrData, "every leaf of parsed text is a string or data")
        try expectFormatRoundTrip(value)
    }

    /// Checks that `value`, formatted as property-list text, parses back identical.
    static func expectFormatRoundTrip(_ value: PreferenceValue) throws(FuzzViolation) {
        let again: PreferenceValue
        do throws(PropertyListText.ParseError) {
            again = try PropertyListText.parse(value.description)
        } catch {
            throw FuzzViolation(invariant: "format(x) of a parsed value x parses (\(error.kind) at offset \(error.offset))")
        }
        try expect(
            again.isIdentical(to: value),
            "parse(format(x)) is x (x is of type \(value.typeName), parse(format(x)) of type \(again.typeName))")
    }
}

extension PreferenceValue {
    /// True when every leaf is a string or data: all that old-style text holds.
    fileprivate var leavesAreStringsOrData: Bool {
        switch self {
        case .string, .data: true
        case .array(let values): values.allSatisfy(\.leavesAreStringsOrData)
        case .dictionary(let values): values.values.allSatisfy(\.leavesAreStringsOrData)
        case .integer, .double, .bool, .date: false
        }
    }
}
