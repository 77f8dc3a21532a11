import Foundation
import LayeredDefaults
import Testing

@testable import prefs

@Suite struct SchemaCommandTests {
    /// The keys of the domain `app`: a theme of three choices, a size from 6 to 72, a name of at most 8
    /// characters, a switch, a ratio from 0 to 1, and an install id that is a UUID.
    static let entries: [PreferenceSchema.Entry] = [
        .init(
            name: "theme", type: .string, defaultValue: "system", summary: "The colour scheme",
            accepted: .choices(["system", "light", "dark"])),
        .init(
            name: "size", type: .integer, defaultValue: 12, summary: "The font size", description: "In points.",
            accepted: .integers(6...72)),
        .init(name: "nickname", type: .string, defaultValue: nil, summary: "A short name", accepted: .maximumLength(8)),
        .init(name: "enabled", type: .boolean, defaultValue: false, summary: "Whether it is on"),
        .init(name: "ratio", type: .float, defaultValue: 0.5, summary: "A share", accepted: .numbers(0...1)),
        .init(name: "installID", type: .string, content: .uuid, defaultValue: nil, summary: "The installation"),
    ]

    /// The schema of the domain `app`, which declares every key of it (``entries``).
    static let schema = try! PreferenceSchema(suiteName: "app", version: 1, entries: entries)

    /// Runs `body` with a root whose domain `app` has ``schema`` installed, as its app would; with
    /// `allowingOtherKeys`, a schema that lets the domain hold keys it does not declare.
    func withSchema(allowingOtherKeys: Bool = false, _ body: (TestRoot) throws -> Void) throws {
        try withTestRoot { root throws in
            let schema = try PreferenceSchema(
                suiteName: "app", version: 1, entries: Self.entries, allowsUndeclaredKeys: allowingOtherKeys)
            try Defaults.Domain("app", location: .directory(root.url)).installSchema(schema)
            try body(root)
        }
    }

    /// `import` and `rename` are writes like any other: a value outside the schema is refused, exit 2,
    /// naming the key and never the value, and nothing changes.
    @Test func importAndRenameCannotWriteWhatTheSchemaRefuses() throws {
        try withSchema(allowingOtherKeys: true) { root throws in
            try root.prefs("write", "app", "other", "-string", "SECRET-neon").requireSuccess()
            let imported = root.prefs(
                "import", "app", "-", input: Data(#"{"theme":{"string":"SECRET-neon"},"size":{"integer":14}}"#.utf8))
            #expect(imported.status == .usage && imported.errorLines.count == 1 && !imported.error.contains("SECRET"))
            #expect(imported.error.contains("'theme'"))
            let renamed = root.prefs("rename", "app", "other", "theme")
            #expect(renamed.status == .usage && !renamed.error.contains("SECRET") && renamed.error.contains("'theme'"))
            #expect(try root.stored("app") == ["other": "SECRET-neon"])
            try root.prefs("rename", "app", "other", "free").requireSuccess()
            #expect(try root.stored("app") == ["free": "SECRET-neon"])
        }
    }

    /// An unset key prints what the app reads: the schema's default only when no system-wide layer
    /// holds the key, whose value comes first, whether or not the domain has a file yet.
    @Test(arguments: [false, true])
    func anUnsetKeyReadsAsTheAppReadsIt(domainHasAFile: Bool) throws {
        try withSchema { root throws in
            if domainHasAFile { try root.prefs("write", "app", "size", "-int", "14").requireSuccess() }
            let read = root.prefs("read", "app", "theme")
            #expect(read.output == "system\n" && read.errorLines.count == 1)
            try root.prefs("--system", "write", "app", "theme", "dark").requireSuccess()
            #expect(root.prefs("read", "app", "theme", "--json").output == #"{"default":{"string":"dark"}}"# + "\n")
            try root.prefs("--managed", "write", "app", "theme", "light").requireSuccess()
            let forced = root.prefs("read", "app", "theme")
            #expect(forced.status == .success && forced.output == "light\n")
            #expect(root.entries.contains("app.sqlite3") == domainHasAFile, "reading creates nothing")
        }
    }

    /// A plain value is read by the key's type, as `gsettings set` reads it; type flags still work.
    @Test func aPlainValueIsReadByTheKeysType() throws {
        try withSchema { root throws in
            try root.prefs("write", "app", "size", "20").requireSuccess()
            try root.prefs("write", "app", "enabled", "true").requireSuccess()
            try root.prefs("write", "app", "ratio", "0.25").requireSuccess()
            try root.prefs("write", "app", "nickname", "42").requireSuccess()
            try root.prefs("write", "app", "installID", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F").requireSuccess()
            #expect(
                try root.stored("app") == [
                    "size": 20, "enabled": true, "ratio": 0.25, "nickname": "42",
                    "installID": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
                ])
            try root.prefs("write", "app", "size", "-int", "21").requireSuccess()
            let wrong = root.prefs("write", "app", "size", "big")
            #expect(wrong.status == .usage && wrong.error.contains("key 'size' of domain 'app' holds an integer"))
            #expect(!wrong.error.contains("big"), "never the value")
            #expect(try root.stored("app")["size"] == 21)
        }
    }

    /// A key the schema does not declare is refused, naming the nearest keys it does, as `gsettings`
    /// answers "No such key"; a schema that allows other keys lets them be written.
    @Test func aKeyOutsideTheSchemaIsRefusedWithTheNearestNames() throws {
        try withSchema { root throws in
            let typo = root.prefs("write", "app", "Size", "-int", "20")
            #expect(typo.status == .usage)
            #expect(
                typo.errorLines == [
                    "prefs: Cannot store a value for key 'Size' in domain 'app': its schema declares no such key (did you mean 'size'?); nothing was changed: the keys it declares are listed by `prefs keys app`"
                ])
            #expect(root.prefs("write", "app", "unrelated", "x").error.contains("declares no such key;"))
            #expect(root.entries == ["schemas"], "nothing created")
        }
        try withSchema(allowingOtherKeys: true) { root throws in
            try root.prefs("write", "app", "Size", "-int", "20").requireSuccess()
            #expect(try root.stored("app") == ["Size": 20])
        }
    }

    /// What a string key holds (a UUID) is checked for a script as it is for the app.
    @Test func aStringKeysContentIsChecked() throws {
        try withSchema { root throws in
            let write = root.prefs("write", "app", "installID", "not-a-uuid")
            #expect(write.status == .usage && write.error.contains("the key accepts a string holding a UUID"))
            #expect(root.entries == ["schemas"])
        }
    }

    @Test func keysListsEachKeyWithItsTypeAndDefault() throws {
        try withSchema { root throws in
            let keys = root.prefs("keys", "app")
            #expect(keys.status == .success && keys.error.isEmpty)
            #expect(
                keys.output
                    == "enabled\tboolean\t0\ninstallID\tstring\t-\nnickname\tstring\t-\nratio\tfloat\t0.5\nsize\tinteger\t12\ntheme\tstring\tsystem\n"
            )
            let json = root.prefs("keys", "app", "--json")
            #expect(try JSONDecoder().decode([PreferenceSchema.Entry].self, from: Data(json.output.utf8)) == Self.schema.keys)
            #expect(root.entries == ["schemas"], "listing keys creates no domain")
        }
    }

    @Test func describeSaysWhatTheSchemaSaysAndWhetherTheKeyIsSetOrForced() throws {
        try withSchema { root throws in
            let described = root.prefs("describe", "app", "size")
            #expect(described.status == .success)
            #expect(
                described.output
                    == "key: size\nsummary: The font size\ndescription: In points.\ntype: integer\naccepts: an integer from 6 to 72\ndefault: 12\nset: no\nforced: no\n"
            )
            #expect(root.prefs("describe", "app", "theme").output.contains("accepts: a string, one of system, light, dark\n"))
            root.prefs("write", "app", "size", "-int", "14")
            root.prefs("--managed", "write", "app", "theme", "dark")
            #expect(root.prefs("describe", "app", "size").output.contains("set: yes\nforced: no\n"))
            #expect(root.prefs("describe", "app", "theme").output.contains("set: no\nforced: yes\n"))
            let json =
                try JSONSerialization.jsonObject(with: Data(root.prefs("describe", "app", "size", "--json").output.utf8))
                as? [String: Any]
            #expect(json?["set"] as? Bool == true && json?["forced"] as? Bool == false && json?["key"] != nil)
            let missing = root.prefs("describe", "app", "other")
            #expect(missing.status == .notFound)
            #expect(missing.errorLines == ["prefs: The schema of domain app has no key 'other'; run 'prefs keys app'"])
        }
    }

    @Test func resetRemovesTheUsersValueSoTheDefaultShows() throws {
        try withSchema(allowingOtherKeys: true) { root throws in
            #expect(root.prefs("reset", "app", "size").status == .success)
            #expect(root.entries == ["schemas"], "a domain without a file is not created")
            root.prefs("write", "app", "size", "-int", "14")
            root.prefs("write", "app", "other", "kept")
            let reset = root.prefs("reset", "app", "size")
            #expect(reset.status == .success && reset.output.isEmpty && reset.error.isEmpty)
            #expect(try root.stored("app") == ["other": "kept"])
            #expect(root.prefs("read", "app", "size").output == "12\n")
            #expect(root.prefs("reset", "app", "other").status == .notFound, "only a key of the schema")
            #expect(try root.stored("app") == ["other": "kept"])
        }
    }

    @Test func readOfAnUnsetKeyPrintsTheSchemasDefaultAndSaysSo() throws {
        try withSchema { root throws in
            let read = root.prefs("read", "app", "theme")
            #expect(read.status == .success)
            #expect(read.output == "system\n")
            #expect(
                read.errorLines == [
                    "prefs: key 'theme' is not set in domain 'app': this is what it reads as, its schema's default (prefs explain app theme)"
                ])
            #expect(root.prefs("read", "app", "theme", "--json").output == #"{"default":{"string":"system"}}"# + "\n")
            root.prefs("write", "app", "theme", "dark")
            let set = root.prefs("read", "app", "theme")
            #expect(set.output == "dark\n" && set.error.isEmpty)
            #expect(root.prefs("read", "app", "nickname").status == .notFound, "a key without a default is not set")
        }
    }

    static let refusals: [([String], String)] = [
        (["theme", "-int", "3"], "the key accepts a string, one of system, light, dark"),
        (["theme", "neon"], "the key accepts a string, one of system, light, dark"),
        (["size", "-int", "100"], "the key accepts an integer from 6 to 72"),
        (["size", "-float", "14.5"], "the key accepts an integer from 6 to 72"),
        (["nickname", "-string", "secretvalue"], "the key accepts a string of at most 8 characters"),
        (["nickname", "-array-add", "secret"], "the key accepts a string of at most 8 characters"),
    ]

    @Test(arguments: refusals)
    func writeOutsideTheSchemaIsRefusedNamingTheKeyAndWhatItAccepts(arguments: [String], accepts: String) throws {
        try withSchema { root throws in
            let write = root.prefs(["write", "app"] + arguments)
            #expect(write.status == .usage)
            #expect(
                write.errorLines == [
                    "prefs: Cannot store the value for key '\(arguments[0])' in domain 'app': \(accepts); nothing was changed"
                ])
            #expect(!write.error.contains(arguments.last!), "never the value")
            #expect(root.entries == ["schemas"], "nothing created")
            root.prefs("write", "app", "size", "-int", "14")
            #expect(root.prefs(["write", "app"] + arguments).status == .usage)
            #expect(try root.stored("app") == ["size": 14], "nothing changed")
        }
    }

    @Test func replacingTheDomainWithValuesOutsideTheSchemaIsRefused() throws {
        try withSchema { root throws in
            root.prefs("write", "app", "size", "-int", "14")
            let write = root.prefs("write", "app", "{ theme = neon; }")
            #expect(write.status == .usage && write.errorLines.count == 1 && write.error.contains("'theme'"))
            #expect(try root.stored("app") == ["size": 14])
            let other = root.prefs("write", "app", "{ theme = dark; other = x; }")
            #expect(other.status == .usage && other.error.contains("'other'"))
            #expect(root.prefs("write", "app", "{ theme = dark; }").status == .success)
            #expect(try root.stored("app") == ["theme": "dark"])
        }
    }

    @Test func aDomainWithoutASchemaBehavesAsToday() throws {
        try withTestRoot { root throws in
            let write = root.prefs("write", "app", "theme", "-string", "neon")
            #expect(write.status == .success && write.error.isEmpty)
            #expect(try root.stored("app") == ["theme": "neon"])
            #expect(
                root.prefs("read", "app", "size").errorLines == ["prefs: The domain/default pair of (app, size) does not exist"])
            let keys = root.prefs("keys", "app")
            #expect(keys.status == .notFound && keys.errorLines.first?.hasPrefix("prefs: Domain app has no schema") == true)
            #expect(root.prefs("describe", "app", "theme").status == .notFound)
            #expect(root.prefs("reset", "app", "theme").status == .notFound)
            #expect(try root.stored("app") == ["theme": "neon"])
        }
    }

    @Test func aMalformedSchemaIsReportedAndNotTrusted() throws {
        try withTestRoot { root throws in
            let directory = root.url.appendingPathComponent("schemas")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let file = directory.appendingPathComponent("app.json")
            try Data(#"{"format":1,"suite":"app","version":1,"keys":[{"name":"theme"}]}"#.utf8).write(to: file)
            let write = root.prefs("write", "app", "theme", "neon")
            #expect(write.status == .success, "written as without a schema")
            #expect(
                write.errorLines == [
                    "prefs: warning: The schema file '\(file.path)' is malformed (at keys[0].summary: missing); it is not used and was left untouched: reinstall it from its app (Domain.installSchema, `prefs install-schema <file>`)"
                ])
            let keys = root.prefs("keys", "app")
            #expect(keys.status == .storage && keys.errorLines.count == 1 && keys.error.contains("is malformed"))
        }
    }

    @Test func installSchemaInstallsAFileForTheUserOrEveryUser() throws {
        try withTestRoot { root throws in
            let file = root.url.appendingPathComponent("app-schema.json")
            try Self.schema.jsonData().write(to: file)
            #expect(root.prefs("install-schema", file.path).output == "installed\n")
            #expect(root.prefs("install-schema", file.path).output == "unchanged\n")
            #expect(root.prefs("keys", "app").status == .success)
            let newer = try PreferenceSchema(suiteName: "app", version: 2, entries: Array(Self.schema.keys.prefix(1)))
            #expect(root.prefs(["install-schema", "-"], input: try newer.jsonData()).output == "replaced version 1\n")
            #expect(root.prefs("install-schema", file.path).output == "kept the installed version 2\n")
            #expect(root.prefs("keys", "app").output == "enabled\tboolean\t0\n")

            let system = root.prefs("--system", "install-schema", file.path)
            #expect(system.status == .success && system.output == "installed\n")
            let systemFile = root.systemDirectory.appendingPathComponent("layered-defaults/schemas/app.json")
            #expect(try FileManager.default.attributesOfItem(atPath: systemFile.path)[.posixPermissions] as? Int == 0o644)
            #expect(root.prefs("--system", "keys", "app").output.hasPrefix("enabled\tboolean\t0\ninstallID"))

            let malformed = root.prefs(["install-schema", "-"], input: Data("{}".utf8))
            #expect(malformed.status == .usage && malformed.errorLines.count == 1 && malformed.error.contains("malformed"))
            #expect(root.prefs("--managed", "install-schema", file.path).status == .usage)
        }
    }

    @Test func uninstallSchemaRemovesTheUsersOrEveryUsersSchema() throws {
        try withTestRoot { root throws in
            try Defaults.Domain("app", location: .directory(root.url)).installSchema(Self.schema)
            try Defaults.Domain("app", layer: .system, systemDirectories: [root.systemDirectory]).installSchema(Self.schema)
            #expect(root.prefs("write", "app", "size", "abc").status == .usage, "the schema applies")
            let removed = root.prefs("uninstall-schema", "app")
            #expect(removed.status == .success && removed.output == "removed\n" && removed.error.isEmpty)
            #expect(root.prefs("write", "app", "size", "abc").status == .usage, "every user's still applies")
            #expect(root.prefs("--system", "uninstall-schema", "app").output == "removed\n")
            #expect(root.prefs("write", "app", "size", "abc").status == .success, "no schema applies now")

            let again = root.prefs("uninstall-schema", "app")
            #expect(again.status == .notFound && again.error == "prefs: No schema is installed for the user for domain app\n")
            #expect(root.prefs("--managed", "uninstall-schema", "app").status == .usage)
            #expect(root.prefs("uninstall-schema").status == .usage)
        }
    }

    @Test func aSystemSchemaServesTheUsersDomainWhenTheUserHasNone() throws {
        try withTestRoot { root throws in
            try Defaults.Domain("app", layer: .system, systemDirectories: [root.systemDirectory]).installSchema(Self.schema)
            #expect(root.prefs("write", "app", "theme", "neon").status == .usage)
            #expect(root.prefs("read", "app", "size").output == "12\n")
        }
    }

    /// The system-wide layers themselves obey the schema installed for every user: an administrator's
    /// value is checked as a user's is.
    @Test func theSystemWideLayersObeyTheSystemSchema() throws {
        try withTestRoot { root throws in
            try Defaults.Domain("app", layer: .system, systemDirectories: [root.systemDirectory]).installSchema(Self.schema)
            for layer in ["--system", "--managed"] {
                let refused = root.prefs(layer, "write", "app", "theme", "neon")
                #expect(refused.status == .usage && refused.error.contains("one of system, light, dark"), "\(layer)")
                #expect(root.prefs(layer, "write", "app", "sizes", "-int", "20").error.contains("did you mean 'size'?"))
                try root.prefs(layer, "write", "app", "size", "20").requireSuccess()
            }
            #expect(root.prefs("read", "app", "size").output == "20\n")
        }
    }

    /// A restore into a system-wide layer obeys the system schema, as a write there does; refused, it
    /// leaves no file.
    @Test func aRestoreIntoASystemWideLayerObeysTheSystemSchema() throws {
        try withTestRoot { root throws in
            try root.prefs("write", "app", "size", "-int", "100").requireSuccess()
            let backup = root.url.appendingPathComponent("backup.sqlite3")
            try root.prefs("backup", "app", backup.path).requireSuccess()
            try Defaults.Domain("app", layer: .system, systemDirectories: [root.systemDirectory]).installSchema(Self.schema)
            for layer in ["--system", "--managed"] {
                let restored = root.prefs(layer, "restore", "app", backup.path)
                #expect(restored.status == .usage && restored.error.contains("from 6 to 72"), "\(layer)")
            }
            #expect(
                !FileManager.default.fileExists(
                    atPath: root.systemDirectory.appendingPathComponent("layered-defaults/app.sqlite3").path))
        }
    }

    /// The store a change is tried on first, and the layers read for an unset key, obey what the
    /// domain's own store obeys: no schema when the user's file cannot be used, even though a system one
    /// could be.
    @Test func theTrialObeysWhatTheDomainsStoreObeys() throws {
        try withTestRoot { root throws in
            try Defaults.Domain("app", layer: .system, systemDirectories: [root.systemDirectory]).installSchema(Self.schema)
            let directory = root.url.appendingPathComponent("schemas")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data("not json".utf8).write(to: directory.appendingPathComponent("app.json"))
            try root.prefs("write", "app", "size", "100").requireSuccess()
            #expect(try root.stored("app") == ["size": "100"], "no schema: a plain string, accepted")
            #expect(root.prefs("read", "app", "ratio").status == .notFound, "no schema default either")
        }
    }

    /// The dictionary form reads each key's text by its type, as a plain value is.
    @Test func theDictionaryFormReadsEachKeyByItsType() throws {
        try withSchema { root throws in
            try root.prefs("write", "app", "{ size = 14; enabled = yes; theme = dark; }").requireSuccess()
            #expect(try root.stored("app") == ["size": 14, "enabled": true, "theme": "dark"])
            #expect(root.prefs("write", "app", "{ size = big; }").status == .usage)
        }
    }

    /// A stored value the schema does not accept prints with a warning: the app reads the default.
    @Test func readingARefusedStoredValueWarns() throws {
        try withTestRoot { root throws in
            try root.prefs("write", "app", "size", "-int", "100").requireSuccess()
            try Defaults.Domain("app", location: .directory(root.url)).installSchema(Self.schema)
            let read = root.prefs("read", "app", "size")
            #expect(read.output == "100\n" && read.status == .success)
            #expect(read.errorLines.count == 1 && read.error.contains("reads as the key's default"))
        }
    }
}
