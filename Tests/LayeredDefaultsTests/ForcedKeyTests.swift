import Foundation
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// One rule for a key the managed domain forces, whatever API changes the rows and whichever instance
/// it goes through: no write sets it (`forced`), and a whole-domain replace or removal keeps its row (the
/// user's own value, shadowed by the forced one) and says so.
@Suite struct ForcedKeyTests {
    /// A root whose `xdg` system directory forces `locked` in the domain `app`, whose user values are
    /// `locked = mine` and `free = mine`; `body` gets the root, a store opener searching it, and the
    /// errors those stores reported (collected, not printed).
    private func withForcedKey(_ body: (URL, (String) throws -> Defaults, ReportedErrors) throws -> Void) throws {
        try withTemporaryRoot { root in
            let xdg = root.appendingPathComponent("xdg")
            try Defaults(
                suiteName: "app",
                configuration: .init(location: .directory(Location.managedRoot(in: xdg)), arguments: [], systemDirectories: [])
            ).write("managed", forKey: "locked")
            let reported = ReportedErrors()
            func open(_ suite: String) throws -> Defaults {
                try Defaults(
                    suiteName: suite,
                    configuration: .init(
                        location: .directory(root.appendingPathComponent("user")), arguments: [], systemDirectories: [xdg],
                        errorHandler: reported.record))
            }
            try makeDefaults("app", root: root.appendingPathComponent("user")).replacePersistentValues([
                "locked": "mine", "free": "mine",
            ])
            try body(root, open, reported)
        }
    }

    private func userValues(_ root: URL) throws -> [String: PreferenceValue] {
        try freshValues(of: root.appendingPathComponent("user/app.sqlite3"))
    }

    /// Each API, through the domain's own instance and through an instance of another suite.
    @Test(arguments: ["app", "other"])
    func wholeDomainChangesKeepTheForcedKeysRow(through suite: String) throws {
        try withForcedKey { root, open, reported in
            let defaults = try open(suite)
            let name: String? = suite == "app" ? nil : "app"
            #expect(try defaults.replacePersistentValues([:], forName: name) == ["locked"])
            #expect(try userValues(root) == ["locked": "mine"])

            try defaults.writing(in: defaults.domain(named: "app")) {
                try $0.write("mine", forKey: "free")
            }
            #expect(try defaults.replacePersistentValues([:], forName: name) == ["locked"])
            #expect(try userValues(root) == ["locked": "mine"])
            #expect(try defaults.replacePersistentValues(["new": 1, "locked": "mine"], forName: name) == ["locked"])
            #expect(try userValues(root) == ["locked": "mine", "new": 1], "the same value is no change")
            #expect(throws: DefaultsError.forced(suite: "app", key: "locked")) {
                try defaults.replacePersistentValues(["locked": "changed", "new": 2], forName: name)
            }
            defaults.setPersistentDomain(["locked": "changed"], forName: "app")
            #expect(try userValues(root) == ["locked": "mine", "new": 1], "refused: nothing changed")
            defaults.setPersistentDomain([:], forName: "app")
            #expect(try userValues(root) == ["locked": "mine"])
            try defaults.replacePersistentValues(["new": 1], forName: name)
            defaults.removePersistentDomain(forName: "app")
            #expect(try userValues(root) == ["locked": "mine"])
            #expect(reported.all == [.forced(suite: "app", key: "locked")], "the refused setPersistentDomain, reported")
        }
    }

    @Test func noWriteThroughAnyAPISetsAForcedKey() throws {
        try withForcedKey { root, open, _ in
            let reported = ReportedErrors()
            let defaults = try Defaults(
                suiteName: "app",
                configuration: .init(
                    location: .directory(root.appendingPathComponent("user")), arguments: [],
                    systemDirectories: [root.appendingPathComponent("xdg")], errorHandler: reported.record))
            let forced = DefaultsError.forced(suite: "app", key: "locked")
            #expect(throws: forced) { try defaults.write("x", forKey: "locked") }
            #expect(throws: forced) { try defaults.write(nil, forKey: "locked") }
            #expect(throws: forced) { try defaults.update(forKey: "locked") { $0 = "x" } }
            #expect(throws: forced) { try defaults.transaction { try $0.write("x", forKey: "locked") } }
            #expect(throws: forced) { try defaults.transaction { try $0.renameKey("free", to: "locked") } }
            #expect(throws: forced) { try defaults.transaction { try $0.renameKey("locked", to: "elsewhere") } }
            #expect(throws: forced) { try defaults.migrate("m") { try $0.write("x", forKey: "locked") } }
            #expect(try defaults.appliedMigrations().isEmpty)
            let other = try open("other")
            #expect(throws: forced) {
                try other.writing(in: other.domain(named: "app")) {
                    try $0.write("x", forKey: "locked")
                }
            }
            defaults.set("x", forKey: "locked")
            defaults.removeObject(forKey: "locked")
            #expect(reported.all == [forced, forced])
            #expect(try userValues(root) == ["locked": "mine", "free": "mine"])
        }
    }

    /// The rest of the file is imported and the import recorded: it runs once, also when the managed
    /// domain forces one of its keys (which threw `forced` at every launch, so it never completed).
    @Test func importingFoundationPreferencesKeepsAForcedKeyAndImportsTheRest() throws {
        try withForcedKey { root, open, reported in
            let file = root.appendingPathComponent("old.plist")
            try PreferenceValue.propertyListData(["locked": "x", "k": 1], format: .xml).write(to: file)
            let defaults = try open("app")
            #expect(try defaults.importUserDefaults(from: file) == .imported(keys: ["k"], kept: ["locked"]))
            #expect(try userValues(root) == ["locked": "mine", "free": "mine", "k": 1])
            #expect(try defaults.importUserDefaults(from: file) == .alreadyImported)
            #expect(reported.all.isEmpty)
        }
    }
}
