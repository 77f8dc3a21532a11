import Foundation
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// The schema is the store's rule: installed for a suite, it is obeyed by a store that declares no keys
/// (another process, a script, a port from `UserDefaults`), through every door that writes and every
/// door that reads.
@Suite struct SchemaRuleTests {
    static let suite = "com.example.app"

    /// `fontSize` an integer from 6 to 72 (12), `theme` one of three (system), `installID` a UUID.
    static let schema = try! PreferenceSchema(
        suiteName: suite, version: 1,
        entries: [
            .init(name: "fontSize", type: .integer, defaultValue: 12, summary: "The font size", accepted: .integers(6...72)),
            .init(
                name: "theme", type: .string, defaultValue: "system", summary: "The colour scheme",
                accepted: .choices(["system", "light", "dark"])),
            .init(name: "installID", type: .string, content: .uuid, defaultValue: nil, summary: "The installation"),
        ])

    static let refusal = DefaultsError.valueNotAccepted(suite: suite, key: "fontSize", accepts: "an integer from 6 to 72")

    /// Runs `body` with a root where ``schema`` is installed and a store of the suite that declares nothing.
    func withInstalledSchema(
        systemDirectories: [URL] = [], _ body: (URL, Defaults, ReportedErrors) throws -> Void
    ) throws {
        try withTemporaryRoot { root in
            try Defaults.Domain(Self.suite, location: .directory(root)).installSchema(Self.schema)
            let errors = ReportedErrors()
            let defaults = try Defaults(
                suiteName: Self.suite,
                configuration: .init(
                    location: .directory(root), arguments: [], systemDirectories: systemDirectories,
                    errorHandler: errors.record))
            try body(root, defaults, errors)
        }
    }

    /// Every door that writes refuses a value outside the schema with the same error, and nothing changes.
    @Test func everyWritingDoorRefusesWhatTheSchemaRefuses() throws {
        try withInstalledSchema { root, defaults, errors in
            try defaults.write(14, forKey: "fontSize")
            let untypedKey = Defaults.Key<Int>("fontSize", default: 0)
            #expect(throws: Self.refusal) { try defaults.write(100, forKey: "fontSize") }
            #expect(throws: Self.refusal) { try defaults.write(100, for: untypedKey) }
            #expect(throws: Self.refusal) { try defaults.update(forKey: "fontSize") { $0 = 200 } }
            #expect(throws: Self.refusal) { try defaults.update(untypedKey) { $0 = 5 } }
            #expect(throws: Self.refusal) { try defaults.transaction { try $0.write(100, forKey: "fontSize") } }
            #expect(throws: Self.refusal) { try defaults.transaction { try $0.replaceAll(with: ["fontSize": "big"]) } }
            #expect(throws: Self.refusal) { try defaults.replacePersistentValues(["fontSize": 100]) }
            #expect(throws: Self.refusal) { try defaults.migrate("grow") { try $0.write(100, forKey: "fontSize") } }
            #expect(
                throws: DefaultsError.valueNotAccepted(
                    suite: Self.suite, key: "theme", accepts: "a string, one of system, light, dark")
            ) {
                try defaults.transaction { try $0.renameKey("fontSize", to: "theme") }
            }
            defaults.set(200, forKey: "fontSize")
            defaults[untypedKey] = 300
            defaults.setPersistentDomain(["fontSize": 400], forName: Self.suite)
            #expect(errors.all == [Self.refusal, Self.refusal, Self.refusal])

            let plist = root.appendingPathComponent("old.plist")
            try PreferenceValue.propertyListData(["fontSize": 99], format: .xml).write(to: plist)
            #expect(throws: Self.refusal) { try defaults.importUserDefaults(from: plist) }

            #expect(try defaults.persistentValues() == ["fontSize": 14], "nothing changed")
            #expect(try defaults.appliedMigrations().isEmpty)
        }
    }

    /// A restore of a backup holding a value the schema refuses is refused naming the key, nothing changed.
    @Test func aRestoreOfAValueTheSchemaRefusesIsRefused() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults(Self.suite, root: root)
            try defaults.write(100, forKey: "fontSize")
            let backup = root.appendingPathComponent("backup.sqlite3")
            try Defaults.Domain(Self.suite, location: .directory(root)).backup(to: backup)
            try defaults.write(nil, forKey: "fontSize")
            try Defaults.Domain(Self.suite, location: .directory(root)).installSchema(Self.schema)
            #expect(throws: Self.refusal) {
                try Defaults.Domain(Self.suite, location: .directory(root), systemDirectories: []).restore(from: backup)
            }
            #expect(try defaults.persistentValues().isEmpty)
        }
    }

    /// A key the schema does not declare is refused, naming the nearest keys it does declare; a removal
    /// of one is not (a migration may clean up), and a schema that allows undeclared keys lets them be.
    @Test func aKeyTheSchemaDoesNotDeclareIsRefused() throws {
        try withInstalledSchema { root, defaults, _ in
            #expect(throws: DefaultsError.undeclaredKey(suite: Self.suite, key: "fontsize", nearest: ["fontSize"])) {
                try defaults.write(20, forKey: "fontsize")
            }
            #expect(throws: DefaultsError.undeclaredKey(suite: Self.suite, key: "colour", nearest: [])) {
                try defaults.write("red", forKey: "colour")
            }
            try defaults.write(nil, forKey: "colour")
            let open = try PreferenceSchema(
                suiteName: Self.suite, version: 2, entries: Self.schema.keys, allowsUndeclaredKeys: true)
            try Defaults.Domain(Self.suite, location: .directory(root)).installSchema(open)
            try defaults.write("red", forKey: "colour")
            #expect(throws: Self.refusal) { try defaults.write(100, forKey: "fontSize") }
            #expect(try defaults.persistentValues() == ["colour": "red"])
        }
    }

    /// What a string key holds is checked: a UUID key refuses text that is not a UUID.
    @Test func aStringKeysContentIsChecked() throws {
        try withInstalledSchema { _, defaults, _ in
            #expect(
                throws: DefaultsError.valueNotAccepted(suite: Self.suite, key: "installID", accepts: "a string holding a UUID")
            ) {
                try defaults.write("not-a-uuid", forKey: "installID")
            }
            try defaults.write("E621E1F8-C36C-495A-93FC-0C247A3E6E5F", forKey: "installID")
        }
    }

    struct Window: CodablePreference, Equatable { var width: Int }

    /// Typed keys of `UUID`, `URL` and Codable types declare what their text holds, and the write path
    /// checks each for a store that declares nothing: blank text is no URL, `garbage` no JSON.
    @Test func typedKeysDeclareTheirContentAndEachIsChecked() throws {
        let installID = Defaults.Key<UUID?>("installID", summary: "The installation")
        let home = Defaults.Key<URL?>("home", summary: "The start page")
        let window = Defaults.Key<Window>("window", default: Window(width: 640), summary: "The window")
        #expect(installID.schemaEntry.content == .uuid)
        #expect(home.schemaEntry.content == .url)
        #expect(window.schemaEntry.content == .json)
        let schema = try PreferenceSchema(
            suiteName: Self.suite, version: 1, entries: [installID.schemaEntry, home.schemaEntry, window.schemaEntry])
        try withTemporaryRoot { root in
            try Defaults.Domain(Self.suite, location: .directory(root)).installSchema(schema)
            let defaults = try makeDefaults(Self.suite, root: root)
            for (key, text, content) in [
                ("installID", "not-a-uuid", "a UUID"), ("home", " ", "a URL"), ("window", "garbage", "JSON text"),
            ] {
                #expect(
                    throws: DefaultsError.valueNotAccepted(suite: Self.suite, key: key, accepts: "a string holding " + content)
                ) {
                    try defaults.write(.string(text), forKey: key)
                }
            }
            #expect(try defaults.persistentValues().isEmpty, "nothing changed")
            let id = UUID()
            try defaults.write(id, for: installID)
            try defaults.write(URL(string: "https://example.com/start")!, for: home)
            try defaults.write(Window(width: 800), for: window)
            #expect(defaults[installID] == id && defaults[window] == Window(width: 800))
            #expect(defaults[home] == URL(string: "https://example.com/start"))
        }
    }

    /// Every door that reads sees the schema's default for an unset key.
    @Test func everyReadingDoorSeesTheSchemasDefault() async throws {
        try await withTemporaryRoot { root in
            try Defaults.Domain(Self.suite, location: .directory(root)).installSchema(Self.schema)
            let defaults = try makeDefaults(Self.suite, root: root)
            #expect(try defaults.value(forKey: "fontSize") == 12)
            #expect(defaults.integer(forKey: "fontSize") == 12)
            #expect(defaults.string(forKey: "theme") == "system")
            #expect(try defaults.resolvedValues() == ["fontSize": 12, "theme": "system"])
            #expect(defaults[Defaults.Key<Int>("fontSize", default: 0)] == 12, "the schema's default is a layer of the search")
            #expect(try defaults.persistentValue(forKey: "fontSize") == nil, "nothing is stored")
            #expect(try defaults.isDefault(Defaults.Key<Int>("fontSize", default: 0)))
            #expect(defaults.object(forKey: "fontSize") as? Int == 12)
            #expect(defaults.dictionaryRepresentation()["theme"] as? String == "system")
            for await size in defaults.changes(of: .key("fontSize")) {
                #expect(size == 12, "observation's initial value")
                break
            }
            let delivered = Lock(false)
            var observation: DefaultsObservation?
            let first = await withCheckedContinuation { (continuation: CheckedContinuation<PreferenceValue?, Never>) in
                observation = defaults.observe(.key("fontSize")) { value in
                    let isFirst = delivered.withLock { wasDelivered in
                        defer { wasDelivered = true }
                        return !wasDelivered
                    }
                    if isFirst { continuation.resume(returning: value) }
                }
            }
            observation?.cancel()
            #expect(first == 12, "a callback's initial value")
            let bound = await MainActor.run { defaults.bind(Defaults.Key<Int>("fontSize", default: 0)).value }
            #expect(bound == 12, "a bound value")
            defaults.register(["fontSize": 20])
            #expect(try defaults.value(forKey: "fontSize") == 20, "below the registration domain")
        }
    }

    /// The managed and system layers come before the schema's default, by construction.
    @Test func theManagedAndSystemLayersWinOverTheDefault() throws {
        try withTemporaryRoot { root in
            let system = root.appendingPathComponent("xdg")
            try Defaults.Domain(Self.suite, location: .directory(root.appendingPathComponent("home"))).installSchema(Self.schema)
            let systemStore = try makeDefaults(Self.suite, root: Location.systemRoot(in: system))
            try systemStore.write(30, forKey: "fontSize")
            let defaults = try Defaults(
                suiteName: Self.suite,
                configuration: .init(
                    location: .directory(root.appendingPathComponent("home")), arguments: [], systemDirectories: [system]))
            #expect(try defaults.value(forKey: "fontSize") == 30)
            let managedStore = try makeDefaults(Self.suite, root: Location.managedRoot(in: system))
            try managedStore.write("dark", forKey: "theme")
            let managed = try Defaults(
                suiteName: Self.suite,
                configuration: .init(
                    location: .directory(root.appendingPathComponent("home")), arguments: [], systemDirectories: [system]))
            #expect(try managed.value(forKey: "theme") == "dark")
            #expect(try managed.value(forKey: "fontSize") == 30)
        }
    }

    /// A stored value the schema refuses reads as the default through every door, reported once; it is
    /// left as it is.
    @Test func aStoredValueTheSchemaRefusesReadsAsTheDefault() throws {
        try withTemporaryRoot { root in
            try makeDefaults(Self.suite, root: root).write(100, forKey: "fontSize")
            try Defaults.Domain(Self.suite, location: .directory(root)).installSchema(Self.schema)
            let errors = ReportedErrors()
            let defaults = try makeDefaults(Self.suite, root: root, errorHandler: errors.record)
            #expect(try defaults.value(forKey: "fontSize") == 12)
            #expect(defaults.integer(forKey: "fontSize") == 12)
            #expect(try defaults.resolvedValues()["fontSize"] == 12)
            #expect(defaults[Defaults.Key<Int>("fontSize", default: 0)] == 12)
            #expect(try defaults.persistentValue(for: Defaults.Key<Int>("fontSize", default: 0)) == nil)
            #expect(
                errors.all == [
                    .storedValueNotAccepted(suite: Self.suite, key: "fontSize", accepts: "an integer from 6 to 72")
                ])
            #expect(try defaults.persistentValue(forKey: "fontSize") == 100, "left as it is")
        }
    }

    /// Launch arguments are text: the schema reads them as the key's type.
    @Test func anArgumentIsReadAsTheSchemasType() throws {
        try withTemporaryRoot { root in
            try Defaults.Domain(Self.suite, location: .directory(root)).installSchema(Self.schema)
            let defaults = try makeDefaults(
                Self.suite, root: root, arguments: ["-fontSize", "14", "-theme", "neon"], errorHandler: { _ in })
            #expect(try defaults.value(forKey: "fontSize") == 14)
            #expect(try defaults.value(forKey: "theme") == "system", "an argument the schema refuses reads as the default")
        }
    }

    /// A newer schema installed by another program applies to the next write of a store already open,
    /// and its defaults to the reads after that write.
    @Test func aNewerSchemaAppliesToTheNextWrite() throws {
        try withInstalledSchema { root, defaults, _ in
            try defaults.write(50, forKey: "fontSize")
            let narrower = try PreferenceSchema(
                suiteName: Self.suite, version: 2,
                entries: [
                    .init(
                        name: "fontSize", type: .integer, defaultValue: 10, summary: "The font size", accepted: .integers(6...40))
                ])
            try Defaults.Domain(Self.suite, location: .directory(root)).installSchema(narrower)
            #expect(
                throws: DefaultsError.valueNotAccepted(suite: Self.suite, key: "fontSize", accepts: "an integer from 6 to 40")
            ) {
                try defaults.write(45, forKey: "fontSize")
            }
            try defaults.write(nil, forKey: "fontSize")
            #expect(try defaults.value(forKey: "fontSize") == 10)
        }
    }

    /// The configured schema applies without any file, and comes before an installed one.
    @Test func aConfiguredSchemaIsTheRule() throws {
        try withTemporaryRoot { root in
            let defaults = try Defaults(
                suiteName: Self.suite,
                configuration: .init(location: .directory(root), arguments: [], systemDirectories: [], schema: Self.schema))
            #expect(throws: Self.refusal) { try defaults.write(100, forKey: "fontSize") }
            #expect(try defaults.value(forKey: "theme") == "system")
            #expect(defaults.schema == Self.schema)
            #expect(throws: DefaultsError.self) {
                try Defaults(suiteName: "other.suite", configuration: .init(location: .inMemory, schema: Self.schema))
            }
        }
    }

    /// A format-1 file, written before undeclared keys were refused, still reads and installs: it allows them.
    @Test func aFormatOneFileAllowsUndeclaredKeys() throws {
        try withTemporaryRoot { root in
            let directory = root.appendingPathComponent("schemas")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let text =
                #"{"format":1,"suite":"com.example.app","version":1,"keys":[{"name":"fontSize","type":"integer","summary":"s","default":{"integer":12},"range":{"minimum":{"integer":6},"maximum":{"integer":72}}}]}"#
            try Data(text.utf8).write(to: directory.appendingPathComponent("com.example.app.json"))
            let defaults = try makeDefaults(Self.suite, root: root)
            try defaults.write("red", forKey: "colour")
            #expect(throws: Self.refusal) { try defaults.write(100, forKey: "fontSize") }
            let schema = try #require(
                try Defaults.Domain(Self.suite, location: .directory(root), systemDirectories: []).installedSchema())
            #expect(schema.allowsUndeclaredKeys)
            let copy = try Defaults.Domain(
                Self.suite, location: .directory(root.appendingPathComponent("copy")), systemDirectories: [])
            #expect(try copy.installSchema(schema) == .installed)
            #expect(try copy.installedSchema() == schema)
        }
    }

    /// A schema file that cannot be used is reported and not used: the domain is as one without a schema.
    @Test func aMalformedInstalledSchemaIsReportedAndNotUsed() throws {
        try withTemporaryRoot { root in
            let directory = root.appendingPathComponent("schemas")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data("not json".utf8).write(to: directory.appendingPathComponent("com.example.app.json"))
            let errors = ReportedErrors()
            let defaults = try makeDefaults(Self.suite, root: root, errorHandler: errors.record)
            try defaults.write(100, forKey: "fontSize")
            try defaults.write(101, forKey: "fontSize")
            #expect(try defaults.value(forKey: "fontSize") == 101)
            #expect(errors.all.count == 1, "reported once while the file is unchanged")
            guard case .malformedSchema? = errors.all.first else {
                Issue.record("not a malformed schema: \(errors.all)")
                return
            }
        }
    }

    /// A restore obeys the schema it is given, as a store configured with it would.
    @Test func aRestoreObeysTheConfiguredSchema() throws {
        try withTemporaryRoot { root in
            try makeDefaults(Self.suite, root: root).write(100, forKey: "fontSize")
            let backup = root.appendingPathComponent("backup.sqlite3")
            try Defaults.Domain(Self.suite, location: .directory(root)).backup(to: backup)
            #expect(throws: Self.refusal) {
                try Defaults.Domain(Self.suite, location: .directory(root), systemDirectories: [])
                    .restore(from: backup, schema: Self.schema)
            }
        }
    }

    /// A forced value reads as itself whatever a schema says: a user's own schema file that leaves out
    /// the administrator's value does not undo it.
    @Test func aForcedValueReadsAsItselfWhateverTheSchemaSays() throws {
        try withTemporaryRoot { root in
            let system = root.appendingPathComponent("xdg")
            try makeDefaults(Self.suite, root: Location.managedRoot(in: system)).write("neon", forKey: "theme")
            let home = root.appendingPathComponent("home")
            try Defaults.Domain(Self.suite, location: .directory(home)).installSchema(Self.schema)
            let errors = ReportedErrors()
            let defaults = try Defaults(
                suiteName: Self.suite,
                configuration: .init(
                    location: .directory(home), arguments: [], systemDirectories: [system], errorHandler: errors.record))
            #expect(try defaults.value(forKey: "theme") == "neon")
            #expect(try defaults.resolvedValues()["theme"] == "neon")
            #expect(errors.all.isEmpty)
        }
    }

    /// A typed update of a value the key's entry refuses (it reads as the default) throws, changing nothing.
    @Test func aTypedUpdateOfARefusedValueThrows() throws {
        try withTemporaryRoot { root in
            try makeDefaults(Self.suite, root: root).write(100, forKey: "fontSize")
            try Defaults.Domain(Self.suite, location: .directory(root)).installSchema(Self.schema)
            let defaults = try makeDefaults(Self.suite, root: root, errorHandler: { _ in })
            let key = Defaults.Key<Int>("fontSize", default: 12)
            #expect(
                throws: DefaultsError.storedValueNotAccepted(
                    suite: Self.suite, key: "fontSize", accepts: "an integer from 6 to 72")
            ) {
                try defaults.update(key) { $0 -= 1 }
            }
            #expect(try defaults.persistentValue(forKey: "fontSize") == 100)
        }
    }

    /// A number is one choice whether written as an integer or as a double.
    @Test func aNumberIsOneChoiceAsAnIntegerOrADouble() throws {
        let entry = PreferenceSchema.Entry(
            name: "scale", type: .float, defaultValue: 1, summary: "s", accepted: .choices([1, 2]))
        #expect(entry.accepts(.double(2)) && entry.accepts(.integer(2)) && !entry.accepts(.double(2.5)))
        let key = Defaults.Key<Double>("scale", default: 1, summary: "The scale", accepts: .choices([1, 2]))
        let defaults = try makeInMemoryDefaults()
        try defaults.write(2, for: key)
        #expect(defaults[key] == 2)
        #expect(throws: Never.self) { try PreferenceSchema(suiteName: "test.suite", version: 1, keys: key) }
    }

    /// A refused change of another suite that has no file creates none.
    @Test func aRefusedChangeOfAnotherSuiteCreatesNothing() throws {
        try withTemporaryRoot { root in
            try Defaults.Domain(Self.suite, location: .directory(root)).installSchema(Self.schema)
            let defaults = try makeDefaults("other.app", root: root)
            #expect(throws: Self.refusal) { try defaults.replacePersistentValues(["fontSize": 100], forName: Self.suite) }
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent(Self.suite + ".sqlite3").path))
            try defaults.replacePersistentValues(["fontSize": 20], forName: Self.suite)
            #expect(try defaults.persistentValues(forName: Self.suite) == ["fontSize": 20])
        }
    }

    /// A schema file copied over in place is read half-written for a moment: the schema last read from
    /// it still applies (reported), until the file holds one again.
    @Test func aSchemaFileReadHalfWrittenKeepsTheSchemaLastRead() throws {
        try withInstalledSchema { root, defaults, errors in
            try defaults.write(14, forKey: "fontSize")
            let file = root.appendingPathComponent("schemas/\(Self.suite).json")
            let text = try Data(contentsOf: file)
            try text.prefix(text.count / 2).write(to: file)
            #expect(throws: Self.refusal) { try defaults.write(100, forKey: "fontSize") }
            guard case .malformedSchema? = errors.all.last else {
                Issue.record("the half-written file is not reported: \(errors.all)")
                return
            }
            try text.write(to: file)
            #expect(throws: Self.refusal) { try defaults.write(100, forKey: "fontSize") }
        }
    }

    /// The default error handler's line holds no raw control character, whatever a key or a file holds.
    @Test func theDefaultReportEscapesControlCharacters() {
        let line = Defaults.standardErrorLine(of: .invalidBackup(path: "/tmp/a\u{1B}[2Jb", reason: "r"))
        #expect(!line.dropLast().unicodeScalars.contains { $0.properties.generalCategory == .control })
        #expect(line.contains("a\\U001b[2Jb") && line.hasSuffix("\n"))
    }
}
