import Foundation
import LayeredDefaults
import ThemePreferences

/// `theme-demo`: a tiny app that keeps its colour theme with ``ThemePreferences`` over ``Defaults``, for
/// the two-process tests and the persistence scripts.
///
/// ```sh
/// theme-demo set dark            # stores "dark", prints the theme read back: dark
/// theme-demo show                # dark (in a new process)
/// theme-demo show -theme light   # light: the argument domain wins; nothing stored changes
/// theme-demo reset               # removes the stored theme, prints: system
/// ```
/// Each run installs the theme's schema (`<root>/schemas/<suite>.json`), as an app does at launch.
/// Exit status: 0 success, 2 usage error, 3 storage error (one line on standard error).
@main
enum ThemeDemo {
    /// The app's version, printed by `--version` and reported by failing tests: the package's.
    static let version = Defaults.packageVersion

    /// The text of `theme-demo --help`.
    static let usage = """
        usage: theme-demo [--suite <name>] [--root <dir>] <command> [-theme <theme>]
          set <theme> [--wait-after-write]   store system, light or dark; print the theme read back
          show                               print the theme (stored, or overridden by -theme <theme>)
          reset                              remove the stored theme; print the theme read back
          --version                          print the version
        --suite <name>   the suite (default com.example.theme-demo)
        --root <dir>     the directory of the domains (else $LAYERED_DEFAULTS_HOME, $XDG_CONFIG_HOME/layered-defaults, ~/.config/layered-defaults)
        --wait-after-write   after the write returned, print "saved <theme>" and wait to be killed (for crash tests)
        """

    /// Runs the command line of this process: one command, then exits (0 success, 2 usage, 3 storage).
    static func main() {
        let options: DemoOptions
        do {
            options = try DemoOptions(parsing: Array(CommandLine.arguments.dropFirst()))
        } catch {
            fail(error.message, status: 2)
        }
        if options.help { return say(usage) }
        if options.version { return say("theme-demo \(version)") }

        let location: Location = options.root.map { .directory(URL(fileURLWithPath: $0, isDirectory: true)) } ?? .default
        let preferences: ThemePreferences
        do {
            // The real launch arguments: `-theme light` lands in the argument domain.
            preferences = ThemePreferences(
                defaults: try Defaults(
                    suiteName: options.suite, configuration: .init(location: location, arguments: CommandLine.arguments)))
        } catch let error as DefaultsError {
            if case .invalidSuiteName = error { fail("\(error)", status: 2) }
            fail("\(error)", status: 3)
        } catch {
            fail("unexpected \(type(of: error))", status: 3)
        }

        // NB: as an app does at launch: `prefs keys`, `describe` and refused writes read the installed schema.
        // A schema that cannot be installed is said, and the app goes on: its own reads never need it.
        do {
            try Defaults.Domain(options.suite, location: location).installSchema(
                ThemePreferences.schema(suiteName: options.suite))
        } catch {
            FileHandle.standardError.write(Data("theme-demo: cannot install the schema: \(error)\n".utf8))
        }

        do {
            switch (options.positionals.first, options.positionals.count) {
            case ("set", 2):
                guard let theme = Theme(rawValue: options.positionals[1]) else {
                    fail("unknown theme; use \(Theme.allCases.map(\.rawValue).joined(separator: ", "))", status: 2)
                }
                try preferences.save(theme)
                if options.waitAfterWrite {
                    say("saved \(theme.rawValue)")
                    while true { sleep(60) }  // until killed
                }
                say(preferences.theme.rawValue)
            case ("show", 1):
                say(preferences.theme.rawValue)
            case ("reset", 1):
                try preferences.reset()
                say(preferences.theme.rawValue)
            default:
                fail("expected set <theme>, show or reset; run 'theme-demo --help'", status: 2)
            }
        } catch {
            fail("\(error)", status: 3)
        }
    }

    /// Writes one line to standard output at once (a parent may be waiting for it).
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Writes one line to standard error and exits with `status`.
    static func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data("theme-demo: \(message)\n".utf8))
        exit(status)
    }
}
