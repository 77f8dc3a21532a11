import LayeredDefaults
import LayeredDefaultsTesting
import Testing

/// The README's migration sample, run on a store of its own.
@Suite struct MigrationSample {
    @Test func migrationsRunOnce() throws {
        try withInMemoryDefaults { defaults, _ in
            try defaults.write(true, forKey: "darkMode")
            try defaults.write("Ada", forKey: "name")
            // README: migrations
            try defaults.migrate(.named("2-theme-enum")) { domain in
                if case .bool(true)? = try domain.value(forKey: "darkMode") { try domain.set("dark", forKey: "theme") }
                try domain.set(nil, forKey: "darkMode")
            }
            try defaults.migrate("3-rename") { try $0.renameKey("name", to: "displayName") }
            // END README
            #expect(try defaults.persistentValues() == ["theme": "dark", "displayName": "Ada"])
            #expect(try defaults.appliedMigrations() == ["2-theme-enum", "3-rename"])
        }
    }
}
