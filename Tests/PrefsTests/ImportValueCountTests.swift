import Foundation
import LayeredDefaults
import Testing

@testable import LayeredDefaultsValues
@testable import prefs

/// `prefs import` counts the values of a JSON document before it decodes them.
@Suite struct ImportValueCountTests {
    /// The JSON import counts its values before decoding them, exactly for an export (fewer, never more,
    /// for a key spelled `dictionary`): a value is an object, a dictionary's body one more, the top object
    /// holds the keys. So 1,000,001 values are refused before
    /// the decoder builds them (it took 11 to 21 s, debug build), 1,000,000 are decoded and checked.
    @Test func theTaggedJSONOfAnExportIsCountedBeforeItIsDecoded() throws {
        let export =
            #"{"a":{"integer":1},"b":{"array":[{"string":"x"},{"dictionary":{"k":{"bool":true},"dictionary":{"data":"AA=="}}}]},"c":{"dictionary":{}}}"#
        let values = try JSONDecoder().decode([String: PreferenceValue].self, from: Data(export.utf8))
        #expect(values.values.reduce(0) { $0 + Self.count($1) } == 7)
        // A key spelled `dictionary` inside a dictionary is taken for a body: one fewer, never more.
        #expect(JSONMemberScan.taggedValueCount(in: Data(export.utf8), stoppingAbove: 100) == 6)
        #expect(JSONMemberScan.taggedValueCount(in: Data(export.utf8.map { $0 }).prefix(20), stoppingAbove: 100) == 1)
        #expect(JSONMemberScan.taggedValueCount(in: Data(#"{"s":{"string":"{{{\"{"}}"#.utf8), stoppingAbove: 100) == 1)
        #expect(JSONMemberScan.taggedValueCount(in: Data(#"{"s":{"dictionar\u0079":{}}}"#.utf8), stoppingAbove: 100) == 1)

        let limit = PreferenceValue.maximumPropertyListValues
        let list = { (count: Int) in
            Data(#"{"list":{"array":["#.utf8)
                + Data(Array(repeating: #"{"integer":0}"#, count: count).joined(separator: ",").utf8)
                + Data("]}}".utf8)
        }
        #expect(JSONMemberScan.taggedValueCount(in: list(limit - 1), stoppingAbove: limit) == limit)
        #expect(JSONMemberScan.taggedValueCount(in: list(limit), stoppingAbove: limit) == limit + 1)
    }

    /// Every value of `value`, itself included.
    static func count(_ value: PreferenceValue) -> Int {
        switch value {
        case .array(let values): values.reduce(1) { $0 + count($1) }
        case .dictionary(let values): values.values.reduce(1) { $0 + count($1) }
        default: 1
        }
    }
}
