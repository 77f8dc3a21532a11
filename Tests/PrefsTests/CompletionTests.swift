import Foundation
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
            #expect(offered(["prefs", "re"], in: root) == ["read", "read-type", "rename", "repair", "reset", "restore"])
            #expect(offered(["prefs", "--json", "ex"], in: root) == ["exists", "export"])
            #expect(offered(["prefs", "help", "co"], in: root) == ["completions"])
            #expect(offered(["prefs", ""], in: root).count == Prefs.commands.count + 1)
        }
    }

    @Test func domainsFromTheStore() throws {
        try withTestRoot { root throws in
            try root.prefs("write", "com.example.a", "k", "v").requireSuccess()
            try root.prefs("write", "com.example.b", "k", "v").requireSuccess()
            try root.prefs("write", "org.other", "k", "v").requireSuccess()
            #expect(offered(["prefs", "read", "com."], in: root) == ["com.example.a", "com.example.b"])
            #expect(offered(["prefs", "write", ""], in: root) == ["-g", "com.example.a", "com.example.b", "org.other"])
            #expect(offered(["prefs", "read", "com.example.a", ""], in: root).isEmpty, "a key is not completed")
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
            #expect(result.output.split(separator: "\n").count == Prefs.commands.count + 1, "the verbs")
        }
    }

    @Test func completingCreatesNothing() throws {
        try withTestRoot { root throws in
            _ = offered(["prefs", "read", ""], in: root)
            #expect(root.entries.isEmpty)
        }
    }
}
