import Foundation
import LayeredDefaults
import Testing

@testable import prefs

/// What a `gsettings` user reaches for: `list-schemas`, `range`, `list-recursively`, and `monitor` as a
/// spelling of `watch`.
@Suite struct GSettingsVerbsTests {
    /// The schema of `app`: a theme of three choices, a size from 6 to 72, a name of at most 8
    /// characters without a default, and a switch.
    private static let schema = try! PreferenceSchema(
        suiteName: "app", version: 1,
        entries: [
            .init(
                name: "theme", type: .string, defaultValue: "system", summary: "The colour scheme",
                accepted: .choices(["system", "light", "dark"])),
            .init(name: "size", type: .integer, defaultValue: 12, summary: "The font size", accepted: .integers(6...72)),
            .init(name: "nickname", type: .string, defaultValue: nil, summary: "A short name", accepted: .maximumLength(8)),
            .init(name: "enabled", type: .boolean, defaultValue: false, summary: "Whether it is on"),
        ])

    @Test func listSchemasListsTheUsersAndEveryUsersDomains() throws {
        try withTestRoot { root throws in
            let none = root.prefs("list-schemas")
            #expect(none.status == .success && none.output.isEmpty && none.error.isEmpty)
            try Defaults.Domain("app", location: .directory(root.url)).installSchema(Self.schema)
            let other = try PreferenceSchema(suiteName: "other", version: 1, entries: [])
            try Defaults.Domain("other", layer: .system, systemDirectories: [root.systemDirectory]).installSchema(other)
            try Defaults.Domain("app", layer: .system, systemDirectories: [root.systemDirectory]).installSchema(Self.schema)
            #expect(root.prefs("list-schemas").output == "app\nother\n", "each once, sorted")
            #expect(root.prefs("--system", "list-schemas").output == "app\nother\n")
            #expect(root.prefs("--json", "list-schemas").output == #"["app","other"]"# + "\n")
            try Defaults.Domain("other", layer: .system, systemDirectories: [root.systemDirectory]).uninstallSchema()
            #expect(root.prefs("list-schemas").output == "app\n")
            #expect(root.prefs("list-schemas", "extra").status == .usage)
        }
    }

    @Test func rangePrintsTheTypeAndWhatTheKeyAccepts() throws {
        try withTestRoot { root throws in
            #expect(root.prefs("range", "app", "size").status == .notFound, "no schema")
            try Defaults.Domain("app", location: .directory(root.url)).installSchema(Self.schema)
            #expect(root.prefs("range", "app", "size").output == "integer\nrange 6 72\n")
            #expect(root.prefs("range", "app", "theme").output == "string\nenum\nsystem\nlight\ndark\n")
            #expect(root.prefs("range", "app", "nickname").output == "string\nlength 8\n")
            #expect(root.prefs("range", "app", "enabled").output == "boolean\nany\n")
            #expect(
                root.prefs("--json", "range", "app", "size").output == #"{"accepts":"an integer from 6 to 72","type":"integer"}"#
                    + "\n")
            let missing = root.prefs("range", "app", "nosuch")
            #expect(missing.status == .notFound && missing.error.contains("has no key 'nosuch'"))
        }
    }

    @Test func listRecursivelyPrintsTheValuesTheAppReads() throws {
        try withTestRoot { root throws in
            #expect(root.prefs("list-recursively", "app").status == .notFound)
            try Defaults.Domain("app", location: .directory(root.url)).installSchema(Self.schema)
            #expect(
                root.prefs("list-recursively", "app").output == "app enabled 0\napp size 12\napp theme system\n",
                "the schema's defaults; a key without one is left out")
            #expect(root.prefs("write", "app", "size", "14").status == .success)
            #expect(root.prefs("write", "app", "extra", "x").status == .usage, "the schema allows no other key")
            #expect(root.prefs("list-recursively", "app").output == "app enabled 0\napp size 14\napp theme system\n")
            #expect(root.prefs("list-recursively").output == "app enabled 0\napp size 14\napp theme system\n")
            #expect(
                root.prefs("--json", "list-recursively", "app").output.hasPrefix(
                    #"{"domain":"app","key":"enabled","value":{"bool":false}}"#))
            #expect(root.prefs("write", "plain", "k", "v").status == .success)
            #expect(root.prefs("list-recursively", "plain").output == "plain k v\n", "a domain without a schema")
        }
    }

    /// A misspelled key in `read` gets "did you mean", as in `write`; a declared key without a default,
    /// or a domain without a schema, gets none. Failed before: the bare not-found message.
    @Test func readOfAMisspelledKeySuggestsTheDeclaredNames() throws {
        try withTestRoot { root throws in
            #expect(root.prefs("read", "app", "thme").error == "prefs: The domain/default pair of (app, thme) does not exist\n")
            try Defaults.Domain("app", location: .directory(root.url)).installSchema(Self.schema)
            let typo = root.prefs("read", "app", "thme")
            #expect(typo.status == .notFound && typo.output.isEmpty)
            #expect(typo.errorLines == ["prefs: The domain/default pair of (app, thme) does not exist (did you mean 'theme'?)"])
            let declared = root.prefs("read", "app", "nickname")
            #expect(declared.errorLines == ["prefs: The domain/default pair of (app, nickname) does not exist"])
            let far = root.prefs("read", "app", "unrelated")
            #expect(far.errorLines == ["prefs: The domain/default pair of (app, unrelated) does not exist"])
            #expect(
                root.prefs("--json", "read", "app", "Size").errorLines == [
                    #"{"error":"The domain/default pair of (app, Size) does not exist (did you mean 'size'?)","status":1}"#
                ])
        }
    }

    /// `read <domain>` of a domain holding no value shows the schema's defaults, marked as defaults on
    /// standard error, with or without a file. Failed before: "Domain app does not exist", exit 1.
    @Test func readOfADomainHoldingOnlyDefaultsShowsThem() throws {
        try withTestRoot { root throws in
            try Defaults.Domain("app", location: .directory(root.url)).installSchema(Self.schema)
            let defaults = root.prefs("read", "app")
            #expect(defaults.status == .success)
            #expect(defaults.output == "{\n    enabled = 0;\n    size = 12;\n    theme = system;\n}\n")
            #expect(defaults.errorLines.count == 1 && defaults.errorLines[0].contains("domain 'app' holds no value"))
            #expect(defaults.errorLines[0].contains("defaults"))
            #expect(root.entries == ["schemas"], "reading created no file")
            #expect(
                root.prefs("--json", "read", "app").output
                    == #"{"default":{"enabled":{"bool":false},"size":{"integer":12},"theme":{"string":"system"}}}"# + "\n")
            #expect(root.prefs("write", "app", "size", "14").status == .success)
            let stored = root.prefs("read", "app")
            #expect(stored.output == "{\n    size = 14;\n}\n" && stored.error.isEmpty, "a value held: the domain's values")
            #expect(root.prefs("delete", "app", "size").status == .success)
            #expect(root.prefs("read", "app").output == defaults.output, "emptied, with its file: the defaults again")
            #expect(root.prefs("read", "other").status == .notFound, "no schema, no value")
        }
    }

    @Test func monitorIsASpellingOfWatch() throws {
        try withTestRoot { root throws in
            #expect(Prefs.command(named: "monitor").map(ObjectIdentifier.init) == ObjectIdentifier(Watch.self))
            let help = root.prefs("help", "monitor").output
            #expect(help == root.prefs("help", "watch").output && help.contains("Also spelled: monitor."))
            #expect(root.prefs("--help").output.contains("Also spelled: monitor."))
            #expect(ManualPage.roff.contains("Also spelled: monitor."))
            #expect(root.prefs("monitor").error == "prefs: usage: prefs watch <domain> [<key>...]\n")
        }
    }
}
