import Foundation
import LayeredDefaults
import PackageTestSupport
import Testing

/// The theme survives a restart: each phase is a new process of `theme-demo`; `prefs` inspects the store.
@Suite struct ThemePersistenceTests {
    /// A test's suite, root and report.
    struct Scenario {
        let suite: String
        let launcher: Launcher
        let report: FailureReport

        init(_ test: String, root: URL) {
            suite = uniqueSuite(test)
            launcher = Launcher(root: root)
            report = FailureReport(
                test: test, app: "theme-demo", suite: suite, key: "theme", expectedFallback: "system", launcher: launcher)
        }

        func demo(_ arguments: String...) throws -> ProcessResult {
            try launcher.run("theme-demo", ["--suite", suite] + arguments)
        }

        /// True when the persistent domain holds a theme, asked of `prefs exists` in another process.
        func themeIsStored() throws -> Bool? {
            let result = try launcher.prefs("exists", suite, "theme")
            return result.signaled ? nil : [0: true, 1: false][result.status]
        }

        /// The suite's domain as `prefs export` writes it, to compare before and after (never printed).
        func export() throws -> String? {
            let result = try launcher.prefs("export", suite, "-", "--format", "json")
            return result.succeeded ? result.output : nil
        }
    }

    @Test func writeReadAndCleanupPhases() throws {
        try withTemporaryRoot { root throws in
            let scenario = Scenario("writeReadAndCleanupPhases", root: root)
            let neighbour = uniqueSuite("neighbour")
            try scenario.launcher.prefs("write", neighbour, "theme", "light")
            try scenario.launcher.prefs("write", "-g", "shared", "-int", "1")

            // Write phase: set, read back through the app's interface, exit 0.
            scenario.report.expectShows("dark", try scenario.demo("set", "dark"), "write phase")
            let stored = try scenario.export()

            // Read phase: a new process that does not write.
            scenario.report.expectShows("dark", try scenario.demo("show"), "read phase")
            let unchanged = try scenario.export() == stored && stored != nil
            scenario.report.expect(unchanged, "read phase: the domain must not change")

            // Cleanup phase: removes only this suite's domain.
            let prune = try scenario.launcher.prefs("prune", "--prefix", scenario.suite, "--any-age")
            scenario.report.expect(prune.succeeded && prune.output == "Deleted \(scenario.suite)\n", "cleanup phase: prune")
            let files = try FileManager.default.contentsOfDirectory(atPath: root.path)
            scenario.report.expect(
                !files.contains { $0.hasPrefix(scenario.suite) }, "cleanup phase: no file of the suite is left")
            let neighbourKept =
                try scenario.launcher.prefs("read", neighbour, "theme").output == "light\n"
                && (try scenario.launcher.prefs("read", "-g", "shared").output == "1\n")
            scenario.report.expect(neighbourKept, "cleanup phase: other domains are untouched")
            scenario.report.expectShows("system", try scenario.demo("show"), "after cleanup")
            scenario.report.expect(try scenario.themeIsStored() == false, "after cleanup: no theme is stored")
        }
    }

    @Test func defaultPhaseShowsSystemAndStoresNothing() throws {
        try withTemporaryRoot { root throws in
            let scenario = Scenario("defaultPhaseShowsSystemAndStoresNothing", root: root)
            scenario.report.expectShows("system", try scenario.demo("show"), "default phase")
            scenario.report.expect(try scenario.themeIsStored() == false, "default phase: the persistent domain holds no theme")
            let domains = try scenario.launcher.prefs("domains").output
            scenario.report.expect(!domains.contains(scenario.suite), "default phase: showing makes no file")
        }
    }

    @Test func removalSurvivesRestarts() throws {
        try withTemporaryRoot { root throws in
            let scenario = Scenario("removalSurvivesRestarts", root: root)
            scenario.report.expectShows("dark", try scenario.demo("set", "dark"), "write")
            scenario.report.expectShows("dark", try scenario.demo("show"), "restart after write")
            scenario.report.expectShows("system", try scenario.demo("reset"), "reset")
            scenario.report.expectShows("system", try scenario.demo("show"), "restart after reset")
            scenario.report.expect(
                try scenario.themeIsStored() == false, "after reset: the key is absent from the persistent domain")
        }
    }

    @Test func anArgumentOverridesForOneLaunchOnly() throws {
        try withTemporaryRoot { root throws in
            let scenario = Scenario("anArgumentOverridesForOneLaunchOnly", root: root)
            scenario.report.expectShows("dark", try scenario.demo("set", "dark"), "store dark")
            let stored = try scenario.export()
            scenario.report.expectShows("light", try scenario.demo("show", "-theme", "light"), "launch with -theme light")
            let unchanged = try scenario.export() == stored && stored != nil
            scenario.report.expect(unchanged, "launch with -theme light: what is stored does not change")
            scenario.report.expectShows("dark", try scenario.demo("show"), "next launch without the argument")
        }
    }

    @Test(arguments: ["purple", "DARK", ""])
    func anUnknownThemeIsRefusedAndChangesNothing(theme: String) throws {
        try withTemporaryRoot { root throws in
            let scenario = Scenario("anUnknownThemeIsRefusedAndChangesNothing", root: root)
            scenario.report.expectShows("light", try scenario.demo("set", "light"), "store light")
            let refused = try scenario.demo("set", theme)
            scenario.report.expect(
                refused.status == 2 && refused.errorLines.count == 1 && refused.output.isEmpty, "set an unknown theme")
            scenario.report.expectShows("light", try scenario.demo("show"), "after the refused set")
        }
    }

    @Test func versionIsPrinted() throws {
        try withTemporaryRoot { root throws in
            let result = try Launcher(root: root).run("theme-demo", ["--version"])
            #expect(result.succeeded && result.output == "theme-demo \(Defaults.packageVersion)\n")
            #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).isEmpty, "--version opens no store")
        }
    }
}
