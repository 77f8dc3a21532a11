import Foundation
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// Behaviour found by running Foundation's own `UserDefaults` tests.
@Suite struct FoundationParityTests {
    @Test func aFloatReadsAsItsFloatText() throws {
        let defaults = try makeInMemoryDefaults()
        defaults.set(Float(12.34), forKey: "float")
        #expect(defaults.string(forKey: "float") == "12.34")
        #expect(defaults.double(forKey: "float") == 12.34000015258789)
        #expect(defaults.float(forKey: "float") == Float(12.34))
        defaults.set(12.34, forKey: "double")
        #expect(defaults.string(forKey: "double") == "12.34")
        defaults.set(0.1, forKey: "tenth")
        #expect(defaults.string(forKey: "tenth") == "0.1")
    }

    @Test func removingADomainWithNoFilePostsAChange() throws {
        try withTemporaryRoot { root in
            let defaults = try Defaults(
                suiteName: "app",
                configuration: .init(
                    location: .directory(root), arguments: [], postsChangeNotifications: true, systemDirectories: []))
            let posted = changeNotifications(of: defaults) { defaults.removePersistentDomain(forName: "never.created") }
            #expect(posted == 1)
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("never.created.sqlite3").path))
        }
    }

    @Test func aRegisteredURLReadsAsAURL() throws {
        let errors = ReportedErrors()
        let defaults = try makeInMemoryDefaults(errorHandler: errors.record)
        let web = URL(string: "https://example.com/notes")!
        let file = URL(fileURLWithPath: "/tmp/notes.md")
        defaults.register(defaults: ["web": web, "file": file])
        #expect(errors.all.isEmpty)
        #expect(defaults.url(forKey: "web") == web)
        #expect(defaults.url(forKey: "file") == file)
        defaults.set(web, forKey: "stored")
        #expect(
            defaults.volatileDomain(forName: Defaults.registrationDomain)["web"] as? String == defaults.string(forKey: "stored"))
    }
}
