import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

private enum Mode: String, CaseIterable, PreferenceRepresentable { case fast, careful }

extension Defaults.Key<Mode> {
    fileprivate static let mode = Defaults.Key<Mode>("mode", default: .careful, summary: "How it works")
}
extension Defaults.Key<Mode?> {
    fileprivate static let lastMode = Defaults.Key<Mode?>("lastMode", summary: "The mode last used")
}
extension Defaults.Key<Int> {
    fileprivate static let size = Defaults.Key(
        "size", default: 12, summary: "The font size", description: "In points.", accepts: .integers(6...72))
}
extension Defaults.Key<String> {
    fileprivate static let nickname = Defaults.Key("nickname", default: "", summary: "A short name", accepts: .maximumLength(8))
}
extension Defaults.Key<Date?> {
    fileprivate static let opened = Defaults.Key<Date?>("opened", summary: "When it was last opened")
}

@Suite struct PreferenceSchemaTests {
    private static func schema(version: Int = 1) throws -> PreferenceSchema {
        try PreferenceSchema(suiteName: "test.suite", version: version, keys: .size, .mode, .nickname, .opened, .lastMode)
    }

    @Test func declarationTakesEachKeysTypeDefaultSummaryAndAcceptedValues() throws {
        let schema = try Self.schema()
        #expect(schema.keys.map(\.name) == ["lastMode", "mode", "nickname", "opened", "size"])
        let mode = try #require(schema.entry(named: "mode"))
        #expect(mode.type == .string && mode.defaultValue == "careful" && mode.summary == "How it works")
        #expect(mode.accepted == .choices(["fast", "careful"]), "a CaseIterable enum gives its cases")
        #expect(schema.entry(named: "lastMode")?.accepted == .choices(["fast", "careful"]), "an optional enum too")
        #expect(schema.entry(named: "lastMode")?.defaultValue == nil)
        let size = try #require(schema.entry(named: "size"))
        #expect(size.type == .integer && size.defaultValue == 12 && size.description == "In points.")
        #expect(size.acceptedPhrase == "an integer from 6 to 72")
        #expect(schema.entry(named: "nickname")?.acceptedPhrase == "a string of at most 8 characters")
        #expect(schema.entry(named: "opened")?.type == .date, "an optional key without a default still has its type")
        #expect(schema.entry(named: "opened")?.acceptedPhrase == "any date")
    }

    @Test(arguments: [
        (PreferenceSchema.Entry(name: "k", type: .integer, defaultValue: 1, summary: ""), "no summary"),
        (PreferenceSchema.Entry(name: "k", type: .integer, defaultValue: 1, summary: "a\nb"), "more than one line"),
        (
            PreferenceSchema.Entry(name: "k", type: .integer, defaultValue: 99, summary: "s", accepted: .integers(1...9)),
            "default"
        ),
        (
            PreferenceSchema.Entry(name: "k", type: .string, defaultValue: "a", summary: "s", accepted: .integers(1...9)),
            "integer"
        ),
        (PreferenceSchema.Entry(name: "k", type: .string, defaultValue: 1, summary: "s"), "not of its type"),
        (PreferenceSchema.Entry(name: "k", type: .string, defaultValue: "a", summary: "s", accepted: .choices([])), "empty"),
        (PreferenceSchema.Entry(name: "k", type: .integer, defaultValue: 1, summary: "a\u{1B}]0;title\u{07}"), "control"),
        (PreferenceSchema.Entry(name: "k", type: .integer, defaultValue: 1, summary: "s", description: "a\u{202E}b"), "control"),
    ])
    func declarationThatDoesNotHoldTogetherIsRefused(entry: PreferenceSchema.Entry, reason: String) throws {
        #expect {
            try PreferenceSchema(suiteName: "test.suite", version: 1, entries: [entry])
        } throws: { error in
            guard case .invalidSchema("test.suite", "k", let found) = error as? DefaultsError else { return false }
            return found.contains(reason)
        }
    }

    @Test func aKeyDeclaredTwiceIsRefused() {
        #expect(throws: DefaultsError.invalidSchema(suite: "test.suite", key: "size", reason: "the key is declared twice")) {
            try PreferenceSchema(suiteName: "test.suite", version: 1, keys: Defaults.Key<Int>.size, Defaults.Key<Int>.size)
        }
    }

    @Test func typedWriteOutsideTheAcceptedValuesIsRefusedAndChangesNothing() throws {
        let errors = ReportedErrors()
        let defaults = try makeInMemoryDefaults(errorHandler: errors.record)
        try defaults.write(14, for: .size)
        #expect(throws: DefaultsError.valueNotAccepted(suite: "test.suite", key: "size", accepts: "an integer from 6 to 72")) {
            try defaults.write(100, for: .size)
        }
        #expect(
            throws: DefaultsError.valueNotAccepted(
                suite: "test.suite", key: "nickname", accepts: "a string of at most 8 characters")
        ) {
            try defaults.write("far too long a name", for: .nickname)
        }
        #expect(throws: DefaultsError.self) { try defaults.update(.size) { $0 = 5 } }
        defaults[.size] = 73
        #expect(try defaults.persistentValues() == ["size": 14], "nothing changed")
        #expect(errors.all == [.valueNotAccepted(suite: "test.suite", key: "size", accepts: "an integer from 6 to 72")])
    }

    @Test func storedValueOutsideTheAcceptedValuesReadsAsTheDefaultReportedOnce() throws {
        let errors = ReportedErrors()
        let defaults = try makeInMemoryDefaults(errorHandler: errors.record)
        try defaults.write(100, forKey: "size")  // as another program without the schema could
        #expect(defaults[.size] == 12)
        #expect(defaults[.size] == 12)
        #expect(try defaults.persistentValue(for: .size) == nil)
        #expect(errors.all == [.storedValueNotAccepted(suite: "test.suite", key: "size", accepts: "an integer from 6 to 72")])
        #expect(!errors.all[0].description.contains("100"), "the message never holds the value")
        #expect(try defaults.persistentValue(forKey: "size") == 100, "left as it is")
        #expect(try defaults.isDefault(.size))
    }

    @Test func launchArgumentsAreCheckedInTheirStoredForm() throws {
        let defaults = try makeInMemoryDefaults(arguments: ["-size", "20"])
        #expect(defaults[.size] == 20)
        #expect(
            try Defaults(
                suiteName: "test.suite",
                configuration: .init(
                    location: .inMemory, arguments: ["-size", "200"], systemDirectories: [], errorHandler: { _ in }))[
                    .size] == 12)
    }

    @Test func isDefaultAndResetForATypedKey() throws {
        let defaults = try makeInMemoryDefaults()
        #expect(try defaults.isDefault(.size))
        try defaults.write(12, for: .size)
        #expect(try !defaults.isDefault(.size), "a value equal to the default is still a value")
        try defaults.reset(.size)
        #expect(try defaults.isDefault(.size))
        #expect(try defaults.persistentValues().isEmpty)
        defaults.register(["size": 20])
        #expect(try !defaults.isDefault(.size), "a registered default is a domain's value")
    }

    @Test func installsForTheUserAndForEveryUserAndReadsItBack() throws {
        try withTemporaryRoot { root in
            let user = root.appendingPathComponent("home")
            let system = [root.appendingPathComponent("xdg-first"), root.appendingPathComponent("xdg-second")]
            let domain = try Defaults.Domain("test.suite", location: .directory(user), systemDirectories: system)
            let schema = try Self.schema()
            #expect(try domain.installedSchema() == nil)

            let everyUser = try Defaults.Domain("test.suite", layer: .system, systemDirectories: [system[1]])
            #expect(try everyUser.installSchema(schema) == .installed)
            let systemFile = system[1].appendingPathComponent("layered-defaults/schemas/test.suite.json")
            #expect(try FileManager.default.attributesOfItem(atPath: systemFile.path)[.posixPermissions] as? Int == 0o644)
            #expect(try domain.installedSchema() == schema)

            let userSchema = try PreferenceSchema(suiteName: "test.suite", version: 1, keys: Defaults.Key<Int>.size)
            #expect(try domain.installSchema(userSchema) == .installed)
            let userFile = user.appendingPathComponent("schemas/test.suite.json")
            #expect(try FileManager.default.attributesOfItem(atPath: userFile.path)[.posixPermissions] as? Int == 0o600)
            #expect(try domain.installedSchema() == userSchema, "the user's schema comes first")
            #expect(try Defaults.Domain("test.suite", location: .inMemory).installSchema(userSchema) == .inMemory)
        }
    }

    @Test func aNewerSchemaReplacesAnOlderOneAndAnOlderOneLeavesANewerOne() throws {
        try withTemporaryRoot { root in
            let domain = try Defaults.Domain("test.suite", location: .directory(root), systemDirectories: [])
            let first = try PreferenceSchema(suiteName: "test.suite", version: 1, keys: Defaults.Key<Int>.size)
            let second = try Self.schema(version: 2)
            #expect(try domain.installSchema(first) == .installed)
            #expect(try domain.installSchema(first) == .unchanged)
            #expect(try domain.installSchema(second) == .replaced(previousVersion: 1))
            #expect(try domain.installSchema(first) == .keptNewer(installedVersion: 2))
            #expect(try domain.installedSchema() == second)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("schemas").path).sorted() == [
                    ".test.suite.json.lock", "test.suite.json",
                ], "the file and its installs' lock, nothing left behind")
        }
    }

    @Test func theFileFormRoundTrips() throws {
        let schema = try Self.schema()
        #expect(try PreferenceSchema(jsonData: schema.jsonData(), path: "x") == schema)
        let numbers = try PreferenceSchema(
            suiteName: "a", version: 3,
            entries: [.init(name: "scale", type: .float, defaultValue: 1.0, summary: "Scale", accepted: .numbers(0.5...4))])
        #expect(try PreferenceSchema(jsonData: numbers.jsonData(), path: "x") == numbers)
    }

    static let valid =
        #"{"format":1,"suite":"test.suite","version":1,"keys":[{"name":"k","type":"integer","summary":"s","default":{"integer":1}}]}"#

    static let malformed: [(String, String)] = [
        ("not json", "not valid JSON"),
        ("", "not valid JSON"),
        (#"{"format":4,"suite":"test.suite","version":1,"keys":[]}"#, "format 4"),
        (#"{"format":1,"suite":"test.suite","version":1,"allowsUndeclaredKeys":false,"keys":[]}"#, "not a member of format 1"),
        (#"{"format":1,"suite":"test.suite","version":1,"keys":[],"extra":1}"#, "'extra'"),
        (#"{"format":1,"suite":"test.suite","version":1,"version":2,"keys":[]}"#, "'version' is held twice"),
        (
            valid.replacingOccurrences(of: #"{"integer":1}"#, with: #"{"integer":1.0}"#),
            "an integer in 'keys' is written with a fraction"
        ),
        (#"{"format":1,"suite":"test.suite","version":0,"keys":[]}"#, "version"),
        (#"{"format":1,"suite":"test.suite","keys":[]}"#, "version: missing"),
        (
            #"{"format":1,"suite":"test.suite","version":1,"keys":[{"name":"k","type":"integer","summary":"s"}]}"#
                .replacingOccurrences(of: "\"type\":\"integer\"", with: "\"type\":\"number\""), "keys[0].type"
        ),
        (
            #"{"format":1,"suite":"test.suite","version":1,"keys":[{"name":"k","type":"integer","summary":"s","default":{"string":"x"}}]}"#,
            "not of its type"
        ),
        (
            #"{"format":1,"suite":"test.suite","version":1,"keys":[{"name":"k","type":"integer","summary":"s","range":{"minimum":{"integer":5},"maximum":{"integer":1}}}]}"#,
            "keys[0].range"
        ),
        (
            #"{"format":1,"suite":"test.suite","version":1,"keys":[{"name":"k","type":"string","summary":"s","choices":[{"string":"a"}],"maximumLength":3}]}"#,
            "only one of"
        ),
        (#"{"format":1,"suite":"other.suite","version":1,"keys":[]}"#, "another suite"),
        (#"[1,2]"#, "top level"),
    ]

    @Test(arguments: malformed)
    func aMalformedSchemaFileIsReportedAndNeverTrusted(text: String, reason: String) throws {
        try withTemporaryRoot { root in
            let directory = root.appendingPathComponent("schemas")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let file = directory.appendingPathComponent("test.suite.json")
            try Data(text.utf8).write(to: file)
            let domain = try Defaults.Domain("test.suite", location: .directory(root), systemDirectories: [])
            #expect {
                try domain.installedSchema()
            } throws: { error in
                guard case .malformedSchema(file.path, let found) = error as? DefaultsError else { return false }
                return found.contains(reason)
            }
            #expect(contents(file) == Data(text.utf8), "left untouched")
            let schema = try PreferenceSchema(jsonData: Data(Self.valid.utf8), path: "valid")
            #expect(try domain.installSchema(schema) == .installed, "installing repairs it")
        }
    }

    /// Reading is strict about `null` too: a member given as `null` is of the wrong kind, refused naming
    /// it, never read as absent (before, `"type": null` made the key accept any type); and a default or a
    /// choice nests no deeper than any value may (before, a default 120 levels deep installed, and
    /// `prefs read` printed what no write could store).
    @Test(arguments: [
        (#""type":null"#, "at keys[0].type: null, not a string"),
        (#""type":"integer","default":null"#, "at keys[0].default: null, not a tagged value"),
        (#""type":"integer","description":null"#, "at keys[0].description: null, not a string"),
        (#""type":"string","content":null"#, "at keys[0].content: null, not a string"),
        (#""type":"integer","computedDefault":null"#, "at keys[0].computedDefault: null, not a boolean"),
        (#""type":"integer","choices":null"#, "at keys[0].choices: null, not a list of tagged values"),
        (#""type":"integer","maximumLength":null"#, "at keys[0].maximumLength: null, not an integer"),
        (#""type":"integer","range":null"#, "at keys[0].range: null, not an object"),
        (
            #""type":"array","default":"# + String(repeating: #"{"array":["#, count: 101) + String(repeating: "]}", count: 101),
            "key 'k': its default nests more than 100 levels deep"
        ),
        (
            #""type":"array","choices":["# + String(repeating: #"{"array":["#, count: 101) + String(repeating: "]}", count: 101)
                + "]",
            "key 'k': a choice nests more than 100 levels deep"
        ),
    ])
    func aMemberOfTheWrongKindOrNestedTooDeepIsRefusedNamingIt(member: String, reason: String) throws {
        let text = #"{"format":2,"suite":"test.suite","version":1,"keys":[{"name":"k","summary":"s","# + member + "}]}"
        #expect(throws: DefaultsError.malformedSchema(path: "file", reason: reason)) {
            try PreferenceSchema(jsonData: Data(text.utf8), path: "file")
        }
        let document = #"{"format":2,"suite":"test.suite","version":1,"allowsUndeclaredKeys":null,"keys":[]}"#
        #expect(throws: DefaultsError.malformedSchema(path: "file", reason: "at allowsUndeclaredKeys: null, not a boolean")) {
            try PreferenceSchema(jsonData: Data(document.utf8), path: "file")
        }
        let deep = String(repeating: #"{"array":["#, count: 100) + String(repeating: "]}", count: 100)
        let within =
            #"{"format":2,"suite":"test.suite","version":1,"keys":[{"name":"k","summary":"s","type":"array","default":"# + deep
            + "}]}"
        #expect(try PreferenceSchema(jsonData: Data(within.utf8), path: "file").entry(named: "k")?.defaultValue != nil)
    }

    /// A key name with a control character (a tab would split `prefs keys`' lines) is refused.
    @Test func aKeyNameWithAControlCharacterIsRefused() {
        #expect(
            throws: DefaultsError.invalidSchema(suite: "test.suite", key: nil, reason: "a key's name holds a control character")
        ) {
            try PreferenceSchema(
                suiteName: "test.suite", version: 1,
                entries: [.init(name: "a\tinteger\t1\nfake", type: .integer, defaultValue: 1, summary: "s")])
        }
    }

    /// Installing never writes a file no reader accepts (too large), and repairs a path that holds
    /// something no reader accepts (a link): it is replaced, its target untouched.
    /// Uninstalling removes the user's file, or the system directory's, and nothing else: the domain's
    /// values stay, the other layer's schema then applies, and a missing one is no error.
    @Test func uninstallRemovesTheInstalledSchemaOfTheUserOrEveryUser() throws {
        try withTemporaryRoot { root in
            let user = root.appendingPathComponent("home")
            let system = root.appendingPathComponent("xdg")
            let domain = try Defaults.Domain("test.suite", location: .directory(user), systemDirectories: [system])
            let everyUser = try Defaults.Domain(
                "test.suite", layer: .system, location: .directory(user), systemDirectories: [system])
            let schema = try Self.schema()
            #expect(try domain.uninstallSchema() == false)
            #expect(!FileManager.default.fileExists(atPath: user.path), "nothing is created where nothing is installed")
            try everyUser.installSchema(schema)
            let userSchema = try PreferenceSchema(suiteName: "test.suite", version: 1, keys: Defaults.Key<Int>.size)
            try domain.installSchema(userSchema)
            let defaults = try Defaults(
                suiteName: "test.suite",
                configuration: .init(location: .directory(user), arguments: [], systemDirectories: [system]))
            try defaults.write(7, forKey: "size")

            #expect(try domain.uninstallSchema())
            #expect(!FileManager.default.fileExists(atPath: user.appendingPathComponent("schemas/test.suite.json").path))
            #expect(try domain.installedSchema() == schema, "the system's applies now")
            #expect(try defaults.value(forKey: "size") == 7, "the values stay")
            #expect(try domain.uninstallSchema() == false)

            #expect(try everyUser.uninstallSchema())
            #expect(
                !FileManager.default.fileExists(
                    atPath: system.appendingPathComponent("layered-defaults/schemas/test.suite.json").path))
            #expect(try domain.installedSchema() == nil)
            #expect(try Defaults.Domain("test.suite", location: .inMemory).uninstallSchema() == false)
        }
    }

    /// A directory in the schema file's place is not a schema: it is refused and left alone.
    @Test func uninstallLeavesADirectoryInTheFilesPlaceAlone() throws {
        try withTemporaryRoot { root in
            let place = root.appendingPathComponent("schemas/test.suite.json")
            try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
            #expect(throws: DefaultsError.unsafePath(path: place.path)) {
                try Defaults.Domain("test.suite", location: .directory(root)).uninstallSchema()
            }
            #expect(FileManager.default.fileExists(atPath: place.path))
        }
    }

    @Test func installingNeverWritesAnUnreadableFileAndRepairsOne() throws {
        try withTemporaryRoot { root in
            let entries = (0..<30_000).map {
                PreferenceSchema.Entry(name: "key\($0)", type: .integer, defaultValue: 1, summary: "s")
            }
            let large = try PreferenceSchema(suiteName: "test.suite", version: 1, entries: entries)
            let domain = try Defaults.Domain("test.suite", location: .directory(root), systemDirectories: [])
            #expect(throws: DefaultsError.self) { try domain.installSchema(large) }
            #expect(try domain.installedSchema() == nil)
            let directory = root.appendingPathComponent("schemas")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let target = root.appendingPathComponent("elsewhere.json")
            try Data("not a schema".utf8).write(to: target)
            try FileManager.default.createSymbolicLink(
                at: directory.appendingPathComponent("test.suite.json"), withDestinationURL: target)
            try domain.installSchema(try Self.schema())
            #expect(try domain.installedSchema() == Self.schema())
            #expect(try Data(contentsOf: target) == Data("not a schema".utf8))
        }
    }

    /// Installs of an older and a newer version at once, on many threads, always end with the newer.
    @Test func installsAtOnceNeverLeaveTheOlderVersion() throws {
        try withTemporaryRoot { root in
            let (older, newer) = (try Self.schema(version: 1), try Self.schema(version: 2))
            let domain = try Defaults.Domain("test.suite", location: .directory(root), systemDirectories: [])
            for _ in 0..<40 {
                try? FileManager.default.removeItem(at: root.appendingPathComponent("schemas"))
                DispatchQueue.concurrentPerform(iterations: 8) { index in
                    _ = try? domain.installSchema(index.isMultiple(of: 2) ? older : newer)
                }
                #expect(try domain.installedSchema()?.version == 2)
            }
        }
    }

    @Test func aSchemaFileThatIsTooLargeOrALinkIsRefused() throws {
        try withTemporaryRoot { root in
            let directory = root.appendingPathComponent("schemas")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let file = directory.appendingPathComponent("test.suite.json")
            let domain = try Defaults.Domain("test.suite", location: .directory(root), systemDirectories: [])
            try Data(repeating: 0x20, count: PreferenceSchema.maximumFileSize + 1).write(to: file)
            #expect(throws: DefaultsError.malformedSchema(path: file.path, reason: "larger than 1048576 bytes")) {
                try domain.installedSchema()
            }
            try FileManager.default.removeItem(at: file)
            let target = root.appendingPathComponent("elsewhere.json")
            try Data(Self.valid.utf8).write(to: target)
            try FileManager.default.createSymbolicLink(at: file, withDestinationURL: target)
            #expect(throws: DefaultsError.unsafePath(path: file.path)) {
                try domain.installedSchema()
            }
        }
    }
}
