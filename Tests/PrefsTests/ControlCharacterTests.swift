import Foundation
import LayeredDefaults
import Testing

@testable import prefs

/// What `prefs` prints of a stored value or a schema never holds a raw control character (Unicode's
/// `Cc`: `ESC`, DEL, the C1 controls), which a terminal acts on instead of showing: each prints escaped
/// as old-style property-list text escapes it (`\U001b`); only `read` of a string keeps its newlines
/// and tabs, and `keys` prints one line a key.
@Suite struct ControlCharacterTests {
    /// A text that clears a terminal twice (ESC's and the C1 control's CSI) around a DEL.
    static let hostile = "a\u{1b}[2Jb\u{7f}c\u{9b}2J"
    /// ``hostile`` as `prefs` prints it.
    static let escaped = #"a\U001b[2Jb\U007fc\U009b2J"#

    /// True when `text` holds a control character other than a newline.
    func holdsRawControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0 != "\n" && $0.properties.generalCategory == .control }
    }

    @Test func readEscapesAStringsControlCharactersButNotItsLinesAndTabs() throws {
        try withTestRoot { root throws in
            let value = PreferenceValue.string(Self.hostile + "\nline\ttab")
            try Defaults(suiteName: "app", configuration: .init(location: .directory(root.url), arguments: []))
                .replacePersistentValues(["k": value, Self.hostile: "v"])
            #expect(root.prefs("read", "app", "k").output == Self.escaped + "\nline\ttab\n")
            let domain = root.prefs("read", "app")
            #expect(domain.status == .success && !holdsRawControlCharacter(domain.output))
            #expect(domain.output.contains(#""\#(Self.escaped)" = v;"#), "a key too")
            let found = root.prefs("find", "line")
            #expect(found.status == .success && !holdsRawControlCharacter(found.output) && found.output.contains(Self.escaped))
            let json = root.prefs("read", "app", "k", "--json")
            #expect(!holdsRawControlCharacter(json.output) && json.output.contains(#"\u009b"#))
            #expect(try JSONDecoder().decode(PreferenceValue.self, from: Data(json.output.utf8)) == value, "exactly")
        }
    }

    /// An error names the key it is about, which may hold anything: its line stays one line, escaped.
    @Test func anErrorLineIsOneLineWithoutControlCharacters() throws {
        try withTestRoot { root throws in
            let missing = root.prefs("read", "app", Self.hostile + "\nsecond line")
            #expect(missing.status == .notFound && missing.errorLines.count == 1)
            #expect(!holdsRawControlCharacter(missing.error) && missing.error.contains(Self.escaped + #"\nsecond line"#))
        }
    }

    /// `keys` prints one line a key, whatever its default: an empty array, a dictionary, a string of
    /// several lines.
    @Test func keysPrintsOneLineAKey() throws {
        try withTestRoot { root throws in
            let schema = try PreferenceSchema(
                suiteName: "app", version: 1,
                entries: [
                    .init(name: "list", type: .array, defaultValue: [], summary: "A list"),
                    .init(name: "map", type: .dictionary, defaultValue: ["a": 1, "b": "x y"], summary: "A map"),
                    .init(name: "text", type: .string, defaultValue: "two\nlines\ttab", summary: "A text"),
                ])
            try Defaults.Domain("app", location: .directory(root.url)).installSchema(schema)
            #expect(
                root.prefs("keys", "app").output
                    == "list\tarray\t( )\nmap\tdictionary\t{ a = 1; b = \"x y\"; }\ntext\tstring\ttwo\\nlines\\ttab\n")
            #expect(root.prefs("describe", "app", "list").output.contains("\ndefault: ( )\n"))
        }
    }

    /// A description of several lines goes on over indented lines: none of them reads as a line of
    /// `describe` of its own.
    @Test func describeIndentsTheLinesOfADescription() throws {
        try withTestRoot { root throws in
            let schema = try PreferenceSchema(
                suiteName: "app", version: 1,
                entries: [.init(name: "k", type: .string, defaultValue: nil, summary: "A key", description: "First.\nset: yes")])
            try Defaults.Domain("app", location: .directory(root.url)).installSchema(schema)
            #expect(root.prefs("describe", "app", "k").output.contains("\ndescription: First.\n  set: yes\ntype: string\n"))
        }
    }

    /// A default or a choice holding a control character is refused by the schema itself, so that
    /// `keys`, `describe` and `read` never have one to print; a schema file holding one (written by
    /// hand) is refused when read, and `prefs` says so without printing the character.
    @Test func aSchemasDefaultOrChoiceWithAControlCharacterIsRefused() throws {
        let reason = "holds a control character (a terminal would act on it)"
        #expect(throws: DefaultsError.invalidSchema(suite: "app", key: "mode", reason: "its default " + reason)) {
            try PreferenceSchema(
                suiteName: "app", version: 1,
                entries: [.init(name: "mode", type: .string, defaultValue: .string(Self.hostile), summary: "A mode")])
        }
        #expect(throws: DefaultsError.invalidSchema(suite: "app", key: "mode", reason: "a choice " + reason)) {
            try PreferenceSchema(
                suiteName: "app", version: 1,
                entries: [
                    .init(
                        name: "mode", type: .string, defaultValue: "ok", summary: "A mode",
                        accepted: .choices(["ok", .string(Self.hostile)]))
                ])
        }
        try withTestRoot { root throws in
            let directory = root.url.appendingPathComponent("schemas")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let escapedInJSON = #"a\u001b[2Jb\u007fc\u009b2J"#
            for (entry, what) in [
                (#"{"name":"mode","type":"string","summary":"A mode","default":{"string":"\#(escapedInJSON)"}}"#, "its default"),
                (
                    #"{"name":"mode","type":"string","summary":"A mode","choices":[{"string":"ok"},{"string":"\#(escapedInJSON)"}]}"#,
                    "a choice"
                ),
            ] {
                let file = #"{"format":1,"suite":"app","version":1,"keys":[\#(entry)]}"#
                try Data(file.utf8).write(to: directory.appendingPathComponent("app.json"))
                for arguments in [["keys", "app"], ["describe", "app", "mode"], ["read", "app", "mode"]] {
                    let result = root.prefs(arguments)
                    #expect(result.status != .success, "\(arguments)")
                    #expect(result.output.isEmpty && result.error.contains(what + " " + reason), "\(arguments)")
                    #expect(!holdsRawControlCharacter(result.output + result.error), "\(arguments)")
                }
            }
        }
    }
}
