import LayeredDefaults
import LayeredDefaultsTesting
import Testing
import ThemePreferences  // ThemePreferences: needs the ThemePreferences product
import ThemePreferencesTesting  // ThemeClient.unimplemented(): needs the ThemePreferencesTesting product

extension Defaults.Key<Int> { static let tabWidth = Defaults.Key("tabWidth", default: 4) }

/// Code under test that reaches for `Defaults.standard` through a default argument.
struct Settings {
    var defaults: Defaults = .standard
    func save(tabWidth: Int) throws { try defaults.write(tabWidth, for: .tabWidth) }
}

@Test(.isolatedDefaults) func savingTheTabWidth() throws {
    try Settings().save(tabWidth: 2)  // Defaults.standard is this test's own store
    #expect(Defaults.standard[.tabWidth] == 2)
}

@Test(.isolatedDefaults) func everyChangeIsAsserted() throws {
    let recorder = try DefaultsRecorder(.standard)
    defer { recorder.finish() }  // an unasserted change fails the test here
    try recorder.assert(during: { try ThemePreferences().save(.dark) }) { $0[ThemePreferences.key] = .dark }
    try recorder.assert(during: { try Settings().save(tabWidth: 2) }) { $0[.tabWidth] = 2 }
}

@Test func aFeatureThatOnlyLoads() {
    var theme = ThemeClient.unimplemented()  // a closure not overridden fails the test here, then throws
    theme.load = { .dark }
    #expect(theme.load() == .dark)
}
