import Foundation
import LayeredDefaults
import PackageTestSupport
import Testing

/// The README's tour blocks, built as they are pasted (an executable each), run in a temporary root:
/// each does what its comments say.
@Suite struct ReadmeSampleRunTests {
    /// The environment of a sample: this process's, with the store's root at `root` and no system
    /// directory that exists.
    private static func environment(root: URL) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["LAYERED_DEFAULTS_HOME"] = root.path
        environment["XDG_CONFIG_DIRS"] = root.appendingPathComponent("no-system-directory").path
        return environment
    }

    /// Runs the sample `product` with its store's root at `root`, in `root` as its working directory, and
    /// requires it to succeed.
    @discardableResult
    private static func runSample(_ product: String, root: URL) throws -> ProcessResult {
        // NB: through the shell, for its working directory.
        let result = try run(
            executable: URL(fileURLWithPath: "/bin/sh"),
            ["-c", #"cd "$1" && exec "$2""#, "sh", root.path, BuiltProducts.url(of: product).path],
            environment: environment(root: root))
        try #require(result.succeeded, "\(product) failed (status \(result.status)): \(result.error)")
        return result
    }

    /// The sample's store, `com.example.app` in `root`.
    private static func store(root: URL) throws -> Defaults {
        try Defaults(suiteName: "com.example.app", configuration: .init(location: .directory(root), arguments: []))
    }

    @Test func theTourWritesUpdatesAndRemoves() throws {
        try withTemporaryRoot { root in
            #expect(try Self.runSample("readme-tour", root: root).output.isEmpty)
            #expect(try Self.store(root: root).persistentValues() == ["launchCount": 1, "displayName": "Ada"])
            try Self.runSample("readme-tour", root: root)  // the next process counts on
            #expect(try Self.store(root: root).persistentValues() == ["launchCount": 2, "displayName": "Ada"])
        }
    }

    @Test func theSchemaSampleInstallsItsSchemaAndResets() throws {
        try withTemporaryRoot { root in
            #expect(try Self.runSample("readme-schemas", root: root).output.isEmpty)
            let schema = try #require(
                try Defaults.installedSchema(suiteName: "com.example.app", location: .directory(root), systemDirectories: []))
            #expect(schema.keys.map(\.name) == ["appearance", "fontSize"])
            #expect(schema.entry(named: "appearance")?.accepted == .choices(["system", "light", "dark"]))
            #expect(schema.entry(named: "fontSize")?.acceptedPhrase == "an integer from 6 to 72")
            #expect(try Self.store(root: root).persistentValues().isEmpty, "the 14 was reset, the 100 refused")
        }
    }

    @Test func theTypedKeysStoreWhatTheirCommentsSay() throws {
        try withTemporaryRoot { root in
            let start = Date()
            #expect(try Self.runSample("readme-typedkeys", root: root).output.isEmpty)
            var values = try Self.store(root: root).persistentValues()
            let lastOpened = values.removeValue(forKey: "lastOpened")
            #expect(
                values == [
                    "fontSize": 14, "appearance": "dark", "editorFont": #"{"family":"Courier","size":15}"#,
                    "recentFiles": ["notes.md"],
                ])
            let opened: Date? = if case .date(let date)? = lastOpened { date } else { nil }
            let date = try #require(opened)
            #expect(date >= start.addingTimeInterval(-1) && date <= Date())
        }
    }

    @Test func theMigrationsRunOnce() throws {
        try withTemporaryRoot { root in
            try Self.store(root: root).transaction { domain in
                try domain.write(true, forKey: "darkMode")
                try domain.write("Ada", forKey: "name")
            }
            try Self.runSample("readme-migrations", root: root)
            let defaults = try Self.store(root: root)
            #expect(try defaults.persistentValues() == ["theme": "dark", "displayName": "Ada"])
            #expect(try defaults.appliedMigrations() == ["2-theme-enum", "3-rename"])

            try defaults.write(true, forKey: "darkMode")
            try Self.runSample("readme-migrations", root: root)  // a later launch: nothing runs again
            #expect(try defaults.persistentValues() == ["theme": "dark", "displayName": "Ada", "darkMode": true])
        }
    }

    @Test func theObservationStartsWithTheCurrentValue() throws {
        try withTemporaryRoot { root in
            #expect(try Self.runSample("readme-observation", root: root).output == "font size: 12\n")
            try Self.store(root: root).write(14, forKey: "fontSize")
            #expect(try Self.runSample("readme-observation", root: root).output == "font size: 14\n")
        }
    }
}
