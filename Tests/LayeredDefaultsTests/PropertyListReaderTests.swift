import Foundation
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// The strict readers of XML and binary property lists: what Foundation writes reads back exactly,
/// and a document Foundation would crash on or guess at is refused, typed, naming the key.
@Suite struct PropertyListReaderTests {
    /// A dictionary of every kind of value, at the edges of each type.
    static let everyKind: [String: PreferenceValue] = [
        "text": .string("a\u{1}b\r\n<&>\"' 😀 é \u{301}"),
        "empty": "",
        "max": .integer(.max), "min": .integer(.min), "zero": 0,
        "half": 0.5, "nan": .double(.nan), "infinity": .double(-.infinity), "tiny": .double(.leastNonzeroMagnitude),
        "yes": true, "no": false,
        "first": .date(PreferenceValue.dateRange.lowerBound),
        "last": .date(
            Date(timeIntervalSinceReferenceDate: PreferenceValue.dateRange.upperBound.timeIntervalSinceReferenceDate - 1)),
        "leap": .date(Date(timeIntervalSinceReferenceDate: 730_944_000)),  // 2024-02-29T00:00:00Z
        "bytes": .data(Data([0, 1, 2, 255])), "noBytes": .data(Data()),
        "list": [1, "two", [3.5, ["deep": true]], [], [:]],
        "map": ["a": 1, "b": ["c": "d"], "": "empty key inside"],
    ]

    static func read(_ data: Data, excluding excluded: Set<String> = []) throws(DefaultsError) -> [String: PreferenceValue] {
        try PreferenceValue.dictionary(propertyList: data, path: "test.plist", excluding: excluded)
    }

    static func xml(_ body: String) -> Data {
        Data(
            ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n" + body + "\n</dict>\n</plist>\n")
                .utf8)
    }

    static func expectUnmappable(_ keys: [String], in data: Data, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(throws: DefaultsError.unmappableValues(path: "test.plist", keys: keys), sourceLocation: sourceLocation) {
            try read(data)
        }
    }

    static func expectMalformed(_ data: Data, reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try read(data)
            Issue.record("read a malformed document", sourceLocation: sourceLocation)
        } catch {
            guard case .notPropertyListFile(_, let found) = error else {
                Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
                return
            }
            #expect(found.contains(reason), "\(found)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [PropertyListFormat.xml, .binary])
    func whatFoundationWritesReadsBackExactly(format: PropertyListFormat) throws {
        var values = Self.everyKind
        if format == .xml {
            values["tiny"] = nil  // XML keeps 17 digits; the binary format keeps every bit
        }
        let document = try PreferenceValue.propertyListData(values, format: format)
        let read = try Self.read(document)
        #expect(read.keys.sorted() == values.keys.sorted())
        for (key, value) in values {
            #expect(read[key].map { $0.isIdentical(to: value) } == true, "\(key)")
        }
        #expect(PreferenceValue.lostKeys(in: values, reading: document).isEmpty)
    }

    @Test func aFloat32RealReadsAsItsDouble() throws {
        let document = try PropertyListSerialization.data(fromPropertyList: ["f": Float(1.5)], format: .binary, options: 0)
        #expect(try Self.read(document) == ["f": 1.5])
    }

    // MARK: Binary documents Foundation crashes on or guesses at

    @Test func aSetIsRefusedNamingItsKey() {
        let document = HandMadeBinaryPropertyList(objects: [
            [0xD1, 1, 2], HandMadeBinaryPropertyList.ascii("k"), [0xC1, 3], HandMadeBinaryPropertyList.ascii("a"),
        ]).data()
        #expect(document.count < 64)
        Self.expectUnmappable(["k"], in: document)
        #expect(throws: Never.self) { try Self.read(document, excluding: ["k"]) }
    }

    @Test(arguments: [
        ("UID", [0x80, 0x01] as [UInt8]), ("ordered set", [0xB0]), ("null", [0x00]), ("fill", [0x0F]),
        ("unknown marker", [0x70]), ("two-byte real", [0x21, 0, 0]), ("ASCII above 0x7F", [0x51, 0xE9]),
        ("lone surrogate", [0x61, 0xD8, 0x00]), ("integer of 32 bytes", [0x15] + [UInt8](repeating: 0, count: 32)),
        ("date marker with the wrong size", [0x32, 0, 0, 0, 0]),
    ])
    func anObjectWithoutAPreferenceValueIsRefusedNamingItsKey(kind: String, object: [UInt8]) {
        Self.expectUnmappable(["k"], in: HandMadeBinaryPropertyList.entry("k", object).data())
    }

    @Test func aSixteenByteIntegerIsKeptOnlyWhenItFitsInInt64() throws {
        func sixteen(high: UInt64, low: UInt64) -> Data {
            HandMadeBinaryPropertyList.entry(
                "k", [0x14] + HandMadeBinaryPropertyList.big64(high) + HandMadeBinaryPropertyList.big64(low)
            ).data()
        }
        #expect(try Self.read(sixteen(high: 0, low: 5)) == ["k": 5])
        #expect(try Self.read(sixteen(high: .max, low: UInt64(bitPattern: -5))) == ["k": -5])
        Self.expectUnmappable(["k"], in: sixteen(high: 1 << 36, low: 5))  // 2^100 + 5, once read as 5
        Self.expectUnmappable(["k"], in: sixteen(high: 0, low: .max))  // UInt64.max, as Foundation writes it
        let foundation = try PropertyListSerialization.data(fromPropertyList: ["k": UInt64.max], format: .binary, options: 0)
        Self.expectUnmappable(["k"], in: foundation)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300, -1e300, 252_423_993_600])
    func aDateOutsideTheRangeIsRefusedNamingItsKey(seconds: Double) {
        let document = HandMadeBinaryPropertyList.entry("when", [0x33] + HandMadeBinaryPropertyList.big64(seconds.bitPattern))
            .data()
        Self.expectUnmappable(["when"], in: document)
    }

    @Test func numbersNearTheLimitsOfTheirTypesNeverTrap() {
        // A trailer whose table offset is near Int.max.
        let nearMax = HandMadeBinaryPropertyList.entry("k", [0x10, 1]).data(trailer: (3, 0, UInt64(Int.max) - 3))
        Self.expectMalformed(nearMax, reason: "trailer")
        // A trailer claiming 2^62 objects.
        Self.expectMalformed(HandMadeBinaryPropertyList.entry("k", [0x10, 1]).data(trailer: (1 << 62, 0, 8)), reason: "trailer")
        // A dictionary claiming 2^62 entries.
        let wideDictionary = HandMadeBinaryPropertyList(objects: [[0xDF, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0]]).data()
        Self.expectMalformed(wideDictionary, reason: "runs past")
        // An array claiming 2^62 two-byte references.
        var wideArray = HandMadeBinaryPropertyList(objects: [
            [0xD1, 0, 1, 0, 2], HandMadeBinaryPropertyList.ascii("k"), [0xAF, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0],
        ])
        wideArray.referenceSize = 2
        Self.expectMalformed(wideArray.data(), reason: "runs past")
        // A data object claiming 2^63 - 1 bytes, and a length that is negative as a signed integer.
        Self.expectMalformed(
            HandMadeBinaryPropertyList.entry("k", [0x4F, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]).data(),
            reason: "runs past")
        Self.expectMalformed(
            HandMadeBinaryPropertyList.entry("k", [0x4F, 0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]).data(),
            reason: "length")
        // An offset past the objects, a reference to no object, an object that contains itself.
        Self.expectMalformed(HandMadeBinaryPropertyList.entry("k", [0xA1, 9]).data(), reason: "reference")
        Self.expectMalformed(HandMadeBinaryPropertyList.entry("k", [0xA1, 2]).data(), reason: "contains itself")
        Self.expectMalformed(Data("bplist00".utf8) + Data(count: 31), reason: "too short")
    }

    /// Each value is counted once for each use, never again for each container around it: 40,000
    /// integers inside 30 arrays are 40,032 values, well within the limit (counted once per container
    /// around them, they were 1.2 million).
    @Test(arguments: [PropertyListFormat.binary, .xml])
    func valuesAreCountedOncePerUse(format: PropertyListFormat) throws {
        let nested = (0..<30).reduce(PreferenceValue.array((0..<40_000).map { .integer($0) })) { value, _ in [value] }
        let document = try PreferenceValue.propertyListData(["k": nested], format: format)
        #expect(try Self.read(document) == ["k": nested])
    }

    @Test func aTopLevelThatIsNotADictionaryOfStringsIsRefused() {
        Self.expectMalformed(HandMadeBinaryPropertyList(objects: [[0xA0]]).data(), reason: "not a dictionary")
        Self.expectMalformed(HandMadeBinaryPropertyList(objects: [[0xD1, 1, 1], [0x10, 1]]).data(), reason: "not a string")
    }

    @Test func aKeyHeldTwiceIsRefused() {
        let top = HandMadeBinaryPropertyList(objects: [[0xD2, 1, 1, 2, 2], HandMadeBinaryPropertyList.ascii("k"), [0x10, 1]])
        Self.expectUnmappable(["k"], in: top.data())
        let nested = HandMadeBinaryPropertyList(objects: [
            [0xD1, 1, 2], HandMadeBinaryPropertyList.ascii("k"), [0xD2, 3, 3, 4, 4], HandMadeBinaryPropertyList.ascii("x"),
            [0x10, 1],
        ])
        Self.expectUnmappable(["k"], in: nested.data())
    }

    @Test func nestingPastTheLimitIsRefusedNamingItsKey() throws {
        // Object 2 + n is an array holding object 3 + n; the last is an empty array.
        func chain(_ levels: Int) -> Data {
            var objects: [[UInt8]] = [[0xD1, 1, 2], HandMadeBinaryPropertyList.ascii("k")]
            for level in 0..<(levels - 1) { objects.append([0xA1, UInt8(3 + level)]) }
            objects.append([0xA0])
            return HandMadeBinaryPropertyList(objects: objects).data()
        }
        #expect(try Self.read(chain(PreferenceValue.maximumNestingDepth))["k"] != nil)
        Self.expectUnmappable(["k"], in: chain(PreferenceValue.maximumNestingDepth + 1))
    }

    // MARK: XML documents Foundation guesses at

    @Test func anXMLKeyHeldTwiceIsRefused() {
        Self.expectUnmappable(["a"], in: Self.xml("<key>a</key><integer>1</integer><key>a</key><integer>2</integer>"))
        Self.expectUnmappable(
            ["a"], in: Self.xml("<key>a</key><dict><key>x</key><true/><key>x</key><false/></dict><key>b</key><true/>"))
        // Canonically equivalent spellings are one key, as in the store.
        Self.expectUnmappable(["é"], in: Self.xml("<key>é</key><true/><key>e\u{301}</key><true/>"))
    }

    @Test(arguments: [
        "2020-13-45T99:99:99Z", "2023-02-29T00:00:00Z", "2020-01-01T24:00:00Z", "2020-01-01T00:00:60Z", "0000-01-01T00:00:00Z",
        "2020-01-01", "2020-01-01T00:00:00", "2020-01-01T00:00:00+01:00", "2020-01-01T00:00:00.5Z", "+020-01-01T00:00:00Z",
    ])
    func anXMLDateThatIsNotARealMomentIsRefused(text: String) {
        Self.expectUnmappable(["when"], in: Self.xml("<key>when</key><date>\(text)</date>"))
    }

    @Test func anXMLDateReadsAsTheMomentItNames() throws {
        let read = try Self.read(
            Self.xml("<key>a</key><date>2024-02-29T12:34:56Z</date><key>b</key><date> 1970-01-01T00:00:00Z </date>"))
        #expect(read["a"] == .date(Date(timeIntervalSince1970: 1_709_210_096)))
        #expect(read["b"] == .date(Date(timeIntervalSince1970: 0)))
    }

    /// Base64 that is not canonical ("AB==", whose unused bits are not zero) would be read as another
    /// text's bytes ("AA==").
    @Test(arguments: ["not base64!", "AAE", "AA=A", "A===", "AAEC/w===", "AB==", "AAEC/x=="])
    func anXMLDataThatIsNotBase64IsRefused(text: String) {
        Self.expectUnmappable(["bytes"], in: Self.xml("<key>bytes</key><data>\(text)</data>"))
    }

    @Test func anXMLDataMayBreakItsBase64AcrossLines() throws {
        #expect(try Self.read(Self.xml("<key>b</key><data>\n\tAA\n\tEC/w==\n</data>")) == ["b": .data(Data([0, 1, 2, 255]))])
    }

    @Test func anXMLCharacterReferenceToALoneSurrogateIsRefused() throws {
        Self.expectUnmappable(["s"], in: Self.xml("<key>s</key><string>a&#xD800;b</string>"))
        Self.expectUnmappable(["s"], in: Self.xml("<key>s</key><array><string>&#56320;</string></array>"))
        #expect(
            try Self.read(Self.xml("<key>s</key><string>&#x1F600;&#233;&lt;&amp;&gt;&quot;&apos;</string>")) == ["s": "😀é<&>\"'"])
    }

    @Test(arguments: ["18446744073709551615", "9223372036854775808", "-9223372036854775809", "1.5", "12abc", "", "- 1"])
    func anXMLIntegerOutsideInt64OrNotANumberIsRefused(text: String) {
        Self.expectUnmappable(["n"], in: Self.xml("<key>n</key><integer>\(text)</integer>"))
    }

    @Test(arguments: ["1e400", "-1e400", "abc", "0x1p3", "1,5", ""])
    func anXMLRealThatIsNotAFiniteNumberOrAnInfinityIsRefused(text: String) {
        Self.expectUnmappable(["r"], in: Self.xml("<key>r</key><real>\(text)</real>"))
    }

    @Test func xmlMarkupOfEveryKindThatFoundationWritesOrAcceptsReads() throws {
        let document = Data(
            """
            \u{FEFF}<?xml version="1.0" encoding="utf-8"?>
            <!-- a comment -->
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
              <key>cdata</key><string><![CDATA[<not markup> & ]]>tail</string>
              <!-- between entries -->
              <key>empty</key><string/>
              <key>hex</key><integer>0x1F</integer>
              <key>negative</key><integer>-42</integer>
              <key>flag</key><true></true>
              <key>list</key><array><false/><dict/><array/><data/></array>
            </dict></plist>
            """.utf8)
        #expect(
            try Self.read(document) == [
                "cdata": "<not markup> & tail", "empty": "", "hex": 31, "negative": -42, "flag": true,
                "list": [false, [:], [], .data(Data())],
            ])
    }

    @Test(arguments: [
        ("<plist><array/></plist>", "not a dictionary"),
        ("<plist><dict><key>a</key></dict></plist>", "element"),
        ("<plist><dict><key>a</key><set/></dict></plist>", "not a property-list value"),
        ("<plist><dict><integer>1</integer></dict></plist>", "without a key"),
        ("<plist><dict><key>a</key><string>x</dict></plist>", "end tag"),
        ("<plist><dict></dict></plist><dict/>", "follows"),
        ("<!DOCTYPE plist [<!ENTITY e \"x\">]><plist><dict/></plist>", "internal subset"),
        ("<plist><dict><key>a</key><string>&e;</string></dict></plist>", "entity"),
        ("<?xml version=\"1.0\" encoding=\"UTF-16\"?><plist><dict/></plist>", "encoding"),
        ("\u{FEFF} \n<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><dict/></plist>", "encoding"),
        ("<plist><dict><key>a</key><string>\u{FFFF}", "not closed"),
        ("{ a = b; }", "old-style"),
        ("bplist", "not an XML or binary property list"),
        ("", "not an XML or binary property list"),
    ])
    func malformedXMLIsRefusedWhole(text: String, reason: String) {
        Self.expectMalformed(Data(text.utf8), reason: reason)
    }

    @Test func xmlThatIsNotUTF8IsRefusedWhole() {
        Self.expectMalformed(
            Data("<plist><dict><key>a</key><string>".utf8) + Data([0xED, 0xA0, 0x80]) + Data("</string></dict></plist>".utf8),
            reason: "UTF-8")
    }

    @Test func xmlNestingPastTheLimitIsRefusedNamingItsKeyWithoutRecursingThroughIt() throws {
        func nested(_ levels: Int) -> Data {
            Self.xml(
                "<key>k</key>" + String(repeating: "<array>", count: levels) + String(repeating: "</array>", count: levels)
                    + "<key>b</key><true/>")
        }
        #expect(try Self.read(nested(PreferenceValue.maximumNestingDepth))["k"] != nil)
        Self.expectUnmappable(["k"], in: nested(PreferenceValue.maximumNestingDepth + 1))
        let deep = nested(200_000)  // deep enough to overflow a recursive reader's stack
        Self.expectUnmappable(["k"], in: deep)
        #expect(try Self.read(deep, excluding: ["k"]) == ["b": true])
    }

    // MARK: The door the importers use

    @Test func aRefusedImportChangesNothingAndIsTriedAgain() throws {
        try withTemporaryRoot { root in
            let file = root.appendingPathComponent("set.plist")
            try HandMadeBinaryPropertyList(objects: [
                [0xD1, 1, 2], HandMadeBinaryPropertyList.ascii("k"), [0xC1, 3], HandMadeBinaryPropertyList.ascii("a"),
            ])
            .data().write(to: file)
            let defaults = try makeDefaults("app", root: root)
            try defaults.write("kept", forKey: "k")
            #expect(throws: DefaultsError.unmappableValues(path: file.path, keys: ["k"])) {
                try defaults.importUserDefaults(from: file)
            }
            #expect(try defaults.persistentValues() == ["k": "kept"])
            #expect(try defaults.appliedMigrations().isEmpty)
            #expect(try defaults.importUserDefaults(from: file, excluding: ["k"]) == .imported(keys: []))
        }
    }
}
