import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// A key of more combining marks in a row than any text needs (Swift takes time quadratic in their
/// number to hash or compare it) is refused by every reader of untrusted text and by the write path,
/// before it is hashed; one of up to 30 is a key like any other.
@Suite struct CombiningMarkTests {
    /// `count` combining marks of two classes, alternating, so that normalizing must reorder them.
    static func marks(_ count: Int) -> String {
        String(String.UnicodeScalarView((0..<count).map { Unicode.Scalar($0.isMultiple(of: 2) ? 0x0301 : 0x0316)! }))
    }

    static let hostile = "k" + marks(2_000)
    static let fine = "e" + marks(String.maximumCombiningRun)

    @Test func theStreamSafeLimitIsThirtyInARow() {
        #expect(Self.fine.isStreamSafe)
        #expect(!("e" + Self.marks(31)).isStreamSafe)
        #expect(("a" + Self.marks(30) + "b" + Self.marks(30)).isStreamSafe, "a run ends at a starter")
        #expect("ASCII, and é, ü, 日本語".isStreamSafe)
    }

    @Test(arguments: [PropertyListFormat.xml, .binary])
    func aPropertyListHoldingSuchAKeyIsRefused(format: PropertyListFormat) throws {
        let top = try PreferenceValue.propertyListData([Self.hostile: 1], format: format)
        #expect(throws: DefaultsError.self) { try PreferenceValue.dictionary(propertyList: top, path: "top") }
        let nested = try PreferenceValue.propertyListData(["k": .dictionary([Self.hostile: 1])], format: format)
        #expect(throws: DefaultsError.unmappableValues(path: "nested", keys: ["k"])) {
            try PreferenceValue.dictionary(propertyList: nested, path: "nested")
        }
        let fine = try PreferenceValue.propertyListData([Self.fine: 1], format: format)
        #expect(try PreferenceValue.dictionary(propertyList: fine, path: "fine") == [Self.fine: 1])
    }

    @Test func oldStyleTextHoldingSuchAKeyIsRefused() {
        #expect(throws: PropertyListText.ParseError.self) { try PropertyListText.parse("{ \"\(Self.hostile)\" = 1; }") }
        #expect(throws: Never.self) { try PropertyListText.parse("{ \"\(Self.fine)\" = 1; }") }
    }

    @Test func aSchemaFileHoldingSuchTextIsRefused() {
        let text = #"{"format":2,"suite":"s","version":1,"keys":[{"name":"\#(Self.hostile)","summary":"s"}]}"#
        #expect {
            try PreferenceSchema(jsonData: Data(text.utf8), path: "schema")
        } throws: { error in
            guard case .malformedSchema("schema", let reason) = error as? DefaultsError else { return false }
            return reason.contains("combining marks")
        }
    }

    @Test func theWritePathAndTheArgumentDomainRefuseSuchAKey() throws {
        let defaults = try makeInMemoryDefaults()
        #expect(throws: DefaultsError.invalidKey(suite: "test.suite")) { try defaults.write(1, forKey: Self.hostile) }
        #expect(throws: DefaultsError.invalidKey(suite: "test.suite")) {
            try defaults.replacePersistentValues([Self.fine: 1, Self.hostile: 2])
        }
        try defaults.write(1, forKey: Self.fine)
        #expect(try defaults.persistentValues() == [Self.fine: 1])
        #expect(
            ArgumentDomain.parse(["-" + Self.hostile, "1", "-" + Self.fine, "2", "-k", "v" + Self.marks(40)]) == [Self.fine: "2"])
    }
}
