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
            try Defaults.installSchema(Self.schema, location: .directory(root.url))
            let other = try PreferenceSchema(suiteName: "other", version: 1, entries: [])
            try Defaults.installSchema(other, systemDirectory: root.systemDirectory)
            try Defaults.installSchema(Self.schema, systemDirectory: root.systemDirectory)
            #expect(root.prefs("list-schemas").output == "app\nother\n", "each once, sorted")
            #expect(root.prefs("--system", "list-schemas").output == "app\nother\n")
            #expect(root.prefs("--json", "list-schemas").output == #"["app","other"]"# + "\n")
            try Defaults.uninstallSchema(suiteName: "other", systemDirectory: root.systemDirectory)
            #expect(root.prefs("list-schemas").output == "app\n")
            #expect(root.prefs("list-schemas", "extra").status == .usage)
        }
    }

    @Test func rangePrintsTheTypeAndWhatTheKeyAccepts() throws {
        try withTestRoot { root throws in
            #expect(root.prefs("range", "app", "size").status == .notFound, "no schema")
            try Defaults.installSchema(Self.schema, location: .directory(root.url))
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
            try Defaults.installSchema(Self.schema, location: .directory(root.url))
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
