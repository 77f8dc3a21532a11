import CSQLite
import Foundation
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing

@testable import LayeredDefaults

@Suite struct PersistenceTests {
    @Test(arguments: PreferenceValueTests.samples)
    func everyValueTypeRoundTripsThroughAnotherProcess(value: PreferenceValue) throws {
        try withTemporaryRoot { root in
            try makeDefaults("round.trip", root: root).write(value, forKey: "k")
            let read = try fixture(root, "round.trip", "read", "k")
            #expect(read.status == 0, "\(read.error)")
            let decoded = try JSONDecoder().decode(PreferenceValue.self, from: Data(read.output.utf8))
            #expect(decoded == value)
        }
    }

    @Test(arguments: PreferenceValueTests.samples)
    func everyValueTypeRoundTripsThroughANewConnection(value: PreferenceValue) throws {
        try withTemporaryRoot { root in
            let path = root.appendingPathComponent("fresh.sqlite3").path
            try makeDefaults("fresh", root: root).write(value, forKey: "k")
            #expect(try freshValues(of: URL(fileURLWithPath: path)) == ["k": value])
        }
    }

    @Test func filesLiveUnderTheRootWithPrivatePermissions() throws {
        try withTemporaryRoot { parent in
            let root = parent.appendingPathComponent("store")
            let defaults = try makeDefaults("com.example.app", root: root)
            defaults.set("x", forKey: "k")
            let file = root.appendingPathComponent("com.example.app.sqlite3")
            #expect(FileManager.default.fileExists(atPath: file.path))
            #expect(try permissions(of: root) == 0o700)
            #expect(try permissions(of: file) == 0o600)
            for sidecar in Location.companionSuffixes where FileManager.default.fileExists(atPath: file.path + sidecar) {
                #expect(try permissions(of: URL(fileURLWithPath: file.path + sidecar)) == 0o600)
            }
            #expect(defaults.persistentDomainNames().contains("com.example.app"))
        }
    }

    @Test func rootComesFromTheEnvironmentInOrder() {
        #expect(
            Location.default.root(environment: ["LAYERED_DEFAULTS_HOME": "/a", "XDG_CONFIG_HOME": "/b", "HOME": "/c"])?.path
                == "/a")
        #expect(Location.default.root(environment: ["XDG_CONFIG_HOME": "/b", "HOME": "/c"])?.path == "/b/layered-defaults")
        #expect(
            Location.default.root(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/c"])?.path
                == "/c/.config/layered-defaults")
        #expect(Location.default.root(environment: ["HOME": "/c"])?.path == "/c/.config/layered-defaults")
        #expect(Location.inMemory.root() == nil)
    }

    @Test func theStandardSuiteNameIsExplicitElseTheBundleElseTheProcess() {
        #expect(
            SuiteName.applicationIdentifier(
                environment: ["LAYERED_DEFAULTS_APP_ID": "com.example.app"], bundleIdentifier: "b", processName: "p")
                == "com.example.app")
        #expect(
            SuiteName.applicationIdentifier(environment: [:], bundleIdentifier: "com.bundle", processName: "p") == "com.bundle")
        #expect(
            SuiteName.applicationIdentifier(
                environment: ["LAYERED_DEFAULTS_APP_ID": ""], bundleIdentifier: nil, processName: "my tool") == "my_tool")
        #expect(SuiteName.applicationIdentifier(environment: [:], bundleIdentifier: nil, processName: "..") == "app")
    }

    @Test func inMemoryTouchesNoFile() throws {
        try withTemporaryRoot { root in
            let before = try FileManager.default.contentsOfDirectory(atPath: root.path)
            let defaults = try Defaults(suiteName: "mem", configuration: .init(location: .inMemory, arguments: []))
            defaults.set("v", forKey: "k")
            #expect(defaults.string(forKey: "k") == "v")
            #expect(
                try Defaults(suiteName: "mem", configuration: .init(location: .inMemory, arguments: [])).string(forKey: "k")
                    == nil, "each in-memory store is private")
            #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == before)
        }
    }

    @Test func schemaIsReadableAndVersioned() throws {
        try withTemporaryRoot { root in
            try makeDefaults("schema", root: root).write(.integer(5), forKey: "n")
            let connection = try Connection(
                path: root.appendingPathComponent("schema.sqlite3").path, busyTimeoutMilliseconds: 1000)
            #expect(try connection.integer("PRAGMA user_version") == TableLayout.version)
            #expect(try connection.integer("PRAGMA application_id") == TableLayout.applicationID)
            #expect(try connection.text("PRAGMA journal_mode") == "wal")
            #expect(try connection.text("SELECT type FROM preferences WHERE key = 'n'") == "integer")
            #expect(try connection.integer("SELECT value FROM preferences WHERE key = 'n'") == 5)
        }
    }

    @Test func persistentDomainsCanBeReplacedAndRemoved() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("app", root: root)
            defaults.set(1, forKey: "old")
            defaults.setPersistentDomain(["a": 1, "b": "two"], forName: "app")
            #expect(defaults.object(forKey: "old") == nil)
            #expect(try defaults.persistentValues() == ["a": 1, "b": "two"])
            defaults.setPersistentDomain(["x": true], forName: "other")
            #expect(try makeDefaults("other", root: root).bool(forKey: "x"))
            defaults.removePersistentDomain(forName: "app")
            #expect(defaults.persistentDomain(forName: "app") == nil)
            #expect(try defaults.persistentValues(forName: "other") == ["x": true])
            #expect(defaults.persistentDomainNames() == ["app", "other"], "reads made no global domain")
        }
    }
}

func permissions(of url: URL) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int ?? -1) & 0o777
}
