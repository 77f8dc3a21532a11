import Foundation
import LayeredDefaults
import Testing

@testable import prefs

/// What `prefs completions --complete` offers a shell, word by word.
@Suite struct CompletionTests {
    /// The candidates' words, without their descriptions.
    func offered(_ words: [String], in root: TestRoot) -> [String] {
        let result = root.prefs(["completions", "--complete", "\(words.count - 1)", "--"] + words)
        #expect(result.status == .success && result.error.isEmpty)
        return result.output.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
    }

    @Test func verbs() throws {
        try withTestRoot { root throws in
            #expect(
                offered(["prefs", "re"], in: root) == ["read", "read-type", "rename", "repair", "reset", "restore", "revert"])
            #expect(offered(["prefs", "--json", "ex"], in: root) == ["exists", "export", "explain"])
            #expect(offered(["prefs", "help", "co"], in: root) == ["completions"])
            #expect(offered(["prefs", ""], in: root).count == Prefs.commands.count + 2, "every verb, monitor and help")
            #expect(offered(["prefs", "mo"], in: root) == ["monitor"], "an alias is offered too")
        }
    }

    @Test func domainsFromTheStore() throws {
        try withTestRoot { root throws in
            try root.prefs("write", "com.example.a", "k", "v").requireSuccess()
            try root.prefs("write", "com.example.b", "k", "v").requireSuccess()
            try root.prefs("write", "org.other", "k", "v").requireSuccess()
            #expect(offered(["prefs", "read", "com."], in: root) == ["com.example.a", "com.example.b"])
            #expect(offered(["prefs", "write", ""], in: root) == ["-g", "com.example.a", "com.example.b", "org.other"])
            #expect(offered(["prefs", "read", "com.example.a", ""], in: root) == ["k"], "then its keys")
        }
    }

    /// The domains are those of the root the command line names.
    @Test func domainsUnderTheRootOfTheCommandLine() throws {
        try withTestRoot { root throws in
            let other = root.url.appendingPathComponent("other")
            try root.prefs("--root", other.path, "write", "elsewhere.app", "k", "v").requireSuccess()
            #expect(offered(["prefs", "--root", other.path, "read", "e"], in: root) == ["elsewhere.app"])
            #expect(offered(["prefs", "--root=\(other.path)", "read", "e"], in: root) == ["elsewhere.app"])
            #expect(offered(["prefs", "read", "e"], in: root).isEmpty)
        }
    }

    @Test func optionsAndTheirValues() throws {
        try withTestRoot { root throws in
            #expect(offered(["prefs", "prune", "--a"], in: root) == ["--any-age"])
            #expect(offered(["prefs", "export", "app", "-", "--format", ""], in: root) == ["json", "xml", "binary"])
            #expect(offered(["prefs", "export", "app", ""], in: root) == [CompletionCandidates.files])
            #expect(offered(["prefs", "--root", ""], in: root) == [CompletionCandidates.directories])
            #expect(offered(["prefs", "completions", ""], in: root) == ["bash", "zsh", "fish"])
            #expect(offered(["prefs", "write", "app", "k", "-a"], in: root) == ["-array", "-array-add"])
            #expect(offered(["prefs", "read", "--", "--"], in: root).isEmpty, "after --, no option")
        }
    }

    /// Word lists a shell would never send (none, or an index past them) are read as an empty word
    /// after them, never a crash.
    @Test(arguments: [["completions", "--complete", "1"], ["completions", "--complete", "5", "--", "prefs"]])
    func oddWordListsOfferNothing(arguments: [String]) throws {
        try withTestRoot { root throws in
            let result = root.prefs(arguments)
            #expect(result.status == .success && result.error.isEmpty)
            #expect(result.output.split(separator: "\n").count == Prefs.commands.count + 2, "the verbs, monitor and help")
        }
    }

    /// After a domain, the verbs whose operand is a key offer the keys stored in it and those its schema
    /// declares; `describe` and `reset`, which take a key of the schema only, the declared ones.
    @Test func keysAfterADomain() throws {
        try withTestRoot { root throws in
            let schema = try PreferenceSchema(
                suiteName: "app", version: 1, entries: SchemaCommandTests.entries, allowsUndeclaredKeys: true)
            try Defaults.Domain("app", location: .directory(root.url)).installSchema(schema)
            try root.prefs("write", "app", "size", "-int", "14").requireSuccess()
            try root.prefs("write", "app", "other", "v").requireSuccess()
            let declared = ["enabled", "installID", "nickname", "ratio", "size", "theme"]
            let everyKey = ["enabled", "installID", "nickname", "other", "ratio", "size", "theme"]
            for verb in ["read", "read-type", "exists", "write", "delete", "rename", "watch"] {
                #expect(offered(["prefs", verb, "app", ""], in: root) == everyKey, "\(verb)")
            }
            #expect(offered(["prefs", "describe", "app", ""], in: root) == declared)
            #expect(offered(["prefs", "reset", "app", "t"], in: root) == ["theme"])
            #expect(offered(["prefs", "watch", "app", "theme", "o"], in: root) == ["other"], "each key of watch")
            #expect(offered(["prefs", "read", "app", "theme", ""], in: root).isEmpty)
            #expect(offered(["prefs", "read", "--json", "app", "n"], in: root) == ["nickname"])
            let described = root.prefs(["completions", "--complete", "3", "--", "prefs", "describe", "app", "t"])
            #expect(described.output == "theme\tThe colour scheme\n", "a declared key with its summary")
            #expect(offered(["prefs", "read", "nosuch", ""], in: root).isEmpty)
            #expect(offered(["prefs", "read", "not a domain", ""], in: root).isEmpty)
        }
    }

    /// The keys are those of the layer and the root the command line names: the global domain's after
    /// `-g`, a system layer's with `--system`.
    @Test func keysOfTheLayerOfTheCommandLine() throws {
        try withTestRoot { root throws in
            try root.prefs("write", "-g", "globalKey", "v").requireSuccess()
            try root.prefs("--system", "write", "app", "systemKey", "v").requireSuccess()
            try root.prefs("write", "app", "userKey", "v").requireSuccess()
            #expect(offered(["prefs", "read", "-g", ""], in: root) == ["globalKey"])
            #expect(offered(["prefs", "--system", "read", "app", ""], in: root) == ["systemKey"])
            #expect(offered(["prefs", "read", "app", ""], in: root) == ["userKey"])
        }
    }

    /// After `write <domain> <key>`, the key's choices when its schema gives them, then the type flags.
    @Test func choicesAfterAKeyToWrite() throws {
        try withTestRoot { root throws in
            try Defaults.Domain("app", location: .directory(root.url)).installSchema(SchemaCommandTests.schema)
            let flags = offered(["prefs", "write", "app", "other", ""], in: root)
            #expect(flags == ValueParser.typeFlags)
            #expect(offered(["prefs", "write", "app", "theme", ""], in: root) == ["system", "light", "dark"] + flags)
            #expect(offered(["prefs", "write", "app", "theme", "d"], in: root) == ["dark"])
            #expect(offered(["prefs", "write", "app", "size", ""], in: root) == flags, "a range gives no choices")
            #expect(offered(["prefs", "write", "app", "theme", "-s"], in: root) == ["-string"])
        }
    }

    /// A key or a choice holding a newline, a tab or another control character is never offered (a shell
    /// would insert it raw), nor a key the parser would take for an option, except after `--`.
    @Test func keysAndChoicesThatCannotBeTypedAreNotOffered() throws {
        try withTestRoot { root throws in
            for key in ["two\nlines", "a\ttab", "clear\u{1b}[2J", "del\u{7f}", "c1\u{9b}2J", "--option", "plain key"] {
                try root.prefs("write", "--", "app", key, "v").requireSuccess()
            }
            #expect(offered(["prefs", "read", "app", ""], in: root) == ["plain key"])
            #expect(offered(["prefs", "read", "--", "app", "-"], in: root) == ["--option"])
            // NB: a choice holding another control character cannot be installed (ControlCharacterTests).
            let choices: [PreferenceValue] = ["ok", "two\nlines", "a\ttab", "-dash"]
            let schema = try PreferenceSchema(
                suiteName: "app", version: 1,
                entries: [.init(name: "mode", type: .string, defaultValue: nil, summary: "A mode", accepted: .choices(choices))])
            try Defaults.Domain("app", location: .directory(root.url)).installSchema(schema)
            #expect(offered(["prefs", "write", "app", "mode", ""], in: root) == ["ok"] + ValueParser.typeFlags)
        }
    }

    /// Keys come from the files there are: completing a key of a domain without a file, or without a
    /// schema, creates nothing.
    @Test func completingAKeyCreatesNothing() throws {
        try withTestRoot { root throws in
            try Defaults.Domain("app", location: .directory(root.url)).installSchema(SchemaCommandTests.schema)
            #expect(
                offered(["prefs", "read", "app", ""], in: root) == ["enabled", "installID", "nickname", "ratio", "size", "theme"])
            // A system-wide layer's domain obeys the user's schema where no system-wide one is installed.
            #expect(
                offered(["prefs", "--system", "read", "app", ""], in: root)
                    == ["enabled", "installID", "nickname", "ratio", "size", "theme"])
            #expect(offered(["prefs", "--managed", "write", "app", "theme", "l"], in: root) == ["light"])
            #expect(root.entries == ["schemas"])
            try root.prefs("write", "other", "k", "v").requireSuccess()
            let before = root.entries
            #expect(offered(["prefs", "read", "other", ""], in: root) == ["k"])
            #expect(root.entries == before)
        }
    }

    @Test func completingCreatesNothing() throws {
        try withTestRoot { root throws in
            _ = offered(["prefs", "read", ""], in: root)
            #expect(root.entries.isEmpty)
        }
    }
}
