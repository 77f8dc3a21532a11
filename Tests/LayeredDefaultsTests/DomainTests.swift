import Foundation
import LayeredDefaults
import PackageTestSupport
import Testing

/// `Defaults.Domain`: a domain is a value (name, layer, location); its files, their modes and the
/// schema its writes obey follow from it, and asking about it makes nothing.
@Suite struct DomainTests {
    /// Everything under `directory`, as paths relative to it, sorted.
    private func entries(of directory: URL) -> [String] {
        (FileManager.default.subpaths(atPath: directory.path) ?? []).sorted()
    }

    @Test func aDomainIsAValueAndAskingAboutItMakesNothing() throws {
        try withTemporaryRoot { base in
            let user = base.appendingPathComponent("user")
            let system = base.appendingPathComponent("xdg")
            let domain = try Defaults.Domain("app", location: .directory(user), systemDirectories: [system])
            #expect(domain.file == user.appendingPathComponent("app.sqlite3"))
            #expect(try !domain.exists())
            #expect(try Defaults.Domain.names(location: .directory(user), systemDirectories: [system]).isEmpty)
            let store = try domain.open(errorHandler: { _ in })
            #expect(store.explain("k").winner == nil)
            #expect(try domain.installedSchema() == nil)
            #expect(throws: DefaultsError.noSuchDomain(suite: "app")) { try domain.backup(to: base.appendingPathComponent("b")) }
            #expect(try domain.repair() == nil)
            #expect(entries(of: base).isEmpty, "nothing was made")
            try store.write("v", forKey: "k")
            #expect(try domain.exists())
            #expect(try Defaults.Domain.names(location: .directory(user), systemDirectories: [system]) == ["app"])
        }
    }

    @Test func aNameThatIsNotASuiteNameIsRefused() {
        for name in ["../app", "", "a/b", "."] {
            #expect(throws: DefaultsError.invalidSuiteName(name)) { try Defaults.Domain(name, location: .inMemory) }
            #expect(!Defaults.Domain.isValidName(name))
        }
        for name in ["app", "com.example.my-app_2", Defaults.globalDomain, String(repeating: "a", count: 128)] {
            #expect(Defaults.Domain.isValidName(name) && (try? Defaults.Domain(name, location: .inMemory)) != nil)
        }
        #expect(!Defaults.Domain.isValidName(String(repeating: "a", count: 129)))
        #expect(throws: DefaultsError.noSuchDomain(suite: "app")) {
            try Defaults.Domain("app", layer: .system, location: .inMemory, systemDirectories: [])
        }
    }

    /// A system-wide layer's domain lives under the first system directory, its first commit makes files
    /// every user can read, and it obeys the system-wide schema, else the writing user's.
    @Test func aSystemWideDomainHasItsPlaceModesAndSchema() throws {
        try withTemporaryRoot { base in
            let user = base.appendingPathComponent("user")
            let first = base.appendingPathComponent("xdg")
            let second = base.appendingPathComponent("xdg2")
            let managed = try Defaults.Domain(
                "app", layer: .managed, location: .directory(user), systemDirectories: [first, second])
            #expect(managed.file == first.appendingPathComponent("layered-defaults/managed/app.sqlite3"))
            let system = try Defaults.Domain("app", layer: .system, location: .directory(user), systemDirectories: [first])
            #expect(system.file == first.appendingPathComponent("layered-defaults/app.sqlite3"))

            let schema = try PreferenceSchema(
                suiteName: "app", version: 1,
                entries: [.init(name: "size", type: .integer, defaultValue: 12, summary: "A size")])
            try Defaults.Domain("app", location: .directory(user)).installSchema(schema)
            #expect(try system.installedSchema() == schema, "the writing user's, where no system-wide one is")
            #expect(throws: DefaultsError.self) { try system.open(errorHandler: { _ in }).write("16", forKey: "size") }
            #expect(try !system.exists(), "a refused write makes nothing")
            try system.open(errorHandler: { _ in }).write(16, forKey: "size")
            let attributes = try FileManager.default.attributesOfItem(atPath: system.file!.path)
            #expect((attributes[.posixPermissions] as? Int) == 0o644)

            let wider = try PreferenceSchema(
                suiteName: "app", version: 2,
                entries: [.init(name: "size", type: .string, defaultValue: "12", summary: "A size")])
            try system.installSchema(wider)
            #expect(try system.installedSchema() == wider, "the system-wide one first")
            #expect(
                try Defaults.Domain("app", location: .directory(user), systemDirectories: [first]).installedSchema() == schema)
            #expect(try system.uninstallSchema())
            #expect(try system.installedSchema() == schema)
        }
    }

    /// A system-wide domain installs its schema for every user, in the first system directory, as an
    /// administrator's install does: `<dir>/layered-defaults/schemas/<name>.json` (directories 0755, the
    /// file and its installs' lock 0644), the same file for both system-wide layers, and nothing in the
    /// user's root or the other system directories. What stands in a directory's place is reported, and
    /// left as it was.
    @Test func aSystemWideDomainInstallsItsSchemaForEveryUser() throws {
        try withTemporaryRoot { base in
            let user = base.appendingPathComponent("user")
            let (first, second) = (base.appendingPathComponent("xdg"), base.appendingPathComponent("xdg2"))
            let system = try Defaults.Domain(
                "app", layer: .system, location: .directory(user), systemDirectories: [first, second])
            let managed = try Defaults.Domain(
                "app", layer: .managed, location: .directory(user), systemDirectories: [first, second])
            let schema = try PreferenceSchema(
                suiteName: "app", version: 1, entries: [.init(name: "size", type: .integer, defaultValue: 12, summary: "A size")])

            #expect(try system.installSchema(schema) == .installed)
            #expect(
                entries(of: base) == [
                    "xdg", "xdg/layered-defaults", "xdg/layered-defaults/schemas", "xdg/layered-defaults/schemas/.app.json.lock",
                    "xdg/layered-defaults/schemas/app.json",
                ])
            func mode(_ path: String) throws -> Int? {
                try FileManager.default.attributesOfItem(atPath: first.appendingPathComponent(path).path)[.posixPermissions]
                    as? Int
            }
            #expect(try mode("layered-defaults") == 0o755 && mode("layered-defaults/schemas") == 0o755)
            #expect(try mode("layered-defaults/schemas/app.json") == 0o644)
            #expect(try mode("layered-defaults/schemas/.app.json.lock") == 0o644)
            #expect(try managed.installSchema(schema) == .unchanged, "the same file")
            #expect(try managed.installedSchema() == schema)
            #expect(
                try Defaults.Domain("app", location: .directory(user), systemDirectories: [second, first]).installedSchema()
                    == schema)

            let other = try PreferenceSchema(suiteName: "other", version: 1, entries: [])
            #expect(throws: DefaultsError.malformedSchema(path: "other", reason: "it is the schema of another suite")) {
                try system.installSchema(other)
            }
            #expect(try managed.uninstallSchema())
            #expect(try !system.uninstallSchema(), "removed for both layers")
            #expect(try system.installedSchema() == nil)

            let blocked = base.appendingPathComponent("blocked")
            try FileManager.default.createDirectory(at: blocked, withIntermediateDirectories: true)
            try Data("not a directory".utf8).write(to: blocked.appendingPathComponent("layered-defaults"))
            let schemas = blocked.appendingPathComponent("layered-defaults/schemas").path
            #expect(
                throws: DefaultsError.fileSystemFailure(path: schemas, operation: "create the schema directory", code: ENOTDIR)
            ) {
                try Defaults.Domain("app", layer: .system, location: .directory(user), systemDirectories: [blocked])
                    .installSchema(schema)
            }
            #expect(try Data(contentsOf: blocked.appendingPathComponent("layered-defaults")) == Data("not a directory".utf8))
        }
    }

    @Test func backupAndRestoreWorkOnTheDomain() throws {
        try withTemporaryRoot { base in
            let source = try Defaults.Domain("app", location: .directory(base.appendingPathComponent("a")))
            try source.open(errorHandler: { _ in }).write("v", forKey: "k")
            let backup = base.appendingPathComponent("app-backup.sqlite3")
            try source.backup(to: backup)
            let target = try Defaults.Domain("app", location: .directory(base.appendingPathComponent("b")))
            let foreign = try PreferenceSchema(suiteName: "other", version: 1, entries: [], allowsUndeclaredKeys: false)
            #expect(throws: DefaultsError.self) { try target.restore(from: backup, schema: foreign) }
            #expect(try !target.exists(), "another domain's schema is refused before anything is read")
            #expect(try target.restore(from: backup).isEmpty)
            #expect(try target.open(errorHandler: { _ in }).persistentValues() == ["k": "v"])
        }
    }
}
