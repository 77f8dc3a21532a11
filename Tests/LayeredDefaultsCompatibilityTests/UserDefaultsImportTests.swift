import Foundation
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// Importing a Foundation `UserDefaults` domain: property lists written by Foundation's own
/// `PropertyListSerialization`, XML and binary, each value of its exact type, once.
@Suite struct UserDefaultsImportTests {
    /// What Foundation writes for every property-list type, and the values it must import as. XML keeps
    /// whole seconds and has no negative zero, so those two are only in the binary list.
    static func foundationValues(binary: Bool) -> (plist: [String: Any], expected: [String: PreferenceValue]) {
        var plist: [String: Any] = [
            "true": true, "false": false, "zero": 0, "one": 1, "min": Int.min, "max": Int.max, "int8": Int8(1),
            "double": 1.0, "half": Float(0.5), "pi": Double.pi, "inf": -Double.infinity, "tiny": Double.leastNonzeroMagnitude,
            "date": Date(timeIntervalSinceReferenceDate: 786_000_000), "data": Data([0, 1, 255]), "empty": Data(),
            "string": "héllo 🎉\n", "array": [1, "1", 1.0, true, [] as [Any]] as [Any],
            "dictionary": ["nested": ["deep": Data([9])], "none": [String: Any]()] as [String: Any],
        ]
        var expected: [String: PreferenceValue] = [
            "true": true, "false": false, "zero": 0, "one": 1, "min": .integer(.min), "max": .integer(.max), "int8": 1,
            "double": .double(1.0), "half": 0.5, "pi": .double(.pi), "inf": .double(-.infinity),
            "tiny": .double(.leastNonzeroMagnitude),
            "date": .date(Date(timeIntervalSinceReferenceDate: 786_000_000)), "data": .data(Data([0, 1, 255])),
            "empty": .data(Data()),
            "string": "héllo 🎉\n", "array": [1, "1", .double(1.0), true, []],
            "dictionary": ["nested": ["deep": .data(Data([9]))], "none": [:]],
        ]
        if binary {
            plist["fraction"] = Date(timeIntervalSinceReferenceDate: 786_000_000.123_456)
            expected["fraction"] = .date(Date(timeIntervalSinceReferenceDate: 786_000_000.123_456))
            plist["negativeZero"] = -0.0
            expected["negativeZero"] = .double(-0.0)
        }
        return (plist, expected)
    }

    /// Writes `plist` with Foundation's `PropertyListSerialization` to `name` in `root`.
    static func write(
        _ plist: Any, format: PropertyListSerialization.PropertyListFormat, to name: String, in root: URL
    ) throws -> URL {
        let file = root.appendingPathComponent(name)
        try PropertyListSerialization.data(fromPropertyList: plist, format: format, options: 0).write(to: file)
        return file
    }

    @Test(arguments: [false, true]) func everyTypeImportsExactly(binary: Bool) throws {
        try withTemporaryRoot { root in
            let (plist, expected) = Self.foundationValues(binary: binary)
            let file = try Self.write(plist, format: binary ? .binary : .xml, to: "com.example.old.plist", in: root)
            let defaults = try makeDefaults("imported", root: root)
            #expect(try defaults.importUserDefaults(from: file) == .imported(keys: expected.keys.sorted()))
            let stored = try defaults.persistentValues()
            #expect(stored.keys.sorted() == expected.keys.sorted())
            for (key, value) in expected {
                #expect(stored[key].map { $0.isIdentical(to: value) } == true, "key \(key)")
            }
            #expect(try defaults.appliedMigrations() == ["import-user-defaults:com.example.old.plist"])
        }
    }

    @Test func itRunsOnceAndNeverChangesTheFile() throws {
        try withTemporaryRoot { root in
            let file = try Self.write(["theme": "dark", "size": 12], format: .xml, to: "old.plist", in: root)
            let before = try Data(contentsOf: file)
            let defaults = try makeDefaults("once", root: root)
            try defaults.write("kept", forKey: "other")
            #expect(try defaults.importUserDefaults(from: file) == .imported(keys: ["size", "theme"]))
            try defaults.write("light", forKey: "theme")
            #expect(try defaults.importUserDefaults(from: file) == .alreadyImported)
            // Another instance (a later launch) sees the record too.
            #expect(try makeDefaults("once", root: root).importUserDefaults(from: file) == .alreadyImported)
            #expect(try defaults.persistentValues() == ["theme": "light", "size": 12, "other": "kept"])
            #expect(try Data(contentsOf: file) == before)
        }
    }

    @Test func unmappableValuesAreNamedAndNothingIsImported() throws {
        try withTemporaryRoot { root in
            let plist: [String: Any] = ["big": UInt64.max, "": 1, "nested": ["inner": UInt64.max] as [String: Any], "fine": 1]
            let file = try Self.write(plist, format: .binary, to: "old.plist", in: root)
            let defaults = try makeDefaults("unmappable", root: root)
            #expect(throws: DefaultsError.unmappableValues(path: file.path, keys: ["", "big", "nested"])) {
                try defaults.importUserDefaults(from: file)
            }
            #expect(try defaults.persistentValues() == [:])
            #expect(try defaults.appliedMigrations() == [])
            #expect(try defaults.importUserDefaults(from: file, excluding: ["", "big", "nested"]) == .imported(keys: ["fine"]))
            #expect(try defaults.persistentValues() == ["fine": 1])
        }
    }

    @Test func aFileThatIsNoPropertyListDictionaryIsRefused() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("refused", root: root)
            let cases: [(String, Data, String)] = [
                ("garbage.plist", Data([0xFF, 0x00, 0x13]), "not an XML or binary property list"),
                ("json.plist", Data(#"{"a":{"integer":1}}"#.utf8), "not an XML or binary property list"),
                ("text.plist", Data("{ a = 1; }".utf8), "an old-style (text) property list, whose values are all strings"),
                (
                    "array.plist", try PropertyListSerialization.data(fromPropertyList: [1, 2], format: .xml, options: 0),
                    "its top level is not a dictionary"
                ),
            ]
            for (name, data, reason) in cases {
                let file = root.appendingPathComponent(name)
                try data.write(to: file)
                #expect(throws: DefaultsError.notPropertyListFile(path: file.path, reason: reason)) {
                    try defaults.importUserDefaults(from: file)
                }
                #expect(try Data(contentsOf: file) == data)
            }
            #expect(try defaults.appliedMigrations() == [])
        }
    }

    @Test func aMissingFileIsRecordedAsNothingToImport() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("missing", root: root)
            let file = root.appendingPathComponent("never.plist")
            #expect(try defaults.importUserDefaults(from: file) == .noFile)
            _ = try Self.write(["late": 1], format: .xml, to: "never.plist", in: root)
            #expect(try defaults.importUserDefaults(from: file) == .alreadyImported)
            #expect(try defaults.persistentValues() == [:])
        }
    }

    @Test func theErrorNamesKeysButNoValue() {
        let error = DefaultsError.unmappableValues(path: "/p/old.plist", keys: ["big"])
        #expect(error.description.contains("'big'") && error.description.contains("/p/old.plist"))
    }

    #if os(Linux)
        @Test func corelibsFileOfASuite() {
            #expect(
                Defaults.userDefaultsFile(
                    suiteName: "com.example.app", environment: ["XDG_CONFIG_HOME": "/x/config", "HOME": "/h"]
                ).path
                    == "/x/config/com.example.app.plist")
            #expect(
                Defaults.userDefaultsFile(
                    suiteName: "com.example.app", environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]
                ).path
                    == "/h/.config/com.example.app.plist")
            #expect(
                Defaults.userDefaultsFile(suiteName: "com.example.app", environment: ["HOME": "/h"]).path
                    == "/h/.config/com.example.app.plist")
        }

        /// The file corelibs' own `UserDefaults` writes, found by suite name, in a child process whose
        /// `XDG_CONFIG_HOME` is a temporary directory.
        @Test func importsWhatCorelibsUserDefaultsWrote() throws {
            try withTemporaryRoot { root in
                let written = try run(
                    "defaults-fixture", [root.path, "com.example.legacy", "user-defaults"],
                    environment: ["XDG_CONFIG_HOME": root.path, "HOME": root.path])
                #expect(written.succeeded)
                let defaults = try makeDefaults("legacy", root: root)
                let file = Defaults.userDefaultsFile(suiteName: "com.example.legacy", environment: ["XDG_CONFIG_HOME": root.path])
                #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("com.example.legacy.plist").path))
                #expect(try defaults.importUserDefaults(from: file) == .imported(keys: ["count", "flag", "ratio", "when"]))
                #expect(
                    try defaults.persistentValues() == [
                        "count": 3, "flag": true, "ratio": 0.25, "when": .date(Date(timeIntervalSinceReferenceDate: 100)),
                    ])
            }
        }
    #endif

    /// A file past the one cap of every import (`DocumentInput.maximumSize`, which `prefs import` has
    /// too) is refused without being read further, nothing imported or recorded: a device that never
    /// ends was read until memory ran out.
    @Test(arguments: [false, true])
    func aFileLargerThanAnImportMayBeIsRefusedUnread(device: Bool) throws {
        try withTemporaryRoot { root in
            let file = device ? URL(fileURLWithPath: "/dev/zero") : root.appendingPathComponent("large.plist")
            if !device {
                // NB: a sparse file: no block of it is written.
                #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
                let handle = try FileHandle(forWritingTo: file)
                try handle.truncate(atOffset: UInt64(DocumentInput.maximumSize + 1))
                try handle.close()
            }
            let defaults = try makeDefaults("app", root: root)
            do {
                _ = try defaults.importUserDefaults(from: file)
                Issue.record("imported a file larger than \(DocumentInput.maximumSize) bytes")
            } catch let error as DefaultsError {
                guard case .notPropertyListFile(let path, let reason) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(path == file.path)
                #expect(reason.contains("larger than 64 MiB"))
            }
            #expect(try defaults.persistentValues().isEmpty)
            #expect(try defaults.appliedMigrations().isEmpty)
        }
    }

    /// A binary property list of `depth` nested arrays, each holding the next one twice (the same object):
    /// a few hundred bytes that stand for 2^depth strings.
    static func sharedReferenceBomb(depth: Int) -> Data {
        // Objects: 0 the top dictionary {"a": 2}, 1 the key "a", 2 ..< 2 + depth arrays [next, next],
        // then the string "x". One-byte object references and offsets.
        var objects: [[UInt8]] = [[0xD1, 1, 2], HandMadeBinaryPropertyList.ascii("a")]
        for level in 0..<depth { objects.append([0xA2, UInt8(3 + level), UInt8(3 + level)]) }
        objects.append(HandMadeBinaryPropertyList.ascii("x"))
        return HandMadeBinaryPropertyList(objects: objects).data()
    }

    /// A tiny document whose shared objects expand past the value limit is refused at once, typed,
    /// nothing imported, instead of expanding until memory runs out.
    @Test func aDocumentThatExpandsBeyondTheLimitIsRefused() throws {
        try withTemporaryRoot { root in
            let file = root.appendingPathComponent("bomb.plist")
            try Self.sharedReferenceBomb(depth: 40).write(to: file)
            #expect(try Data(contentsOf: file).count < 300)
            let defaults = try makeDefaults("app", root: root)
            #expect(throws: DefaultsError.self) { try defaults.importUserDefaults(from: file) }
            do {
                _ = try defaults.importUserDefaults(from: file)
            } catch let error as DefaultsError {
                if case .notPropertyListFile(_, let reason) = error {
                    #expect(reason.contains("more than"))
                } else {
                    Issue.record("unexpected \(error)")
                }
            }
            #expect(try defaults.persistentValues().isEmpty)
            let small = Self.sharedReferenceBomb(depth: 4)  // 16 strings: well within the limit
            let pair: PreferenceValue = ["x", "x"]
            let expected: PreferenceValue = [[[pair, pair], [pair, pair]], [[pair, pair], [pair, pair]]]
            #expect(try PreferenceValue.dictionary(propertyList: small, path: file.path) == ["a": expected])
        }
    }

    /// The bytes a document stands for are bounded too: one 1 MiB string shared under 100 keys, a file
    /// of about 1 MiB, stands for 100 MiB and is refused, nothing imported (it was stored whole before).
    @Test func aDocumentOfOneStringSharedUnderManyKeysIsRefused() throws {
        try withTemporaryRoot { root in
            let file = root.appendingPathComponent("shared.plist")
            try HandMadeBinaryPropertyList.sharedString(under: (0..<100).map { "key\($0)" }, length: 1 << 20).write(to: file)
            let defaults = try makeDefaults("app", root: root)
            #expect(
                throws: DefaultsError.notPropertyListFile(
                    path: file.path,
                    reason:
                        "it stands for more than \(64 << 20) bytes of text and data (a shared object counts each time it is used)"
                )
            ) {
                try defaults.importUserDefaults(from: file)
            }
            #expect(try defaults.persistentValues().isEmpty)
        }
    }
}
