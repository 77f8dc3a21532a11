import Foundation
import LayeredDefaults
import PackageTestSupport
import Testing

@testable import prefs

/// What a macOS `defaults` user expects of `prefs`: the exit statuses `defaults` has, refusals that say
/// why, and messages that name the key's own rule.
@Suite struct DefaultsUsersExpectationsTests {
    /// A domain with a schema of a size from 6 to 72 and a name of at most 8 characters.
    private static let schema = try! PreferenceSchema(
        suiteName: "app", version: 1,
        entries: [
            .init(name: "fontSize", type: .integer, defaultValue: 12, summary: "The font size", accepted: .integers(6...72)),
            .init(name: "nickname", type: .string, defaultValue: nil, summary: "A short name", accepted: .maximumLength(8)),
            .init(name: "count", type: .integer, defaultValue: 0, summary: "Any count"),
        ])

    @Test func deletingAMissingOrEmptiedDomainIsNotFound() throws {
        try withTestRoot { root throws in
            let missing = root.prefs("delete", "nosuch")
            #expect(missing.status == .notFound && missing.error == "prefs: Domain nosuch does not exist\n")
            #expect(root.prefs("write", "dom", "k", "1").status == .success)
            #expect(root.prefs("delete", "dom").status == .success)
            let again = root.prefs("delete", "dom")
            #expect(again.status == .notFound && again.error == "prefs: Domain dom does not exist\n", "as read says")
            #expect(root.prefs("read", "dom").status == .notFound)
        }
    }

    /// `domains`, `read` and `delete` agree: a domain exists while it holds a value. Failed before: an
    /// emptied domain was listed by `domains` (and by `read` without a domain) but `read <domain>` said
    /// it did not exist.
    @Test func anEmptiedDomainIsNeitherListedNorRead() throws {
        try withTestRoot { root throws in
            #expect(root.prefs("write", "dom", "k", "1").status == .success)
            #expect(root.prefs("write", "kept", "k", "2").status == .success)
            #expect(root.prefs("domains").output == "dom, kept\n")
            #expect(root.prefs("delete", "dom", "k").status == .success)
            #expect(root.entries.contains("dom.sqlite3"), "its file stays")
            #expect(root.prefs("domains").output == "kept\n")
            #expect(root.prefs("--json", "domains").output == #"["kept"]"# + "\n")
            let read = root.prefs("read", "dom")
            #expect(read.status == .notFound && read.error == "prefs: Domain dom does not exist\n")
            #expect(root.prefs("read").output == "{\n    kept = {\n        k = 2;\n    };\n}\n", "left out of every domain")
            #expect(root.prefs("write", "dom", "k", "3").status == .success)
            #expect(root.prefs("domains").output == "dom, kept\n", "a value again: it exists again")
        }
    }

    /// A domain whose file cannot be read is listed: `read` reports why rather than that it does not exist.
    @Test func anUnreadableDomainIsListed() throws {
        try withTestRoot { root throws in
            try FileManager.default.createDirectory(at: root.url, withIntermediateDirectories: true)
            try Data(repeating: 0x41, count: 4096).write(to: root.url.appendingPathComponent("broken.sqlite3"))
            #expect(root.prefs("domains").output == "broken\n")
            #expect(root.prefs("read", "broken").status == .storage)
        }
    }

    @Test func deleteAllIsRefusedWithAReason() throws {
        try withTestRoot { root throws in
            let result = root.prefs("delete-all", "k")
            #expect(result.status == .usage)
            #expect(result.error.hasPrefix("prefs: delete-all is not supported: prefs deletes one domain's keys"))
            #expect(root.prefs("frobnicate").error == "prefs: unknown verb 'frobnicate'; run 'prefs --help'\n")
        }
    }

    /// The file being installed is not one an app installed: its refusal says nothing was installed.
    @Test func installingAMalformedSchemaSaysNothingWasInstalled() throws {
        try withTestRoot { root throws in
            let file = root.url.appendingPathComponent("bad.json")
            try Data(#"{"suite":"app"}"#.utf8).write(to: file)
            let result = root.prefs("install-schema", file.path)
            #expect(result.status == .usage && result.errorLines.count == 1)
            #expect(result.error.hasPrefix("prefs: The schema file '\(file.path)' is malformed ("))
            #expect(result.error.hasSuffix("); nothing was installed\n"))
            #expect(!result.error.contains("reinstall"))
        }
    }

    @Test func aRefusedValueCitesTheKeysOwnRule() throws {
        try withTestRoot { root throws in
            try Defaults.Domain("app", location: .directory(root.url)).installSchema(Self.schema)
            let word = root.prefs("write", "app", "fontSize", "abc")
            #expect(word.status == .usage)
            #expect(
                word.error
                    == "prefs: key 'fontSize' of domain 'app' holds an integer (its schema): give an integer from 6 to 72, or a type flag; nothing was changed\n"
            )
            let count = root.prefs("write", "app", "count", "abc")
            #expect(
                count.error.contains("give a whole number from -9223372036854775808 to 9223372036854775807"), "no rule of its own"
            )
            let long = root.prefs("write", "app", "nickname", "muchtoolong")
            #expect(long.status == .usage && long.error.contains("a string of at most 8 characters"))
        }
    }

    /// `--help` lists a schema's refusal under exit status 2, the status it has.
    @Test func theHelpListsSchemaRefusalsUnderTheirStatus() throws {
        try withTestRoot { root throws in
            let help = root.prefs("--help").output.replacingOccurrences(of: "\n", with: " ")
            #expect(help.contains("2 usage error (also a key or a value the domain's schema refuses)"))
            try Defaults.Domain("app", location: .directory(root.url)).installSchema(Self.schema)
            #expect(root.prefs("write", "app", "fontSize", "100").status == .usage)
        }
    }

    @Test func aVerbsHelpListsTheLayerOptions() throws {
        try withTestRoot { root throws in
            let help = root.prefs("help", "write").output
            #expect(help.contains("--system") && help.contains("--managed"))
            #expect(root.prefs("--system", "write", "dom", "k", "1").status == .success, "which write takes")
        }
    }
}
