import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

@Suite struct PreferenceValueTests {
    static let samples: [PreferenceValue] = [
        .string(""), .string("héllo \"world\"\n"), .integer(0), .integer(1), .integer(Int.max), .integer(Int.min),
        .double(1.0), .double(-0.5), .double(.infinity), .double(-.infinity), .double(1e-300), .bool(true), .bool(false),
        .date(Date(timeIntervalSinceReferenceDate: 786_000_000.123_456)), .data(Data()), .data(Data([0, 1, 2, 255])),
        .array([]), .array([.integer(1), .string("1"), .double(1), .bool(true)]),
        .dictionary([:]), .dictionary(["nested": .dictionary(["deep": .array([.data(Data([9]))])]), "b": .bool(false)]),
    ]

    @Test(arguments: samples)
    func codableRoundTrip(value: PreferenceValue) throws {
        let decoded = try JSONDecoder().decode(PreferenceValue.self, from: JSONEncoder().encode(value))
        #expect(decoded == value)
    }

    /// `print(value)` shows the value as `defaults read` prints it, not the enum's module path.
    @Test func printsAsDefaultsPrintsIt() {
        #expect("\(PreferenceValue.integer(14))" == "14")
        #expect("\(PreferenceValue.string("text"))" == "text")
        #expect("\(PreferenceValue.string("two words"))" == "\"two words\"")
        #expect("\(PreferenceValue.bool(true))" == "1")
        #expect("\(PreferenceValue.data(Data([10, 11])))" == "<0a0b>")
        #expect("\(PreferenceValue.array([.integer(1), .string("a b")]))" == "(\n    1,\n    \"a b\"\n)")
        #expect("\(PreferenceValue.dictionary(["size": .integer(12)]))" == "{\n    size = 12;\n}")
        var printed = ""
        print(PreferenceValue.integer(14), terminator: "", to: &printed)
        #expect(printed == "14")
    }

    /// `debugPrint` (and a failed expectation) tells apart values that print alike.
    @Test func debugDescriptionNamesTheType() {
        #expect(String(reflecting: PreferenceValue.integer(14)) == ".integer(14)")
        #expect(String(reflecting: PreferenceValue.string("14")) == #".string("14")"#)
        #expect(
            String(reflecting: PreferenceValue.dictionary(["a": .array([.bool(true)])]))
                == #".dictionary(["a": .array([.bool(true)])])"#)
        #expect(!String(reflecting: PreferenceValue.double(1)).contains("LayeredDefaultsValues"))
    }

    @Test func nanRoundTripsThroughJSON() throws {
        let decoded = try JSONDecoder().decode(PreferenceValue.self, from: JSONEncoder().encode(PreferenceValue.double(.nan)))
        guard case .double(let number) = decoded else {
            Issue.record("not a double")
            return
        }
        #expect(number.isNaN)
    }

    @Test func boolIntegerAndDoubleStayDistinct() throws {
        let values: [PreferenceValue] = [.bool(true), .integer(1), .double(1)]
        let decoded = try JSONDecoder().decode([PreferenceValue].self, from: JSONEncoder().encode(values))
        #expect(decoded == values)
        #expect(Set(values).count == 3)
    }

    /// Anything that is not one tagged value is refused, also what would decode as another value: a
    /// member besides the tag (it was dropped), base64 that is not canonical ("AB==" read as "AA==").
    @Test(arguments: [
        "{}", #"{"integer":1,"string":"a"}"#, #"{"nope":1}"#, #"{"data":"%%%"}"#, #"{"integer":"1"}"#,
        #"{"string":"a","bogus":1}"#, #"{"array":[{"string":"a","bogus":1}]}"#, #"{"data":"AB=="}"#, #"{"data":"AAE"}"#,
    ])
    func malformedJSONIsRejected(text: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PreferenceValue.self, from: Data(text.utf8)) }
    }

    @Test func bridgesPropertyListTypes() throws {
        let date = Date()
        #expect(try PreferenceValue(any: "s") == .string("s"))
        #expect(try PreferenceValue(any: true) == .bool(true))
        #expect(try PreferenceValue(any: 7) == .integer(7))
        #expect(try PreferenceValue(any: Int8(-3)) == .integer(-3))
        #expect(try PreferenceValue(any: UInt64(Int.max)) == .integer(Int.max))
        #expect(try PreferenceValue(any: 2.5) == .double(2.5))
        #expect(try PreferenceValue(any: Float(0.5)) == .double(0.5))
        #expect(try PreferenceValue(any: date) == .date(date))
        #expect(try PreferenceValue(any: Data([1])) == .data(Data([1])))
        #expect(try PreferenceValue(any: [1, 2] as [Any]) == .array([.integer(1), .integer(2)]))
        #expect(try PreferenceValue(any: ["a": ["b": 1]] as [String: Any]) == .dictionary(["a": .dictionary(["b": .integer(1)])]))
        #expect(try PreferenceValue(any: NSNumber(value: 3)) == .integer(3))
        #expect(try PreferenceValue(any: NSNumber(value: 3.5)) == .double(3.5))
    }

    struct Custom {}

    enum NonPropertyList: CaseIterable, Sendable {
        case url, customStruct, integerKeys, structInArray, urlInDictionary

        var value: Any {
            switch self {
            case .url: URL(string: "https://example.com")!
            case .customStruct: Custom()
            case .integerKeys: [1: "a"]
            case .structInArray: [Custom()]
            case .urlInDictionary: ["k": URL(fileURLWithPath: "/tmp")]
            }
        }

        var typeName: String {
            switch self {
            case .url, .urlInDictionary: "URL"
            case .customStruct, .structInArray: "Custom"
            case .integerKeys: "Dictionary<Int, String>"
            }
        }
    }

    @Test(arguments: NonPropertyList.allCases)
    func rejectsNonPropertyLists(kind: NonPropertyList) {
        #expect {
            try PreferenceValue(any: kind.value, suite: "s", key: "k")
        } throws: { error in
            guard case .notPropertyList(let suite, let key, let type) = error as? DefaultsError else { return false }
            return suite == "s" && key == "k" && type == kind.typeName
        }
    }

    @Test func rejectsUnsignedValuesBeyondInt64() {
        #expect(throws: DefaultsError.valueOutOfRange(suite: "s", key: "k", type: "UInt64")) {
            try PreferenceValue(any: UInt64.max, suite: "s", key: "k")
        }
    }

    @Test func anyValueRoundTrips() throws {
        for value in Self.samples where value != .double(.nan) {
            #expect(try PreferenceValue(any: value.anyValue) == value)
        }
    }
}
