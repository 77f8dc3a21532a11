import Foundation
import LayeredDefaults
import Testing

@testable import prefs

/// What `prefs` says when it fails: one line starting with `prefs:`, in the command line's words, or
/// with `--json` one JSON object.
@Suite struct MessageTests {
    @Test func everyErrorLineStartsWithPrefs() throws {
        try withTestRoot { root throws in
            try root.prefs("write", "app", "k", "v").requireSuccess()
            for arguments in [
                ["read", "app", "absent"], ["read", "absent"], ["read-type", "app", "absent"], ["delete", "absent"],
                ["rename", "app", "absent", "b"], ["export", "absent", "-"], ["find", "nothing-here"], ["frob"],
                ["read", "a/b"], ["write", "app", "", "v"],
            ] {
                let result = root.prefs(arguments)
                #expect(result.status != .success, "\(arguments)")
                #expect(result.errorLines.count == 1 && result.errorLines[0].hasPrefix("prefs: "), "\(arguments)")
            }
        }
    }

    /// The command line says "domain" where the library says "suite".
    @Test func theToolSaysDomain() throws {
        try withTestRoot { root throws in
            #expect(
                root.prefs("read", "a/b").errorLines == [
                    #"prefs: Invalid domain name "a/b": use 1-128 letters, digits, '.', '-' or '_', not '.' or '..'"#
                ])
            #expect(
                root.prefs("write", "app", "", "v").errorLines == [
                    "prefs: Invalid key in domain 'app': a key must not be empty, nor hold more than 30 combining marks in a row"
                ])
            // NB: only the phrase naming the error's own domain changes; a key may say "suite".
            #expect(
                PrefsError.domainWording(of: .invalidKey(suite: "suite 'x'"))
                    == "Invalid key in domain 'suite 'x'': a key must not be empty, nor hold more than 30 combining marks in a row"
            )
        }
    }

    @Test func withJSONErrorsAreObjectsOnStandardError() throws {
        try withTestRoot { root throws in
            let missing = root.prefs("--json", "read", "app", "k")
            #expect(missing.status == .notFound && missing.output.isEmpty)
            #expect(missing.errorLines == [#"{"error":"The domain/default pair of (app, k) does not exist","status":1}"#])
            let usage = root.prefs("frob", "--json")
            #expect(usage.errorLines == [#"{"error":"unknown verb 'frob'; run 'prefs --help'","status":2}"#])
            let badOption = root.prefs("--json", "--frob")
            #expect(badOption.errorLines == [#"{"error":"unknown option '--frob'; run 'prefs --help'","status":2}"#])
            try FileManager.default.createDirectory(
                at: root.url.appendingPathComponent("it.dir.sqlite3"), withIntermediateDirectories: true)
            let warning = root.prefs("--json", "prune", "--prefix", "it.dir", "--any-age")
            #expect(warning.status == .success && warning.output == #"{"deleted":[],"dryRun":false}"# + "\n")
            let path = root.url.appendingPathComponent("it.dir.sqlite3").path
            #expect(warning.errorLines == [#"{"warning":"skipped it.dir: '\#(path)' is not a regular file"}"#])
        }
    }

    /// A value written as a string is still one: `--json` after a type flag is the value, and errors
    /// stay text.
    @Test func jsonAfterATypeFlagIsAValue() throws {
        try withTestRoot { root throws in
            try root.prefs("write", "app", "k", "-string", "--json").requireSuccess()
            #expect(try root.stored("app") == ["k": "--json"])
            #expect(root.prefs("read", "app", "absent").errorLines.first?.hasPrefix("prefs: The domain") == true)
        }
    }
}
