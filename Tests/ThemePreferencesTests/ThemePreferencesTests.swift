import Foundation
import LayeredDefaults
import LayeredDefaultsTesting
import PackageTestSupport
import Testing
import ThemePreferences

@Suite struct ThemePreferencesTests {
    static let fallbackTable: [(PreferenceValue?, Theme)] = [
        (nil, .system), (.array(["dark"]), .system), (.integer(1), .system), (.double(2), .system), (.bool(true), .system),
        (.string("purple"), .system), (.string("DARK"), .system), (.string(""), .system), (.data(Data("dark".utf8)), .system),
        (.string("system"), .system), (.string("light"), .light), (.string("dark"), .dark),
    ]

    @Test(arguments: fallbackTable)
    func storedValuesReadAsATheme(stored: PreferenceValue?, expected: Theme) throws {
        let errors = ReportedErrors()
        let defaults = try Defaults(
            suiteName: "theme.test", configuration: .init(location: .inMemory, arguments: [], errorHandler: errors.record))
        try defaults.write(stored, forKey: ThemePreferences.key.name)
        #expect(ThemePreferences(defaults: defaults).theme == expected)
        let isATheme = stored.map { Theme(preferenceValue: $0) != nil } ?? true
        // NB: the key's own entry (its cases, as strings) refuses what is not a theme before it is converted.
        let refusal = DefaultsError.storedValueNotAccepted(
            suite: "theme.test", key: "theme", accepts: "a string, one of system, light, dark")
        #expect(errors.all == (isATheme ? [] : [refusal]))
    }

    @Test func creatingNeverWrites() throws {
        let defaults = try Defaults(suiteName: "theme.test", configuration: .init(location: .inMemory, arguments: []))
        _ = ThemePreferences(defaults: defaults)
        #expect(try defaults.persistentValues().isEmpty)
        #expect(try ThemePreferences(defaults: defaults).storedTheme == nil)
    }

    @Test func saveStoresTheRawStringAndResetRemovesIt() throws {
        let defaults = try Defaults(suiteName: "theme.test", configuration: .init(location: .inMemory, arguments: []))
        let preferences = ThemePreferences(defaults: defaults)
        try preferences.save(.dark)
        #expect(try defaults.persistentValues() == ["theme": "dark"])
        #expect(preferences.theme == .dark)
        try preferences.reset()
        #expect(preferences.theme == .system)
        #expect(try defaults.persistentValues()["theme"] == nil, "the registered default is not a stored value")
    }

    @Test func recreatingTheWrapperKeepsTheStoredChoice() throws {
        let defaults = try Defaults(suiteName: "theme.test", configuration: .init(location: .inMemory, arguments: []))
        try ThemePreferences(defaults: defaults).save(.light)
        #expect(ThemePreferences(defaults: defaults).theme == .light)
        #expect(try defaults.persistentValues() == ["theme": "light"])
    }

    @Test func anArgumentOverridesTheStoredThemeForThisProcessOnly() throws {
        try withTemporaryRoot { root in
            let stored = try Defaults(suiteName: "app", configuration: .init(location: .directory(root), arguments: []))
            try ThemePreferences(defaults: stored).save(.dark)
            let launched = try Defaults(
                suiteName: "app", configuration: .init(location: .directory(root), arguments: ["app", "-theme", "light"]))
            #expect(ThemePreferences(defaults: launched).theme == .light)
            #expect(try ThemePreferences(defaults: launched).storedTheme == .dark)
            #expect(ThemePreferences(defaults: stored).theme == .dark)
        }
    }
}

@Suite(.isolatedDefaults) struct ThemePreferencesIsolatedDefaultsTests {
    @Test func theDefaultArgumentIsTheTestsOwnStore() throws {
        let preferences = ThemePreferences()
        #expect(preferences.defaults === Defaults.standard)
        #expect(preferences.defaults.suiteName.hasPrefix(IsolatedDefaults.suiteNamePrefix))
        #expect(preferences.theme == .system, "nothing left by an earlier run")
        try preferences.save(.dark)
        #expect(try Defaults.standard.persistentValue(forKey: "theme") == "dark")
    }
}
