import Foundation
import LayeredDefaultsCompatibility
import LayeredDefaultsTesting
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// Drop-in folders, the plain files configuration management writes under the system directories (a
/// temporary stand-in for `$XDG_CONFIG_DIRS` here): `<dir>/layered-defaults/<suite>.d/*.conf` presets
/// keys in the system layer, `<dir>/layered-defaults/managed/<suite>.d/*.conf` forces them.
@Suite struct DropInTests {
    /// `fontSize` an integer from 6 to 72 (12), `theme` one of three (system), `tags` an array.
    static let schema = try! PreferenceSchema(
        suiteName: "app", version: 1,
        entries: [
            .init(name: "fontSize", type: .integer, defaultValue: 12, summary: "The font size", accepted: .integers(6...72)),
            .init(
                name: "theme", type: .string, defaultValue: "system", summary: "The colour scheme",
                accepted: .choices(["system", "light", "dark"])),
            .init(name: "tags", type: .array, defaultValue: nil, summary: "Tags"),
            .init(name: "compact", type: .boolean, defaultValue: false, summary: "Compact rows"),
            .init(name: "since", type: .date, defaultValue: nil, summary: "Member since"),
        ])

    /// The drop-in folder of `app` under `root/xdg`, made now: the managed one or the system one.
    @discardableResult
    private func makeFolder(in root: URL, managed: Bool = false) throws -> URL {
        let system = root.appendingPathComponent("xdg")
        let folder = (managed ? Location.managedRoot(in: system) : Location.systemRoot(in: system))
            .appendingPathComponent("app.d", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Writes `text` as the file `name` of `folder`, as an administrator would.
    private func write(_ text: String, _ name: String, in folder: URL) throws {
        try Data(text.utf8).write(to: folder.appendingPathComponent(name))
    }

    /// A store of `app` in `root/user`, searching the system directories `root/xdg` (and `root/<more>`),
    /// under `schema`.
    private func open(
        _ root: URL, schema: PreferenceSchema? = Self.schema, more: [String] = [], errors: ReportedErrors = ReportedErrors()
    ) throws -> Defaults {
        try Defaults(
            suiteName: "app",
            configuration: .init(
                location: .directory(root.appendingPathComponent("user")), arguments: [],
                systemDirectories: (["xdg"] + more).map { root.appendingPathComponent($0) }, schema: schema,
                errorHandler: errors.record))
    }

    @Test func aHandWrittenDropInPresetsAKeyBelowTheUsersOwn() throws {
        try withTemporaryRoot { root in
            let folder = try makeFolder(in: root)
            try write(
                "# the fleet's fonts\n\nfontSize = 14\ntheme = dark\n; tags\ntags = (work, home)\ncompact = yes\nsince = 2026-11-29\n",
                "10-fleet.conf", in: folder)
            let errors = ReportedErrors()
            let defaults = try open(root, errors: errors)
            #expect(try defaults.value(forKey: "fontSize") == .integer(14), "read as the schema's type")
            #expect(defaults[Defaults.Key<Int>("fontSize", default: 0)] == 14)
            #expect(try defaults.value(forKey: "tags") == ["work", "home"])
            #expect(try defaults.value(forKey: "compact") == true)
            #expect(try defaults.value(forKey: "since") == .date(try #require(CivilCalendar.date(parsing: "2026-11-29"))))
            #expect(try defaults.resolvedValues()["theme"] == "dark")
            #expect(!defaults.objectIsForced(forKey: "fontSize"), "a preset does not force")
            let why = defaults.explain("theme")
            #expect(why.winner == .system)
            #expect(why.layers.contains { $0.origin == folder.appendingPathComponent("10-fleet.conf").path + ":4" })
            try defaults.write(20, forKey: "fontSize")
            #expect(try defaults.value(forKey: "fontSize") == 20, "the user's own value comes first")
            #expect(errors.all.isEmpty)
        }
    }

    @Test func aManagedDropInForcesAKeyThroughEveryDoor() throws {
        try withTemporaryRoot { root in
            try open(root).write("light", forKey: "theme")
            let lock = try makeFolder(in: root, managed: true)
            try write("theme = dark\n", "50-lock.conf", in: lock)
            let errors = ReportedErrors()
            let defaults = try open(root, errors: errors)
            #expect(try defaults.value(forKey: "theme") == "dark")
            #expect(defaults[Defaults.Key<String>("theme", default: "system")] == "dark", "a typed read")
            #expect(defaults.string(forKey: "theme") == "dark", "the compatibility module's read")
            #expect(defaults.objectIsForced(forKey: "theme"))
            #expect(throws: DefaultsError.forced(suite: "app", key: "theme")) { try defaults.write("system", forKey: "theme") }
            #expect(throws: DefaultsError.forced(suite: "app", key: "theme")) {
                try defaults.transaction { transaction in
                    let forced = transaction.isForced("theme")
                    #expect(forced)
                    try transaction.write("system", forKey: "theme")
                }
            }
            defaults.set("system", forKey: "theme")
            #expect(errors.all == [.forced(suite: "app", key: "theme")], "the compatibility setter reports the refusal")
            #expect(try defaults.persistentValues() == ["theme": "light"], "the user's own row is kept")
            try defaults.replacePersistentValues([:])
            #expect(try defaults.persistentValues() == ["theme": "light"], "emptying the domain keeps a forced key's row")
            #expect(try defaults.resolvedValues()["theme"] == "dark")
            let why = defaults.explain("theme")
            #expect(why.forcedBy == lock.appendingPathComponent("50-lock.conf").path + ":1")
            #expect(why.winner == .managed)
            #expect(try defaults.persistentValue(forKey: "theme") == "light")
        }
    }

    /// A file written on Windows (CR LF line ends, a byte order mark) reads as the same lines: each key is
    /// set, and a lock on a later line forces its key.
    @Test func crlfLineEndsAndAByteOrderMarkReadAsLines() throws {
        try withTemporaryRoot { root in
            let lock = try makeFolder(in: root, managed: true)
            try write("\u{FEFF}fontSize = 14\r\n# a comment\r\ntheme = dark\r\n", "10-windows.conf", in: lock)
            try write("tags = (a, b)\rcompact = yes\r", "20-old-mac.conf", in: lock)
            let errors = ReportedErrors()
            let defaults = try open(root, errors: errors)
            #expect(try defaults.value(forKey: "fontSize") == 14)
            #expect(try defaults.value(forKey: "theme") == "dark")
            #expect(defaults.objectIsForced(forKey: "theme"))
            #expect(throws: DefaultsError.forced(suite: "app", key: "theme")) { try defaults.write("light", forKey: "theme") }
            #expect(try defaults.value(forKey: "compact") == true)
            #expect(defaults.explain("theme").forcedBy == lock.appendingPathComponent("10-windows.conf").path + ":3")
            #expect(errors.all.isEmpty)
        }
    }

    @Test func theLaterFileWinsInLexicalOrder() throws {
        try withTemporaryRoot { root in
            let folder = try makeFolder(in: root)
            try write("fontSize = 20\n", "20-b.conf", in: folder)
            try write("fontSize = 10\ntheme = light\n", "10-a.conf", in: folder)
            try write("fontSize = 30\n", "30-c.conf~", in: folder)
            try write("fontSize = 40\n", ".50-hidden.conf", in: folder)
            try write("fontSize = 50\n", "README", in: folder)
            let elsewhere = root.appendingPathComponent("store-compact.conf")
            try Data("compact = true\n".utf8).write(to: elsewhere)
            try FileManager.default.createSymbolicLink(
                atPath: folder.appendingPathComponent("15-linked.conf").path, withDestinationPath: elsewhere.path)
            let later = Location.systemRoot(in: root.appendingPathComponent("later")).appendingPathComponent("app.d")
            try FileManager.default.createDirectory(at: later, withIntermediateDirectories: true)
            try write("fontSize = 60\ntheme = dark\nsince = 2026-01-01\n", "99.conf", in: later)
            let defaults = try open(root, more: ["later"])
            #expect(try defaults.value(forKey: "compact") == true, "a symbolic link is followed")
            #expect(
                try defaults.value(forKey: "since") != nil, "a later system directory's folder answers what earlier ones do not")
            #expect(try defaults.value(forKey: "fontSize") == 20, "the later file wins; the earlier directory wins")
            #expect(try defaults.value(forKey: "theme") == "light")
            #expect(
                defaults.explain("fontSize").layers.contains {
                    $0.origin == folder.appendingPathComponent("20-b.conf").path + ":1"
                })
        }
    }

    /// What `prefs --managed write` and `prefs --system write` set (the databases) comes before the files.
    @Test func eachLayersDatabaseComesBeforeItsDropIns() throws {
        try withTemporaryRoot { root in
            let system = root.appendingPathComponent("xdg")
            let databases: [(URL, [String: PreferenceValue])] = [
                (Location.managedRoot(in: system), ["theme": "dark"]), (Location.systemRoot(in: system), ["fontSize": 20]),
            ]
            for (directory, values) in databases {
                try Defaults(
                    suiteName: "app", configuration: .init(location: .directory(directory), arguments: [], systemDirectories: [])
                )
                .replacePersistentValues(values)
            }
            try write("theme = light\n", "10.conf", in: try makeFolder(in: root, managed: true))
            try write("fontSize = 30\n", "10.conf", in: try makeFolder(in: root))
            let defaults = try open(root)
            #expect(try defaults.value(forKey: "theme") == "dark")
            #expect(try defaults.value(forKey: "fontSize") == 20)
            #expect(
                defaults.searchList.list.map(\.layer) == [
                    .managed, .managed, .arguments, .persistent, .global, .system, .system, .registration, .schemaDefault,
                ])
        }
    }

    /// A file that cannot be applied is left out whole, reported once with its path and line (never a
    /// value), and the folder's other files still apply.
    @Test func aBadFileChangesNothingAndIsReported() throws {
        try withTemporaryRoot { root in
            let folder = try makeFolder(in: root)
            try write("fontSize = 14\n", "10-good.conf", in: folder)
            try write("theme = dark\nthis line has no equals sign secret-text\n", "20-syntax.conf", in: folder)
            try write("tags = (a)\nfontSize = 9000\n", "30-type.conf", in: folder)
            try write("unknownKey = sneaky-value\n", "40-undeclared.conf", in: folder)
            try write("fontSize = 31\n" + String(repeating: "# padding\n", count: 30_000), "50-big.conf", in: folder)
            try FileManager.default.createSymbolicLink(
                atPath: folder.appendingPathComponent("60-loop.conf").path, withDestinationPath: "60-loop.conf")
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("70-folder.conf"), withIntermediateDirectories: true)
            try write("tags = (x)\ncompact = yes\ntags = (y)\n", "80-twice.conf", in: folder)
            try Data([0x74, 0x61, 0x67, 0x73, 0x20, 0x3D, 0x20, 0xFF, 0x0A]).write(
                to: folder.appendingPathComponent("90-binary.conf"))
            let lock = try makeFolder(in: root, managed: true)
            try write("theme = dark\nbogus\n", "10-bad-lock.conf", in: lock)
            let errors = ReportedErrors()
            let defaults = try open(root, errors: errors)
            for _ in 0..<3 {
                #expect(try defaults.value(forKey: "fontSize") == 14, "only the good file applies")
                #expect(try defaults.value(forKey: "theme") == "system", "the schema's default: no file set it")
                #expect(try defaults.value(forKey: "tags") == nil)
                #expect(try defaults.value(forKey: "compact") == false, "the file setting a key twice is left out whole")
                #expect(try defaults.value(forKey: "unknownKey") == nil)
            }
            func path(_ name: String, in base: URL = folder) -> String { base.appendingPathComponent(name).path }
            let found = errors.all.compactMap { error -> String? in
                guard case .invalidDropIn(let file, let line, _) = error else { return nil }
                return URL(fileURLWithPath: file).lastPathComponent + (line.map { ":\($0)" } ?? "")
            }
            #expect(
                Set(found) == [
                    "10-bad-lock.conf:2", "20-syntax.conf:2", "30-type.conf:2", "40-undeclared.conf:1", "50-big.conf",
                    "60-loop.conf", "70-folder.conf", "80-twice.conf:3", "90-binary.conf",
                ])
            #expect(found.count == errors.all.count, "each reported once, nothing else")
            for error in errors.all {
                let message = error.description.replacingOccurrences(of: root.path, with: "")
                for value in ["secret-text", "9000", "sneaky-value", "dark", "31"] {
                    #expect(!message.contains(value), "no value in \(message)")
                }
            }
            try defaults.write("light", forKey: "theme")
            #expect(try defaults.value(forKey: "theme") == "light", "a bad managed file forces nothing")
            let why = defaults.explain("tags")
            #expect(
                why.layers.contains { layer in
                    guard case .unreadable(.invalidDropIn(path("20-syntax.conf"), 2, _)) = layer.answer else { return false }
                    return layer.origin == path("20-syntax.conf")
                }, "explain names the first file left out")
        }
    }

    @Test(.enabled(if: geteuid() != 0, "the superuser reads any file"))
    func anUnreadableFileIsReported() throws {
        try withTemporaryRoot { root in
            let folder = try makeFolder(in: root)
            try write("fontSize = 14\n", "10-closed.conf", in: folder)
            let file = folder.appendingPathComponent("10-closed.conf").path
            try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: file)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file) }
            let errors = ReportedErrors()
            let defaults = try open(root, errors: errors)
            #expect(try defaults.value(forKey: "fontSize") == 12)
            guard case .invalidDropIn(file, nil, _)? = errors.all.first else {
                Issue.record("not reported: \(errors.all)")
                return
            }
        }
    }

    /// A file added, changed in place or removed while a store is open is read by the next read, though
    /// the answer before it was remembered.
    @Test func aFileAddedChangedOrRemovedWhileOpenIsReadAtOnce() throws {
        try withTemporaryRoot { root in
            let folder = try makeFolder(in: root)
            let lock = try makeFolder(in: root, managed: true)
            let defaults = try open(root)
            #expect(try defaults.value(forKey: "fontSize") == 12)
            try write("fontSize = 14\n", "10-a.conf", in: folder)
            #expect(try defaults.value(forKey: "fontSize") == 14, "added")
            try write("fontSize = 15\n", "10-a.conf", in: folder)
            #expect(try defaults.value(forKey: "fontSize") == 15, "changed in place, to as many bytes")
            try write("fontSize = 16\n", "20-b.conf", in: folder)
            #expect(try defaults.value(forKey: "fontSize") == 16)
            try write("fontSize = 17\n", "10-lock.conf", in: lock)
            #expect(try defaults.value(forKey: "fontSize") == 17, "forced")
            #expect(throws: DefaultsError.forced(suite: "app", key: "fontSize")) { try defaults.write(20, forKey: "fontSize") }
            try FileManager.default.removeItem(at: lock.appendingPathComponent("10-lock.conf"))
            try defaults.write(20, forKey: "fontSize")
            try defaults.write(nil, forKey: "fontSize")
            try FileManager.default.removeItem(at: folder.appendingPathComponent("20-b.conf"))
            #expect(try defaults.value(forKey: "fontSize") == 15, "removed")
            try FileManager.default.removeItem(at: folder.appendingPathComponent("10-a.conf"))
            #expect(try defaults.value(forKey: "fontSize") == 12)
        }
    }

    /// Once its files are old enough to be told from a change (coarse timestamps), a folder's look is the
    /// same while nothing changes, so a remembered answer stands; any change moves it.
    @Test func aSettledFolderKeepsItsFingerprintUntilAFileChanges() throws {
        try withTemporaryRoot { root in
            let folder = try makeFolder(in: root)
            try write("fontSize = 14\n", "10-a.conf", in: folder)
            let deadline = ContinuousClock.now + .seconds(30)
            while FolderFingerprint(of: folder.path).hash == nil, ContinuousClock.now < deadline { usleep(50_000) }
            let settled = try #require(FolderFingerprint(of: folder.path).hash)
            #expect(FolderFingerprint(of: folder.path).hash == settled)
            #expect(FolderFingerprint(of: folder.path).names == ["10-a.conf"])
            let defaults = try open(root)
            #expect(try defaults.value(forKey: "fontSize") == 14)
            let stamp = defaults.searchList.stamp
            #expect(try defaults.value(forKey: "fontSize") == 14)
            #expect(defaults.searchList.stamp == stamp, "nothing changed")
            try write("fontSize = 15\n", "10-a.conf", in: folder)
            #expect(FolderFingerprint(of: folder.path).hash != settled)
            #expect(defaults.searchList.stamp != stamp)
            #expect(try defaults.value(forKey: "fontSize") == 15)
        }
    }

    @Test func aDropInChangeIsObserved() async throws {
        try await withTemporaryRoot { root in
            let folder = try makeFolder(in: root)
            let lock = try makeFolder(in: root, managed: true)
            let defaults = try open(root)
            let changes = ObservedValues(defaults.changes(of: .key("fontSize"), initial: false))
            try write("fontSize = 14\n", "10-a.conf", in: folder)
            #expect(try await changes.first(1) == [14])
            try write("fontSize = 20\n", "10-lock.conf", in: lock)
            #expect(try await changes.first(2) == [14, 20])
        }
    }

    /// Without drop-in folders the search list holds no drop-in layer: nothing of them is looked at
    /// while reading.
    @Test func aDomainWithoutDropInFoldersHasNoDropInLayer() throws {
        try withTemporaryRoot { root in
            try FileManager.default.createDirectory(
                at: Location.managedRoot(in: root.appendingPathComponent("xdg")), withIntermediateDirectories: true)
            let defaults = try open(root)
            #expect(try defaults.value(forKey: "fontSize") == 12)
            #expect(defaults.searchList.managedDropIns.isEmpty)
            #expect(!defaults.searchList.list.contains { $0 is DropInLayer })
            #expect(defaults.searchList.watchedStores.allSatisfy { !($0.path ?? "").hasSuffix("/*") })
            try write("fontSize = 14\n", "10.conf", in: try makeFolder(in: root, managed: true))
            #expect(try defaults.value(forKey: "fontSize") == 12, "a folder made later is searched by instances made later")
            #expect(try open(root).value(forKey: "fontSize") == 14)
        }
    }

    /// A forced value reads as itself, before a typed key's own accepted values (as a managed database's).
    @Test func aForcedValueReadsAsItselfForATypedKeyOfItsOwnRules() throws {
        try withTemporaryRoot { root in
            try write("mode = fast\n", "10.conf", in: try makeFolder(in: root, managed: true))
            let defaults = try open(root, schema: nil)
            let mode = Defaults.Key<String>("mode", default: "slow", accepts: .choices(["slow", "safe"]))
            #expect(defaults[mode] == "fast")
            #expect(throws: DefaultsError.forced(suite: "app", key: "mode")) { try defaults.write("safe", for: mode) }
        }
    }

    /// Without a schema a value is text, or property-list text, as a launch argument is; a drop-in of a
    /// suite whose schema refuses undeclared keys cannot add one.
    @Test func withoutASchemaValuesAreTextOrPropertyLists() throws {
        try withTemporaryRoot { root in
            let folder = try makeFolder(in: root)
            try write("name = A B \nquoted = \" padded \"\nlist = (1, 2)\nequation = a=b\nempty =\n", "10.conf", in: folder)
            let defaults = try open(root, schema: nil)
            #expect(try defaults.value(forKey: "name") == "A B")
            #expect(try defaults.value(forKey: "quoted") == " padded ")
            #expect(try defaults.value(forKey: "list") == ["1", "2"])
            #expect(try defaults.value(forKey: "equation") == "a=b", "the first '=' ends the key")
            #expect(try defaults.value(forKey: "empty") == "")
        }
    }
}
