import Foundation
import LayeredDefaults
import Testing

@testable import prefs

/// `export` and `import` in Foundation's property-list formats, told apart by extension, `--format`
/// and (for import) the content; lists written and read by Foundation's own `PropertyListSerialization`.
@Suite struct PropertyListFormatTests {
    /// Every type, with values an XML property list holds exactly (whole-second dates, no negative zero).
    static let xmlSafe: [String: PreferenceValue] = [
        "string": "héllo \"world\"\n", "integer": .integer(.min), "one": 1, "double": .double(-0.1), "whole": .double(1),
        "inf": .double(.infinity), "bool": true, "no": false, "date": .date(Date(timeIntervalSinceReferenceDate: 786_000_000)),
        "data": .data(Data([0, 255])), "array": [1, "1", 1.5, false, []],
        "dictionary": ["nested": ["deep": .data(Data([9]))], "empty": [:]],
    ]

    /// True when every value of `values` is bit for bit the one of `expected`.
    static func identical(_ values: [String: PreferenceValue], _ expected: [String: PreferenceValue]) -> Bool {
        PreferenceValue.dictionary(values).isIdentical(to: .dictionary(expected))
    }

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func importsWhatFoundationWrote(format: PropertyListSerialization.PropertyListFormat) throws {
        try withTestRoot { root throws in
            let plist: [String: Any] = [
                "flag": true, "count": 1, "ratio": 1.0, "when": Date(timeIntervalSinceReferenceDate: 5),
                "blob": Data([1]), "list": [false, 0] as [Any], "map": ["k": "v"],
            ]
            let document = try PropertyListSerialization.data(fromPropertyList: plist, format: format, options: 0)
            // NB: the name says JSON; the content decides.
            let file = root.url.appendingPathComponent("misnamed.json")
            try document.write(to: file)
            let expected: [String: PreferenceValue] = [
                "flag": true, "count": 1, "ratio": .double(1), "when": .date(Date(timeIntervalSinceReferenceDate: 5)),
                "blob": .data(Data([1])), "list": [false, 0], "map": ["k": "v"],
            ]
            #expect(root.prefs("import", "app", file.path).status == .success)
            #expect(Self.identical(try root.stored("app"), expected))
            #expect(root.prefs("import", "piped", "-", input: document).status == .success)
            #expect(Self.identical(try root.stored("piped"), expected))
        }
    }

    @Test func aPlistFileIsXMLThatFoundationReadsWithItsTypes() throws {
        try withTestRoot { root throws in
            try Defaults(suiteName: "app", configuration: .init(location: .directory(root.url), arguments: []))
                .replacePersistentValues(Self.xmlSafe)
            let file = root.url.appendingPathComponent("app.plist")
            #expect(root.prefs("export", "app", file.path).status == .success)
            let document = try Data(contentsOf: file)
            #expect(document.starts(with: Data("<?xml".utf8)))
            var format = PropertyListSerialization.PropertyListFormat.binary
            let read = try #require(try PropertyListSerialization.propertyList(from: document, format: &format) as? [String: Any])
            #expect(format == .xml)
            #expect(type(of: read["bool"]!) == Bool.self && type(of: read["one"]!) != Bool.self)
            #expect(String(cString: (read["whole"] as! NSNumber).objCType) == "d")
            #expect(root.prefs("import", "copy", file.path).status == .success)
            #expect(Self.identical(try root.stored("copy"), Self.xmlSafe))
        }
    }

    @Test func binaryIsLosslessForEveryType() throws {
        try withTestRoot { root throws in
            var values = ExportImportTests.everyType
            values["negativeZero"] = .double(-0.0)
            values["nan"] = .double(.nan)
            try Defaults(suiteName: "app", configuration: .init(location: .directory(root.url), arguments: []))
                .replacePersistentValues(values)
            let file = root.url.appendingPathComponent("app.data")
            #expect(root.prefs("export", "app", file.path, "--format", "binary").status == .success)
            #expect(try Data(contentsOf: file).starts(with: Data("bplist00".utf8)))
            #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)
            #expect(root.prefs("import", "copy", file.path).status == .success)
            #expect(Self.identical(try root.stored("copy"), values))
        }
    }

    @Test func xmlThatWouldLoseAValueWritesNothingAndNamesTheKeys() throws {
        try withTestRoot { root throws in
            let values: [String: PreferenceValue] = [
                "fraction": .date(Date(timeIntervalSinceReferenceDate: 0.25)), "zero": .double(-0.0), "fine": 1,
            ]
            try Defaults(suiteName: "app", configuration: .init(location: .directory(root.url), arguments: []))
                .replacePersistentValues(values)
            let file = root.url.appendingPathComponent("app.plist")
            let result = root.prefs("export", "app", file.path)
            #expect(result.status == .usage)
            #expect(
                result.errorLines.count == 1 && result.error.contains("'fraction', 'zero'") && !result.error.contains("'fine'"))
            #expect(!root.entries.contains { $0.contains("plist") }, "no file, not even a temporary one")
        }
    }

    /// An XML property list on standard output and for any name (macOS `defaults export` writes XML to
    /// standard output, a binary property list to a file); JSON for a `.json` name or `--format json`.
    @Test(arguments: [
        ("-", "<?xml"), ("app", "<?xml"), ("app.txt", "<?xml"), ("app.plist", "<?xml"), ("app.json", "{"), ("APP.JSON", "{"),
    ])
    func theDefaultFormatIsXMLExceptForAJSONName(destination: String, start: String) throws {
        try withTestRoot { root throws in
            try root.prefs("write", "app", "k", "-int", "1").requireSuccess()
            let path = destination == "-" ? "-" : root.url.appendingPathComponent(destination).path
            let result = root.prefs("export", "app", path)
            #expect(result.status == .success)
            let document = destination == "-" ? result.output : try String(contentsOfFile: path, encoding: .utf8)
            #expect(document.hasPrefix(start))
        }
    }

    @Test func formatOptionAndStandardOutput() throws {
        try withTestRoot { root throws in
            root.prefs("write", "app", "k", "-int", "1")
            let json = root.url.appendingPathComponent("app.plist")
            #expect(root.prefs("export", "app", json.path, "--format", "json").status == .success)
            #expect(try Data(contentsOf: json).first == UInt8(ascii: "{"))
            #expect(root.prefs("export", "app", "-", "--format", "xml").output.hasPrefix("<?xml"))
            #expect(root.prefs("export", "app", "-", "--format", "json").output.hasPrefix("{"))
            #expect(root.prefs("export", "app", "-", "--format", "binary").status == .usage)
            #expect(root.prefs("export", "app", "-", "--format", "yaml").status == .usage)
        }
    }

    @Test func aPlistWithAValueWithoutATypeChangesNothing() throws {
        try withTestRoot { root throws in
            root.prefs("write", "app", "kept", "-string", "secret-value")
            let document = try PropertyListSerialization.data(
                fromPropertyList: ["big": UInt64.max, "fine": 1] as [String: Any], format: .binary, options: 0)
            let result = root.prefs("import", "app", "-", input: document)
            #expect(result.status == .usage)
            #expect(
                result.errorLines.count == 1 && result.error.contains("'big'") && !result.error.contains("18446744073709551615"))
            #expect(try root.stored("app") == ["kept": "secret-value"])
        }
    }
}
