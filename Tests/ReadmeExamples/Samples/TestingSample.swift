// README: testing
import LayeredDefaults
import LayeredDefaultsTesting
import Testing
import ThemePreferences
import ThemePreferencesTesting

@Test func savingTheTheme() throws {
    try withIsolatedDefaults { defaults, suiteName in  // a fresh domain in a temporary directory
        try ThemePreferences(defaults: defaults).save(.dark)
        #expect(try defaults.persistentValues() == ["theme": "dark"])
    }  // the directory is gone, even if the body threw
}

@Test func aLaunchArgumentWins() throws {
    try withInMemoryDefaults(arguments: ["app", "-theme", "light"]) { defaults, _ in
        try ThemePreferences(defaults: defaults).save(.dark)
        #expect(ThemePreferences(defaults: defaults).theme == .light)
    }
}

@Test func everyChangeIsAsserted() throws {
    try withIsolatedDefaults { defaults, _ in
        let recorder = try DefaultsRecorder(defaults)
        defer { recorder.finish() }  // an unasserted change fails the test here
        let preferences = ThemePreferences(defaults: defaults)
        try recorder.assert(during: { try preferences.save(.dark) }) { $0["theme"] = "dark" }
        try recorder.assert(during: { try preferences.reset() }) { $0["theme"] = nil }
    }
}

@Test func aFeatureThatOnlyLoads() {
    var client = ThemeClient.unimplemented  // every closure fails the test, naming itself
    client.load = { .dark }  // override what the test expects to be called
    #expect(client.load() == .dark)
}
// END README
