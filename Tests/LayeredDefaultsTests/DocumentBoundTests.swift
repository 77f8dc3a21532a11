import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults
@testable import LayeredDefaultsValues

/// What a document stands for is bounded in values and in bytes, each use of a shared object counted
/// again: at most `PreferenceValue.maximumPropertyListValues` values and
/// `PreferenceValue.maximumDocumentBytes` (64 MiB) bytes of text and data. Before, a binary property list
/// sharing one 1 MiB string under 400 keys (as Python's `plistlib` writes equal strings), about 1 MiB,
/// was imported as 421 MB.
@Suite struct DocumentBoundTests {
    /// 64 keys of 3 bytes and a string standing for the rest of the bound: exactly 64 MiB is read, one
    /// byte more (a key one byte longer) is refused, naming the bound.
    @Test func aSharedStringIsCountedAtEachUseToTheByte() throws {
        let keys = (0..<64).map { String(format: "k%02d", $0) }
        let length = (PreferenceValue.maximumDocumentBytes - 64 * 3) / 64
        #expect(64 * 3 + 64 * length == PreferenceValue.maximumDocumentBytes)
        let atTheBound = HandMadeBinaryPropertyList.sharedString(under: keys, length: length)
        #expect(atTheBound.count < 1 << 21, "the document is about the string's size")
        let values = try PreferenceValue.dictionary(propertyList: atTheBound, path: "shared")
        #expect(values.count == 64)
        #expect(values["k63"].flatMap(\.stringValue)?.utf8.count == length)

        let past = HandMadeBinaryPropertyList.sharedString(under: ["k000"] + keys.dropFirst(), length: length)
        #expect(throws: DefaultsError.notPropertyListFile(path: "shared", reason: Self.tooManyBytes)) {
            try PreferenceValue.dictionary(propertyList: past, path: "shared")
        }
    }

    /// The shape: one 1 MiB string under 400 keys, a document of about 1 MiB.
    @Test func aMegabyteStringUnderFourHundredKeysIsRefused() throws {
        let document = HandMadeBinaryPropertyList.sharedString(under: (0..<400).map { "key\($0)" }, length: 1 << 20)
        #expect(throws: DefaultsError.notPropertyListFile(path: "shared", reason: Self.tooManyBytes)) {
            try PreferenceValue.dictionary(propertyList: document, path: "shared")
        }
    }

    static let tooManyBytes =
        "it stands for more than \(PreferenceValue.maximumDocumentBytes) bytes of text and data (a shared object counts each time it is used)"

    /// The values bound, at its edge, as every reader applies it (the JSON import and a whole-domain
    /// `prefs write` too): 1,000,000 values are within it, 1,000,001 are not; a container counts as a
    /// value, as does each element.
    @Test func theValueBoundAtItsEdge() {
        let limit = PreferenceValue.maximumPropertyListValues
        let within: [(key: String, value: PreferenceValue)] = [
            (key: "list", value: .array(Array(repeating: .integer(0), count: limit - 2))), (key: "one", value: "x"),
        ]
        #expect(PreferenceValue.documentExcess(of: within) == nil)
        let past = within + [(key: "more", value: .bool(true))]
        #expect(
            PreferenceValue.documentExcess(of: past)
                == "it stands for more than \(limit) values (a shared object counts each time it is used)")
    }

    /// The bytes bound, at its edge, counted over keys at every depth, strings and data: 1 + (half - 2)
    /// + 1 + 2 + (half - 2) bytes are exactly the bound, a key one byte longer passes it.
    @Test func theByteBoundAtItsEdgeCountsKeysStringsAndData() {
        let half = PreferenceValue.maximumDocumentBytes / 2
        let text = String(repeating: "y", count: half - 2)
        let data = Data(count: half - 2)
        let within: [(key: String, value: PreferenceValue)] = [
            (key: "a", value: .array([.string(text)])), (key: "b", value: .dictionary(["cc": .data(data)])),
        ]
        #expect(PreferenceValue.documentExcess(of: within) == nil)
        let past: [(key: String, value: PreferenceValue)] = [
            (key: "a", value: .array([.string(text)])), (key: "b", value: .dictionary(["ccc": .data(data)])),
        ]
        #expect(PreferenceValue.documentExcess(of: past) == Self.tooManyBytes)
    }
}
