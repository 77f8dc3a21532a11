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

    /// The mode of the file or directory at `path`.
    func mode(_ path: URL) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: path.path)[.posixPermissions] as? Int
    }

    /// `prefs --system install-schema` makes every user's schema readable by every user whatever its
    /// umask (directories 0755, the file 0644; under 077 they were 0700, so other users' `keys` and
    /// `describe` failed); the user's stays private (0700, 0600) whatever the umask.
    @Test(arguments: ["077", "000"])
    func installedSchemaFilesHaveTheirModesWhateverTheUmask(umask: String) throws {
        try withTemporaryRoot { root throws in
            let launcher = Launcher(root: root.appendingPathComponent("domains"))
            let file = root.appendingPathComponent("schema.json")
            try PreferenceSchema(
                suiteName: "app", version: 1, entries: [.init(name: "k", type: .string, defaultValue: nil, summary: "A key")]
            ).jsonData().write(to: file)
            let system = root.appendingPathComponent("xdg")
            for layer in ["--system", "--root=\(launcher.root.path)"] {
                let result = try launcher.shell(
                    #"umask "$1" && XDG_CONFIG_DIRS="$2" exec "$PREFS" "$3" install-schema "$4""#, umask, system.path, layer,
                    file.path)
                #expect(result.succeeded && result.output == "installed\n", "\(layer): \(result.errorLines)")
            }
            let shared = system.appendingPathComponent("layered-defaults")
            #expect(try mode(system) == 0o755 && mode(shared) == 0o755)
            #expect(try mode(shared.appendingPathComponent("schemas")) == 0o755)
            #expect(try mode(shared.appendingPathComponent("schemas/app.json")) == 0o644)
            #expect(try mode(shared.appendingPathComponent("schemas/.app.json.lock")) == 0o644, "the installs' lock too")
            #expect(try mode(launcher.root) == 0o700 && mode(launcher.root.appendingPathComponent("schemas")) == 0o700)
            #expect(try mode(launcher.root.appendingPathComponent("schemas/app.json")) == 0o600)
        }
    }
}
