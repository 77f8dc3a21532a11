import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults
@testable import prefs

/// `prefs --system` and `--managed` write the system-wide layers under `$XDG_CONFIG_DIRS` (a temporary
/// directory here); the user's domains then see them.
@Suite struct SystemLayerCommandTests {
    @Test func managedWriteForcesTheUsersKey() throws {
        try withTestRoot { root in
            try root.prefs("write", "app", "k", "mine").requireSuccess()
            try root.prefs("--managed", "write", "app", "k", "managed").requireSuccess()
            let file = Location.managedRoot(in: root.systemDirectory).appendingPathComponent("app.sqlite3")
            #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o644)
            let refused = root.prefs("write", "app", "k", "again")
            #expect(refused.status == .storage, "the store refused the write: exit status 3")
            #expect(
                refused.errorLines == [
                    "prefs: Cannot write key 'k' in domain 'app': its value is forced by the managed domain (layered-defaults/managed under $XDG_CONFIG_DIRS); nothing was changed"
                ])
            #expect(try root.stored("app") == ["k": "mine"], "nothing changed")
            #expect(root.prefs("--managed", "read", "app", "k").output == "managed\n")
            let read = root.prefs("read", "app", "k")
            #expect(read.output == "mine\n", "the domain's own value")
            #expect(
                read.errorLines == [
                    "prefs: warning: the managed domain forces key 'k' of domain 'app': the app reads its value instead (prefs --managed read app k)"
                ])
        }
    }

    /// `delete <domain>`, `import` and `restore` keep the row of a forced key (the user's own value) and
    /// name it in a warning (with `--json`, a JSON object); an import that would change it is refused, nothing changed.
    @Test func wholeDomainCommandsKeepAForcedKeysRow() throws {
        try withTestRoot { root in
            try root.prefs("write", "app", "k", "mine").requireSuccess()
            try root.prefs("write", "app", "free", "mine").requireSuccess()
            try root.prefs("--managed", "write", "app", "k", "managed").requireSuccess()
            let kept = "kept 'k' in domain 'app': forced by the managed domain, which no write may change"
            let keptLine = "prefs: warning: " + kept
            let deleted = root.prefs("delete", "app")
            #expect(deleted.status == .success && deleted.errorLines == [keptLine])
            #expect(try root.stored("app") == ["k": "mine"])
            let imported = root.prefs("import", "app", "-", input: Data(#"{"other":{"integer":1}}"#.utf8))
            #expect(imported.status == .success && imported.errorLines == [keptLine])
            #expect(try root.stored("app") == ["k": "mine", "other": 1])
            let refused = root.prefs("import", "app", "-", input: Data(#"{"k":{"string":"changed"}}"#.utf8))
            #expect(refused.status == .storage)
            #expect(refused.errorLines == ["prefs: \(PrefsError.domainWording(of: .forced(suite: "app", key: "k")))"])
            #expect(try root.stored("app") == ["k": "mine", "other": 1])
            try root.prefs("write", "source", "restored", "yes").requireSuccess()
            let backup = root.url.appendingPathComponent("source-backup.sqlite3").path
            try root.prefs("backup", "source", backup).requireSuccess()
            let restored = root.prefs("restore", "app", backup)
            #expect(restored.status == .success && restored.errorLines == [keptLine])
            #expect(try root.stored("app") == ["k": "mine", "restored": "yes"])
            let json = root.prefs("--json", "delete", "app")
            #expect(json.status == .success && json.errorLines == [#"{"warning":"\#(kept)"}"#], "a warning as JSON")
        }
    }

    @Test func systemWriteIsBelowTheUsersDomain() throws {
        try withTestRoot { root in
            try root.prefs("--system", "write", "app", "k", "system").requireSuccess()
            let defaults = try Defaults(
                suiteName: "app",
                configuration: .init(
                    location: .directory(root.url), arguments: [], systemDirectories: [root.systemDirectory]))
            #expect(try defaults.value(forKey: "k") == "system")
            try root.prefs("write", "app", "k", "mine").requireSuccess()
            #expect(try defaults.value(forKey: "k") == "mine")
            #expect(root.prefs("--system", "read", "app", "k").output == "system\n")
        }
    }

    @Test func layerOptionsConflict() throws {
        try withTestRoot { root in
            #expect(root.prefs("--system", "--managed", "read", "app").status == .usage)
            #expect(root.prefs("--system", "--root", root.url.path, "read", "app").status == .usage)
            #expect(!FileManager.default.fileExists(atPath: root.systemDirectory.path))
        }
    }

    /// The real executable, with `XDG_CONFIG_DIRS` in its environment: the first directory is the target.
    @Test func processReadsTheEnvironment() throws {
        try withTemporaryRoot { root in
            let first = root.appendingPathComponent("first")
            let second = root.appendingPathComponent("second")
            let environment = [
                "LAYERED_DEFAULTS_HOME": root.appendingPathComponent("user").path,
                "XDG_CONFIG_DIRS": "\(first.path):\(second.path)",
            ]
            let managed = try run("prefs", ["--managed", "write", "app", "k", "managed"], environment: environment)
            #expect(managed.status == 0)
            #expect(
                FileManager.default.fileExists(atPath: Location.managedRoot(in: first).appendingPathComponent("app.sqlite3").path)
            )
            #expect(!FileManager.default.fileExists(atPath: second.path), "absent layers create nothing")
            let refused = try run("prefs", ["write", "app", "k", "mine"], environment: environment)
            #expect(refused.status == ExitStatus.storage.rawValue)
        }
    }
}

extension RunResult {
    /// Fails the test with the error lines unless the command succeeded.
    func requireSuccess() throws {
        try #require(status == .success, "\(errorLines)")
    }
}

/// Reading a system-wide layer creates nothing there: a file made by a read (the global domain's, say,
/// mode 0600) would be unreadable to every other user, and an unreadable managed file fails their writes.
@Suite struct SystemLayerReadTests {
    @Test(arguments: ["--managed", "--system"]) func readingCreatesNothing(_ layer: String) throws {
        try withTestRoot { root in
            try root.prefs(layer, "write", "app", "k", "v").requireSuccess()
            let directory =
                layer == "--managed"
                ? Location.managedRoot(in: root.systemDirectory) : Location.systemRoot(in: root.systemDirectory)
            let before = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            for arguments in [
                ["read", "app"], ["read", "app", "k"], ["read-type", "app", "k"], ["exists", "app", "k"],
                ["export", "app", "-"], ["find", "v"], ["domains"], ["read", "-g"], ["exists", "-g", "k"],
                ["read", "missing"],
            ] {
                _ = root.prefs([layer] + arguments)
                #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == before, "\(arguments)")
            }
        }
    }
}

/// With `--system` or `--managed`, what the app reads, and whether a key is forced for it, is still the
/// app's search: the user's domain and the layers below it, never the layer's own store's search.
@Suite struct SystemLayerAppReadTests {
    @Test(arguments: ["--managed", "--system"]) func anUnsetKeyReadsAsTheAppReadsIt(_ layer: String) throws {
        try withTestRoot { root in
            try Defaults.Domain("app", location: .directory(root.url)).installSchema(SchemaCommandTests.schema)
            try root.prefs("--managed", "write", "app", "theme", "dark").requireSuccess()
            try root.prefs("--system", "write", "app", "nickname", "preset").requireSuccess()
            try root.prefs("--system", "write", "-g", "g", "system-global").requireSuccess()
            let (other, expected) = layer == "--managed" ? ("nickname", "preset") : ("theme", "dark")
            let read = root.prefs(layer, "read", "app", other)
            #expect(read.status == .success && read.output == expected + "\n", "\(read.errorLines)")
            #expect(root.prefs(layer, "describe", "app", "theme").output.contains("forced: yes\n"))
            #expect(root.prefs(layer, "read", "other.app", "g").status == .notFound, "no app reads the layer's own global domain")
            let explained = root.prefs(layer, "explain", "app", "theme")
            #expect(explained.output.hasPrefix("theme of app reads dark, from the managed layer"), "\(explained.output)")
        }
    }
}

/// A system-wide layer that an administrator writes is readable by every user, whatever the umask:
/// directories 0755, files 0644, as under `/etc/xdg`.
@Suite struct SystemLayerModeTests {
    @Test func aManagedWriteUnderARestrictiveUmaskIsReadableByEveryone() throws {
        try withTemporaryRoot { root in
            let xdg = root.appendingPathComponent("xdg")
            let result = try run(
                executable: URL(fileURLWithPath: "/bin/sh"),
                ["-c", #"umask 077; exec "$0" --managed write app k v"#, BuiltProducts.url(of: "prefs").path],
                environment: ["LAYERED_DEFAULTS_HOME": root.appendingPathComponent("user").path, "XDG_CONFIG_DIRS": xdg.path])
            #expect(result.status == 0, "\(result.error)")
            func mode(_ path: String) throws -> Int? {
                try FileManager.default.attributesOfItem(atPath: xdg.appendingPathComponent(path).path)[.posixPermissions] as? Int
            }
            #expect(try mode("layered-defaults") == 0o755)
            #expect(try mode("layered-defaults/managed") == 0o755)
            #expect(try mode("layered-defaults/managed/app.sqlite3") == 0o644)
        }
    }
}

/// An administrator's write obeys the app's schema wherever it is installed: the system-wide one, else
/// the one the writing user installed for the app.
@Suite struct SystemLayerSchemaTests {
    @Test(arguments: ["--system", "--managed"])
    func anAdministratorsWriteIsTypedAndCheckedByTheUsersSchema(layer: String) throws {
        try withTestRoot { root throws in
            try Defaults.Domain("app", location: .directory(root.url)).installSchema(SchemaCommandTests.schema)
            try root.prefs(layer, "write", "app", "size", "16").requireSuccess()
            #expect(root.prefs(layer, "read-type", "app", "size").output == "Type is integer\n", "typed by the schema")
            let typo = root.prefs(layer, "write", "app", "sise", "16")
            #expect(typo.status == .usage, "a misspelled key is refused: \(typo.errorLines)")
            #expect(typo.error.contains("size"), "did you mean: \(typo.errorLines)")
            let outside = root.prefs(layer, "write", "app", "size", "500")
            #expect(outside.status == .usage, "\(outside.errorLines)")
            #expect(root.prefs(layer, "read", "app", "size").output == "16\n", "nothing changed")
        }
    }
}

/// `prefs read` of a key the user's domain does not hold names the layer that gives its value.
@Suite struct ReadNamesTheLayerTests {
    @Test func aSystemValueIsNamedWithItsFile() throws {
        try withTestRoot { root throws in
            try root.prefs("--system", "write", "app", "k", "system").requireSuccess()
            let read = root.prefs("read", "app", "k")
            #expect(read.output == "system\n")
            let file = Location.systemRoot(in: root.systemDirectory).appendingPathComponent("app.sqlite3").path
            #expect(
                read.errorLines == [
                    "prefs: key 'k' is not set in domain 'app': this is what it reads as, the system domain's value (\(file)) (prefs explain app k)"
                ])
        }
    }
}
