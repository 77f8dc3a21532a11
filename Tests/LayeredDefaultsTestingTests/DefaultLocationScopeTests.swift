import Foundation
import LayeredDefaults
import LayeredDefaultsTesting
import Testing

/// Inside a test's isolated scope, a store opened with the default configuration (not only
/// `Defaults.standard`) lives in the test's own location, never in the user's real preferences.
@Suite struct DefaultLocationScopeTests {
    @Test(.isolatedDefaults) func aStoreOpenedWithTheDefaultConfigurationStaysInTheTestsRoot() throws {
        let root = try #require(Defaults.standard.configuration.location.root())
        let opened = try Defaults(suiteName: "opened.directly")
        try opened.write("v", forKey: "k")
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("opened.directly.sqlite3").path))
        #expect(Location.default.root() == root)
        #expect(Location.systemDirectories().isEmpty, "no system directory is searched in a test")
        #expect(try Defaults.Domain("opened.directly").repair() == nil, "repair looks in the test's root too")
    }

    @Test(.isolatedDefaults(.inMemory)) func inMemoryScopeKeepsDefaultStoresInMemory() throws {
        #expect(Location.default.root() == nil)
        let opened = try Defaults(suiteName: "opened.in.memory")
        try opened.write("v", forKey: "k")
        #expect(try opened.value(forKey: "k") == "v")
    }
}
