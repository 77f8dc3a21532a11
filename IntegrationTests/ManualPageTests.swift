import Foundation
import PackageTestSupport
import Testing

/// The man page that `prefs man` prints renders without a warning, and `docs/prefs.1` is that page.
@Suite struct ManualPageTests {
    @Test func rendersWithManWithoutWarnings() throws {
        try withTemporaryRoot { root throws in
            let page = try Launcher(root: root).prefs("man")
            #expect(page.succeeded && page.error.isEmpty)
            let file = root.appendingPathComponent("prefs.1")
            try Data(page.output.utf8).write(to: file)
            let man = URL(fileURLWithPath: "/usr/bin/man")
            try #require(FileManager.default.isExecutableFile(atPath: man.path), "man is not installed: apt-get install man-db")
            var environment = ProcessInfo.processInfo.environment
            environment["MANWIDTH"] = "80"
            environment["MAN_KEEP_FORMATTING"] = nil
            let rendered = try PackageTestSupport.run(
                executable: man, ["--warnings", "-E", "UTF-8", "-l", file.path], environment: environment)
            #expect(rendered.succeeded)
            #expect(rendered.error.isEmpty, "\(rendered.error)")
            for heading in ["NAME", "SYNOPSIS", "OPTIONS", "VERBS", "EXIT STATUS"] {
                #expect(rendered.output.contains("\n\(heading)\n"), "\(heading)")
            }
            #expect(rendered.output.contains("prune --prefix <prefix> (--older-than <duration> | --any-age) [--dry-run]"))
        }
    }

    /// `docs/prefs.1` is the page `prefs man` prints; after a change of the help, regenerate it with
    /// `swift run prefs man > docs/prefs.1`.
    @Test func theCommittedPageIsTheGeneratedOne() throws {
        try withTemporaryRoot { root throws in
            let committed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("docs/prefs.1")
            let generated = try Launcher(root: root).prefs("man").output
            #expect(
                try String(contentsOf: committed, encoding: .utf8) == generated,
                "docs/prefs.1 is stale: run `swift run prefs man > docs/prefs.1`")
        }
    }
}
