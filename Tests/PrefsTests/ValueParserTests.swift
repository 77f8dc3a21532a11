import Foundation
import LayeredDefaults
import Testing

@testable import prefs

@Suite struct ValueParserTests {
    static let valid: [(String, ValueParser.ScalarType, PreferenceValue)] = [
        (" keep  spaces ", .string, .string(" keep  spaces ")),
        ("-42", .int, .integer(-42)), ("+7", .int, .integer(7)), ("9223372036854775807", .int, .integer(.max)),
        ("0.5", .float, .double(0.5)), ("-1e-3", .float, .double(-0.001)), ("inf", .float, .double(.infinity)),
        ("-Infinity", .float, .double(-.infinity)), ("12", .float, .double(12)),
        ("YES", .bool, .bool(true)), ("true", .bool, .bool(true)), ("1", .bool, .bool(true)),
        ("no", .bool, .bool(false)), ("FALSE", .bool, .bool(false)), ("0", .bool, .bool(false)),
        ("2026-11-29T21:44:42Z", .date, .date(Date(timeIntervalSinceReferenceDate: 817_681_482))),
        ("2026-11-29T22:44:42+01:00", .date, .date(Date(timeIntervalSinceReferenceDate: 817_681_482))),
        ("2026-11-29 21:44:42 +0000", .date, .date(Date(timeIntervalSinceReferenceDate: 817_681_482))),
        ("2026-11-29", .date, .date(Date(timeIntervalSinceReferenceDate: 817_603_200))),
        ("0a0B ff", .data, .data(Data([0x0a, 0x0b, 0xff]))), ("", .data, .data(Data())),
    ]

    @Test(arguments: valid)
    func parsesTypedValues(text: String, type: ValueParser.ScalarType, expected: PreferenceValue) throws {
        #expect(try ValueParser.parse(text, as: type) == expected)
    }

    @Test func parsesFractionalSeconds() throws {
        let value = try ValueParser.parse("2026-11-29T21:44:42.250Z", as: .date)
        guard case .date(let date) = value else {
            Issue.record("not a date")
            return
        }
        #expect(abs(date.timeIntervalSinceReferenceDate - 817_681_482.25) < 0.001)
    }

    static let invalid: [(String, ValueParser.ScalarType)] = [
        ("abc", .int), ("", .int), ("1.5", .int), ("9223372036854775808", .int), ("12abc", .int),
        ("", .float), ("one", .float), ("1e999", .float), ("-1e999", .float), ("0x1p99999", .float), ("maybe", .bool),
        ("", .bool),
        ("yesterday", .date), ("2026-13-45", .date), ("2026-11-29T21:44:42", .date), ("2026-11-29 trailing", .date),
        ("abc", .data), ("0a0", .data),
    ]

    @Test(arguments: invalid)
    func rejectsBadValuesWithoutEchoingThem(text: String, type: ValueParser.ScalarType) {
        do {
            let value = try ValueParser.parse(text, as: type)
            Issue.record("accepted as \(value.typeName)")
        } catch {
            guard case .usage(let message) = error else {
                Issue.record("not a usage error")
                return
            }
            #expect(
                message == "-\(type.rawValue) needs \(type.expectation); nothing was changed", "the message never quotes the text"
            )
        }
    }

    @Test func typeFlagsAndAliases() {
        #expect(ValueParser.ScalarType(flag: "-int") == .int)
        #expect(ValueParser.ScalarType(flag: "-integer") == .int)
        #expect(ValueParser.ScalarType(flag: "-boolean") == .bool)
        #expect(ValueParser.ScalarType(flag: "-float") == .float)
        #expect(ValueParser.ScalarType(flag: "int") == nil)
        #expect(ValueParser.ScalarType(flag: "-array") == nil)
    }

    @Test(arguments: [
        ("plain text", PreferenceValue.string("plain text")), ("  padded ", .string("padded")), ("42", .string("42")),
        ("(a, b)", .array(["a", "b"])), ("{ k = v; n = (1); }", .dictionary(["k": "v", "n": .array(["1"])])),
        ("<0a0b>", .data(Data([10, 11]))), ("\"quoted\"", .string("quoted")), ("(unterminated", .string("(unterminated")),
    ])
    func plainValuesAreStringsOrPropertyListText(text: String, expected: PreferenceValue) throws {
        #expect(try ValueParser.plain(text, domain: "app", key: "k") == expected)
    }

    @Test func arrayElementsAreStringsOrTyped() throws {
        #expect(try ValueParser.elements([]) == [])
        #expect(
            try ValueParser.elements(["a", "-int", "2", "-bool", "no", "-string", "-x", "-"])
                == [.string("a"), .integer(2), .bool(false), .string("-x"), .string("-")])
        #expect(throws: PrefsError.self) { try ValueParser.elements(["-nope", "1"]) }
        #expect(throws: PrefsError.self) { try ValueParser.elements(["-int"]) }
        #expect(throws: PrefsError.self) { try ValueParser.elements(["-int", "x"]) }
    }

    @Test func dictionaryEntriesArePairs() throws {
        #expect(try ValueParser.entries(["a", "1", "b", "-float", "2", "a", "3"]) == ["a": "3", "b": .double(2)])
        #expect(throws: PrefsError.usage("-dict needs a value after each key (the last key has none); nothing was changed")) {
            try ValueParser.entries(["a", "1", "private-key"])
        }
    }

    @Test(arguments: [("90s", 90.0), ("15m", 900), ("2h", 7200), ("7d", 604_800), ("1w", 604_800), ("1h30m", 5400), ("0s", 0)])
    func durations(text: String, seconds: Double) throws {
        #expect(try DurationText.seconds(text) == seconds)
    }

    @Test(arguments: ["", "5", "h", "1x", "1.5h", "-1d", "1h30"])
    func badDurations(text: String) {
        #expect(throws: PrefsError.self) { try DurationText.seconds(text) }
    }
}
