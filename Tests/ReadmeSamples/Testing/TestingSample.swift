import LayeredDefaults
import LayeredDefaultsTesting
import Testing

extension Defaults.Key<Int> { static let tabWidth = Defaults.Key("tabWidth", default: 4) }

struct Settings {  // code under test: it reaches for Defaults.standard by default
    var defaults: Defaults = .standard
    func save(tabWidth: Int) throws { try defaults.write(tabWidth, for: .tabWidth) }
}

@Test(.isolatedDefaults) func savingTheTabWidth() throws {
    try Settings().save(tabWidth: 2)  // Defaults.standard is this test's own store
    #expect(Defaults.standard[.tabWidth] == 2)
}
