import Foundation
import LayeredDefaults
import PackageTestSupport
import Testing

/// A schema one process installs is what another process's `prefs` reads: `theme-demo` installs its
/// schema at launch, and `prefs` in a process of its own refuses writes outside it and describes it.
@Suite struct SchemaProcessTests {
    @Test func prefsReadsTheSchemaThemeDemoInstalled() throws {
        try withTemporaryRoot { root throws in
            let launcher = Launcher(root: root)
            let suite = uniqueSuite("prefsReadsTheSchemaThemeDemoInstalled")
            #expect(try launcher.prefs("write", suite, "theme", "-string", "neon").succeeded, "no schema yet: as today")
            #expect(try launcher.prefs("delete", suite, "theme").succeeded)

            let show = try launcher.themeDemo(suite: suite, "show")
            try #require(show.succeeded, "\(show.error)")
            #expect(show.output == "system\n" && show.error.isEmpty)
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("schemas/\(suite).json").path))

            let refused = try launcher.prefs("write", suite, "theme", "-string", "neon")
            #expect(refused.status == 2)
            #expect(
                refused.error
                    == "prefs: Cannot store the value for key 'theme' in domain '\(suite)': the key accepts a string, one of system, light, dark; nothing was changed\n"
            )
            #expect(try launcher.prefs("exists", suite, "theme").status == 1, "nothing changed")

            let described = try launcher.prefs("describe", suite, "theme")
            #expect(described.succeeded)
            #expect(described.output.contains("accepts: a string, one of system, light, dark\ndefault: system\nset: no\n"))
            #expect(try launcher.prefs("read", suite, "theme").output == "system\n")

            #expect(try launcher.prefs("write", suite, "theme", "dark").succeeded)
            #expect(try launcher.themeDemo(suite: suite, "show").output == "dark\n")
            #expect(try launcher.prefs("reset", suite, "theme").succeeded)
            #expect(try launcher.themeDemo(suite: suite, "show").output == "system\n")
        }
    }
}
