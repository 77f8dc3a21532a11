import Foundation
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// The typed getters follow Foundation's conversions (as Migrating from UserDefaults says).
@Suite struct ConversionTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let stored: PreferenceValue
        let integer: Int
        let double: Double
        let bool: Bool
        let string: String?
        var testDescription: String { "\(stored)" }
    }

    static let table: [Row] = [
        Row(stored: .integer(42), integer: 42, double: 42, bool: true, string: "42"),
        Row(stored: .integer(0), integer: 0, double: 0, bool: false, string: "0"),
        Row(stored: .double(12.5), integer: 12, double: 12.5, bool: true, string: "12.5"),
        Row(stored: .double(-1.9), integer: -1, double: -1.9, bool: true, string: "-1.9"),
        Row(stored: .double(3), integer: 3, double: 3, bool: true, string: "3"),
        Row(stored: .bool(true), integer: 1, double: 1, bool: true, string: "1"),
        Row(stored: .bool(false), integer: 0, double: 0, bool: false, string: "0"),
        Row(stored: .string("1234"), integer: 1234, double: 1234, bool: true, string: "1234"),
        Row(stored: .string("12.34"), integer: 12, double: 12.34, bool: true, string: "12.34"),
        Row(stored: .string("  -7abc"), integer: -7, double: -7, bool: true, string: "  -7abc"),
        Row(stored: .string("YES"), integer: 0, double: 0, bool: true, string: "YES"),
        Row(stored: .string("true"), integer: 0, double: 0, bool: true, string: "true"),
        Row(stored: .string("1"), integer: 1, double: 1, bool: true, string: "1"),
        Row(stored: .string("NO"), integer: 0, double: 0, bool: false, string: "NO"),
        Row(stored: .string("0"), integer: 0, double: 0, bool: false, string: "0"),
        Row(stored: .string("abc"), integer: 0, double: 0, bool: false, string: "abc"),
        Row(stored: .string("1e3"), integer: 1, double: 1000, bool: true, string: "1e3"),
        Row(stored: .string("-"), integer: 0, double: 0, bool: false, string: "-"),
        Row(stored: .string("-abc"), integer: 0, double: 0, bool: false, string: "-abc"),
        Row(stored: .string("-.5"), integer: 0, double: -0.5, bool: false, string: "-.5"),
        Row(stored: .data(Data([1])), integer: 0, double: 0, bool: false, string: nil),
        Row(stored: .array([.string("1")]), integer: 0, double: 0, bool: false, string: nil),
    ]

    @Test(arguments: table)
    func typedGettersConvert(row: Row) throws {
        let defaults = try makeInMemoryDefaults()
        try defaults.write(row.stored, forKey: "k")
        #expect(defaults.integer(forKey: "k") == row.integer)
        #expect(defaults.double(forKey: "k") == row.double)
        #expect(defaults.float(forKey: "k") == Float(row.double))
        #expect(defaults.bool(forKey: "k") == row.bool)
        #expect(defaults.string(forKey: "k") == row.string)
    }

    @Test func missingKeysReadZeroFalseNil() throws {
        let defaults = try makeInMemoryDefaults()
        #expect(defaults.integer(forKey: "none") == 0)
        #expect(defaults.double(forKey: "none") == 0)
        #expect(defaults.bool(forKey: "none") == false)
        #expect(defaults.string(forKey: "none") == nil)
        #expect(defaults.object(forKey: "none") == nil)
        #expect(defaults.array(forKey: "none") == nil)
        #expect(defaults.dictionary(forKey: "none") == nil)
        #expect(defaults.data(forKey: "none") == nil)
        #expect(defaults.url(forKey: "none") == nil)
    }

    @Test func containerGetters() throws {
        let defaults = try makeInMemoryDefaults()
        try defaults.write(["a", "b"], forKey: "strings")
        try defaults.write(["a", 1], forKey: "mixed")
        try defaults.write(["k": 1], forKey: "dict")
        #expect(defaults.stringArray(forKey: "strings") == ["a", "b"])
        #expect(defaults.stringArray(forKey: "mixed") == nil)
        #expect(defaults.array(forKey: "mixed")?.count == 2)
        #expect(defaults.dictionary(forKey: "dict")?["k"] as? Int == 1)
        #expect(defaults.array(forKey: "dict") == nil)
        #expect(defaults.dictionary(forKey: "strings") == nil)
    }

    @Test func numbersAtTheEdgesRoundTrip() throws {
        try withTemporaryRoot { root in
            do {
                let defaults = try makeDefaults(root: root)
                defaults.set(Int.max, forKey: "max")
                defaults.set(Int.min, forKey: "min")
                defaults.set(UInt64(Int.max), forKey: "unsigned")
            }
            let reopened = try makeDefaults(root: root)
            #expect(reopened.integer(forKey: "max") == Int.max)
            #expect(reopened.integer(forKey: "min") == Int.min)
            #expect(reopened.integer(forKey: "unsigned") == Int.max)
        }
    }

    @Test func urlsKeepTheirWholeString() throws {
        let defaults = try makeInMemoryDefaults()
        let web = URL(string: "https://example.com/a/b?c=d#e")!
        defaults.set(web, forKey: "web")
        #expect(defaults.url(forKey: "web") == web)
        let file = URL(fileURLWithPath: "/tmp/some file.txt")
        defaults.set(file, forKey: "file")
        #expect(defaults.url(forKey: "file")?.path == "/tmp/some file.txt")
        #expect(defaults.url(forKey: "file")?.isFileURL == true)
    }

    @Test func fileURLsUnderHomeAreStoredAbbreviatedAndReadExpanded() throws {
        let defaults = try makeInMemoryDefaults()
        let home = StoredURL.homeDirectory
        defaults.set(URL(fileURLWithPath: home + "/Documents/report.txt"), forKey: "doc")
        #expect(defaults.string(forKey: "doc") == "~/Documents/report.txt")
        #expect(defaults.url(forKey: "doc")?.path == home + "/Documents/report.txt")
    }

    @Test func urlOfArbitraryDataOrNumbersIsNil() throws {
        let defaults = try makeInMemoryDefaults()
        try defaults.write(.data(Data([0xFF, 0x00, 0x13])), forKey: "junk")
        try defaults.write(.integer(3), forKey: "number")
        #expect(defaults.url(forKey: "junk") == nil)
        #expect(defaults.url(forKey: "number") == nil)
    }
}
