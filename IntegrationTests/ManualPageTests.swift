import Foundation
import PackageTestSupport
import Testing

/// The man page that `prefs man` prints renders without a warning, `docs/prefs.1` is that page, and
/// `prefs man --install` puts it where `man prefs` finds it.
@Suite struct ManualPageTests {
    @Test(.needs(.man)) func rendersWithManWithoutWarnings() throws {
        try withTemporaryRoot { root throws in
            let page = try Launcher(root: root).prefs("man")
            #expect(page.succeeded && page.error.isEmpty)
            let file = root.appendingPathComponent("prefs.1")
            try Data(page.output.utf8).write(to: file)
            var environment = ProcessInfo.processInfo.environment
            environment["MANWIDTH"] = "80"
            environment["MAN_KEEP_FORMATTING"] = nil
            let rendered = try PackageTestSupport.run(
                executable: try ExternalTool.man.executable(), ["--warnings", "-E", "UTF-8", "-l", file.path],
                environment: environment)
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
            let generated = try Launcher(root: root).prefs("man").output
            #expect(
                try String(contentsOf: PackageFiles.url("docs/prefs.1"), encoding: .utf8) == generated,
                "docs/prefs.1 is stale: run `swift run prefs man > docs/prefs.1`")
        }
    }

    /// An environment of `home` alone: its `HOME`, the `PATH` a user with `~/.local/bin` has, no
    /// `MANPATH` and no `XDG_DATA_HOME` (unless given), and the domains in `home` too.
    private func environment(home: URL, dataHome: URL? = nil) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["PATH"] = home.appendingPathComponent(".local/bin").path + ":/usr/bin:/bin"
        environment["MANPATH"] = nil
        environment["XDG_DATA_HOME"] = dataHome?.path
        environment["LAYERED_DEFAULTS_HOME"] = home.appendingPathComponent("domains").path
        environment["MANWIDTH"] = "80"
        return environment
    }

    /// Runs `prefs man --install` (and `extra`) in `environment`.
    private func install(_ environment: [String: String], _ extra: String...) throws -> ProcessResult {
        try PackageTestSupport.run("prefs", ["man", "--install"] + extra, environment: environment)
    }

    /// Installed into a home of its own, the page is what `prefs man` prints, at
    /// `~/.local/share/man/man1/prefs.1`, and `man prefs` finds it there and renders it (man-db maps
    /// `~/.local/bin` on the `PATH` to it), as `prefs man --help` says.
    @Test(.needs(.man)) func theInstalledPageIsFoundByMan() throws {
        try withTemporaryRoot { home throws in
            let environment = environment(home: home)
            let installed = try install(environment)
            let page = home.appendingPathComponent(".local/share/man/man1/prefs.1")
            #expect(installed.succeeded && installed.error.isEmpty, "\(installed.error)")
            #expect(installed.output == page.path + "\n")
            #expect(try String(contentsOf: page, encoding: .utf8) == (try PackageTestSupport.run("prefs", ["man"]).output))
            let man = try ExternalTool.man.executable()
            let found = try PackageTestSupport.run(executable: man, ["-w", "prefs"], environment: environment)
            #expect(found.succeeded && found.output == page.path + "\n", "\(found.error)")
            let rendered = try PackageTestSupport.run(executable: man, ["-E", "UTF-8", "prefs"], environment: environment)
            #expect(rendered.succeeded && rendered.output.contains("prefs - read and write LayeredDefaults preference domains"))
        }
    }

    /// With `$XDG_DATA_HOME`, the page goes to its `man/man1`; `man` finds it with that directory in
    /// `MANPATH`, as `prefs man --help` says.
    @Test(.needs(.man)) func anotherDataHomeIsFoundThroughMANPATH() throws {
        try withTemporaryRoot { home throws in
            let data = home.appendingPathComponent("data")
            var environment = environment(home: home, dataHome: data)
            let installed = try install(environment, "--json")
            let page = data.appendingPathComponent("man/man1/prefs.1")
            #expect(installed.succeeded)
            #expect(installed.output == #"{"installed":"\#(page.path)"}"# + "\n")
            environment["MANPATH"] = data.appendingPathComponent("man").path + ":"
            let found = try PackageTestSupport.run(
                executable: try ExternalTool.man.executable(), ["-w", "prefs"], environment: environment)
            #expect(found.succeeded && found.output == page.path + "\n", "\(found.error)")
        }
    }

    /// Where neither `MANPATH` nor a `bin` directory of the `PATH` leads `man` to the page, the install
    /// says so and what to run, and `man` indeed does not find it until that is done.
    @Test(.needs(.man)) func anInstallThatManWouldNotFindSaysWhatToDo() throws {
        try withTemporaryRoot { home throws in
            var environment = environment(home: home)
            environment["PATH"] = "/usr/bin:/bin"
            let installed = try install(environment)
            let directory = home.appendingPathComponent(".local/share/man")
            #expect(installed.succeeded && installed.output == directory.appendingPathComponent("man1/prefs.1").path + "\n")
            #expect(
                installed.error
                    == "prefs: warning: `man prefs` will not find it: MANPATH and PATH name no such man directory; run export MANPATH=\"\(directory.path):\" (e.g. in your shell's profile), or use `man -l \(directory.path)/man1/prefs.1`\n"
            )
            let man = try ExternalTool.man.executable()
            #expect(try PackageTestSupport.run(executable: man, ["-w", "prefs"], environment: environment).succeeded == false)
            environment["MANPATH"] = directory.path + ":"
            #expect(try PackageTestSupport.run(executable: man, ["-w", "prefs"], environment: environment).succeeded)
            #expect(try install(environment).error.isEmpty, "found now: nothing to say")
        }
    }

    /// A page an earlier install wrote (of another version) is replaced, mode 0644; a file that is not
    /// one, or a link, is left as it was and refused (exit status 2), naming the path.
    @Test func anInstallReplacesAnEarlierPageAndNothingElse() throws {
        try withTemporaryRoot { home throws in
            let environment = environment(home: home)
            let page = home.appendingPathComponent(".local/share/man/man1/prefs.1")
            try FileManager.default.createDirectory(at: page.deletingLastPathComponent(), withIntermediateDirectories: true)
            let earlier = #".\" prefs.1, generated by `prefs man` from an older version"# + "\n.TH PREFS 1\n"
            try Data(earlier.utf8).write(to: page)
            #expect(try install(environment).succeeded)
            #expect(try String(contentsOf: page, encoding: .utf8) == (try PackageTestSupport.run("prefs", ["man"]).output))
            #expect(try FileManager.default.attributesOfItem(atPath: page.path)[.posixPermissions] as? Int == 0o644)

            for other in ["someone else's page\n", ""] {
                try Data(other.utf8).write(to: page)
                let refused = try install(environment)
                #expect(
                    refused.status == 2
                        && refused.errorLines == [
                            "prefs: '\(page.path)' is not a manual page that `prefs man` wrote; nothing was written: move it away first"
                        ])
                #expect(try String(contentsOf: page, encoding: .utf8) == other)
            }
            try FileManager.default.removeItem(at: page)
            let target = home.appendingPathComponent("elsewhere.1")
            try Data(earlier.utf8).write(to: target)
            try FileManager.default.createSymbolicLink(at: page, withDestinationURL: target)
            #expect(try install(environment).status == 2)
            #expect(try String(contentsOf: target, encoding: .utf8) == earlier, "the link's target is untouched")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: page.path) == target.path)
        }
    }
}
