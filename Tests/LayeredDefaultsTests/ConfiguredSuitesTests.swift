import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

@Suite struct ConfiguredSuitesTests {
    /// `Configuration.suites` are searched after the persistent domain, in order, and before the global
    /// domain; they are never written.
    @Test func configuredSuitesAreSearchedInOrder() throws {
        try withTemporaryRoot { root in
            try makeDefaults("first", root: root).write("from first", forKey: "k")
            try makeDefaults("second", root: root).write("from second", forKey: "k")
            try makeDefaults("second", root: root).write("only second", forKey: "s")
            try makeDefaults(Defaults.globalDomain, root: root).write("global", forKey: "g")
            let defaults = try Defaults(
                suiteName: "app", configuration: .init(location: .directory(root), arguments: [], suites: ["first", "second"]))
            #expect(defaults.suiteNames == ["first", "second"])
            #expect(try defaults.value(forKey: "k") == "from first")
            #expect(try defaults.value(forKey: "s") == "only second")
            #expect(try defaults.value(forKey: "g") == "global")
            try defaults.write("mine", forKey: "k")
            #expect(try defaults.value(forKey: "k") == "mine")
            #expect(
                try makeDefaults("first", root: root).persistentValue(forKey: "k") == "from first", "suites are never written")
        }
    }
}
