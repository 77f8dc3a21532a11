import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// The system-wide layers under the configuration's system directories (a temporary stand-in for
/// `$XDG_CONFIG_DIRS`): the managed domain first, the system domain after the global one.
@Suite struct SystemDomainsTests {
    /// Writes `values` into the domain `suite` under `root` (a managed or system directory), as an
    /// administrator would.
    private func install(_ values: [String: PreferenceValue], suite: String = "app", in root: URL) throws {
        try Defaults(suiteName: suite, configuration: .init(location: .directory(root), arguments: [], systemDirectories: []))
            .replacePersistentValues(values)
    }

    /// A store of `suite` in `root/user`, searching the system directories `directories` under `root`.
    private func open(
        _ suite: String = "app", root: URL, directories: [String], arguments: [String] = [],
        errorHandler: @escaping @Sendable (DefaultsError) -> Void = Defaults.reportToStandardError
    ) throws -> Defaults {
        try Defaults(
            suiteName: suite,
            configuration: .init(
                location: .directory(root.appendingPathComponent("user")), arguments: arguments,
                systemDirectories: directories.map { root.appendingPathComponent($0) }, errorHandler: errorHandler))
    }

    @Test func managedOverridesArgumentsAndPersistent() throws {
        try withTemporaryRoot { root in
            try install(["locked": "managed"], in: Location.managedRoot(in: root.appendingPathComponent("xdg")))
            let user = try makeDefaults("app", root: root.appendingPathComponent("user"))
            try user.write("user", forKey: "locked")
            try user.write("user", forKey: "free")
            let defaults = try open(root: root, directories: ["xdg"], arguments: ["-locked", "argument", "-free", "argument"])
            #expect(try defaults.value(forKey: "locked") == "managed")
            #expect(try defaults.value(forKey: "free") == "argument")
            #expect(try defaults.resolvedValues() == ["locked": "managed", "free": "argument"])
            #expect(defaults.objectIsForced(forKey: "locked"))
            #expect(defaults.objectIsForced(forKey: "free"), "an argument forces too")
            #expect(!defaults.objectIsForced(forKey: "other"))
        }
    }

    /// A managed file that exists but cannot be read fails closed: which keys it forces is unknown, so
    /// every write fails with its error and nothing changes; reads go on.
    @Test func anUnreadableManagedFileFailsEveryWrite() throws {
        try withTemporaryRoot { root in
            let managed = Location.managedRoot(in: root.appendingPathComponent("xdg"))
            try FileManager.default.createDirectory(at: managed, withIntermediateDirectories: true)
            try Data("not a database, but an administrator's file".utf8).write(to: managed.appendingPathComponent("app.sqlite3"))
            try makeDefaults("app", root: root.appendingPathComponent("user")).write("before", forKey: "k")
            let reported = ReportedErrors()
            let defaults = try open(root: root, directories: ["xdg"], errorHandler: reported.record)
            #expect(reported.all.count == 1, "the unreadable managed file is reported when the store opens")
            #expect(throws: DefaultsError.self) { try defaults.write("after", forKey: "k") }
            defaults.set("after", forKey: "k")
            #expect(throws: DefaultsError.self) { try defaults.transaction { try $0.write("after", forKey: "other") } }
            #expect(try defaults.value(forKey: "k") == "before")
            #expect(try defaults.persistentValues() == ["k": "before"])
            if case .corruptStore? = reported.all.first {} else { Issue.record("unexpected \(reported.all)") }
        }
    }

    @Test func forcedWriteFailsTyped() throws {
        try withTemporaryRoot { root in
            try install(["locked": "managed"], in: Location.managedRoot(in: root.appendingPathComponent("xdg")))
            let reported = ReportedErrors()
            let defaults = try open(root: root, directories: ["xdg"], errorHandler: reported.record)
            try defaults.write("before", forKey: "free")
            let forced = DefaultsError.forced(suite: "app", key: "locked")
            #expect(throws: forced) { try defaults.write("mine", forKey: "locked") }
            #expect(throws: forced) { try defaults.write(nil, forKey: "locked") }
            #expect(throws: forced) { try defaults.update(forKey: "locked") { $0 = "mine" } }
            #expect(throws: forced) {
                try defaults.transaction { domain in
                    try domain.write("after", forKey: "free")
                    try domain.write("mine", forKey: "locked")
                }
            }
            #expect(throws: forced) { try defaults.write("mine", for: Defaults.Key("locked", default: "")) }
            #expect(throws: forced) { try defaults.update(Defaults.Key("locked", default: "")) { $0 = "mine" } }
            #expect(throws: forced) { try defaults.replacePersistentValues(["locked": "mine"]) }
            defaults.set("mine", forKey: "locked")
            defaults[Defaults.Key("locked", default: "")] = "mine"
            #expect(reported.all == [forced, forced])
            #expect(try defaults.persistentValues() == ["free": "before"], "nothing changed")
            #expect(try defaults.value(forKey: "locked") == "managed")
        }
    }

    @Test func systemBelowGlobalAboveRegistration() throws {
        try withTemporaryRoot { root in
            try install(
                ["shared": "system", "fallback": "system"], in: Location.systemRoot(in: root.appendingPathComponent("xdg")))
            try makeDefaults(Defaults.globalDomain, root: root.appendingPathComponent("user")).write("global", forKey: "shared")
            let defaults = try open(root: root, directories: ["xdg"])
            defaults.register(["shared": "registered", "fallback": "registered", "only": "registered"])
            #expect(try defaults.value(forKey: "shared") == "global")
            #expect(try defaults.value(forKey: "fallback") == "system")
            #expect(try defaults.value(forKey: "only") == "registered")
            #expect(try defaults.resolvedValues() == ["shared": "global", "fallback": "system", "only": "registered"])
            #expect(!defaults.objectIsForced(forKey: "fallback"))
            try defaults.write("mine", forKey: "fallback")
            #expect(try defaults.value(forKey: "fallback") == "mine", "the system domain is below the user's")
        }
    }

    @Test func earlierDirectoriesFirst() throws {
        try withTemporaryRoot { root in
            for name in ["first", "second"] {
                let directory = root.appendingPathComponent(name)
                try install(["key": .string(name), name: "managed"], in: Location.managedRoot(in: directory))
                try install(["system": .string(name), "\(name).system": "system"], in: Location.systemRoot(in: directory))
            }
            let defaults = try open(root: root, directories: ["first", "second"])
            #expect(try defaults.value(forKey: "key") == "first")
            #expect(try defaults.value(forKey: "second") == "managed")
            #expect(try defaults.value(forKey: "system") == "first")
            #expect(try defaults.value(forKey: "second.system") == "system")
            #expect(defaults.objectIsForced(forKey: "second"))
            #expect(
                try defaults.resolvedValues() == [
                    "key": "first", "first": "managed", "second": "managed",
                    "system": "first", "first.system": "system", "second.system": "system",
                ])
        }
    }

    /// A managed or system domain is searched only when its file existed when the instance was made:
    /// one created later is not searched by that instance (nor seen by its observers); an instance made
    /// after it is.
    @Test func aLayerCreatedAfterTheInstanceIsSearchedByLaterInstances() throws {
        try withTemporaryRoot { root in
            let directory = root.appendingPathComponent("xdg")
            let earlier = try open(root: root, directories: ["xdg"])
            try install(["k": "system"], in: Location.systemRoot(in: directory))
            try install(["forced": "managed"], in: Location.managedRoot(in: directory))
            #expect(try earlier.value(forKey: "k") == nil && earlier.value(forKey: "forced") == nil)
            let later = try open(root: root, directories: ["xdg"])
            #expect(try later.value(forKey: "k") == "system" && later.value(forKey: "forced") == "managed")
        }
    }

    @Test func absentLayersCreateNothing() throws {
        try withTemporaryRoot { root in
            let existing = root.appendingPathComponent("existing")
            try FileManager.default.createDirectory(at: Location.managedRoot(in: existing), withIntermediateDirectories: true)
            let defaults = try open(root: root, directories: ["missing", "existing"])
            try defaults.write("v", forKey: "k")
            #expect(try defaults.value(forKey: "k") == "v")
            #expect(try defaults.value(forKey: "absent") == nil)
            #expect(!defaults.objectIsForced(forKey: "k"))
            #expect(defaults.searchList.managed.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("missing").path))
            #expect(
                try FileManager.default.subpathsOfDirectory(atPath: existing.path) == [
                    "layered-defaults", "layered-defaults/managed",
                ])
        }
    }

    @Test func systemDirectoriesFromTheEnvironment() {
        #expect(Location.systemDirectories(environment: [:]).map(\.path) == ["/etc/xdg"])
        #expect(Location.systemDirectories(environment: ["XDG_CONFIG_DIRS": ""]).map(\.path) == ["/etc/xdg"])
        #expect(Location.systemDirectories(environment: ["XDG_CONFIG_DIRS": "/a:relative::/b"]).map(\.path) == ["/a", "/b"])
    }
}
