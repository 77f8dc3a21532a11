import Foundation
import LayeredDefaultsTesting
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// Sync through a folder, without a sync engine: each device has its own store root and shares one
/// folder, as an engine that replicated it at once would leave it.
@Suite struct SyncTests {
    static let suite = "com.example.sync"

    static let fontSize = Defaults.Key<Int>("fontSize", default: 12, summary: "The font size", accepts: .integers(6...72))
        .syncing()
    static let theme = Defaults.Key<String>("theme", default: "system", summary: "The colour scheme").syncing()
    static let windowWidth = Defaults.Key<Int>("windowWidth", default: 800, summary: "The window's width")

    static let schema = try! PreferenceSchema(suiteName: suite, version: 1, keys: fontSize, theme, windowWidth)

    /// A device `id` with its own root under `root`, syncing through `root/folder`.
    func device(
        _ id: String, in root: URL, errors: ReportedErrors = ReportedErrors(), systemDirectories: [URL] = [],
        arguments: [String] = []
    ) throws -> Defaults {
        var configuration = Defaults.Configuration(
            location: .directory(root.appendingPathComponent("device-\(id)")), arguments: arguments,
            systemDirectories: systemDirectories,
            schema: Self.schema, errorHandler: errors.record)
        configuration.sync = Defaults.SyncFolder(folder: folder(in: root), deviceID: id)
        return try Defaults(suiteName: Self.suite, configuration: configuration)
    }

    func folder(in root: URL) -> URL { root.appendingPathComponent("folder") }

    /// The domain of device `id` (see ``device(_:in:errors:systemDirectories:arguments:)``), for backup and restore.
    func domain(of id: String, in root: URL) throws -> Defaults.Domain {
        try Defaults.Domain(Self.suite, location: .directory(root.appendingPathComponent("device-\(id)")), systemDirectories: [])
    }

    func syncFile(of device: String, in root: URL) -> URL {
        folder(in: root).appendingPathComponent(Self.suite).appendingPathComponent(device + ".json")
    }

    /// Writes a device's file as another device would, with `entries` of (key, wall, value or nil).
    func writeFile(
        of device: String, in root: URL, entries: [(String, Int64, PreferenceValue?)], format: Int = 1,
        claiming claimed: String? = nil
    ) throws {
        var members: [String: SyncFile.Entry] = [:]
        for (key, wall, value) in entries {
            members[key] = SyncFile.Entry(clock: SyncClock(wall: wall, counter: 0, device: device), value: value)
        }
        var data = try SyncFile(suite: Self.suite, device: claimed ?? device, entries: members).encoded()
        if format != 1 {
            data = Data(
                String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\"format\":1", with: "\"format\":\(format)").utf8)
        }
        let url = syncFile(of: device, in: root)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    static var now: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    @Test func aWriteOnOneDeviceIsReadOnAnother() throws {
        try withTemporaryRoot { root in
            let laptop = try device("laptop", in: root)
            try laptop.write(14, for: Self.fontSize)
            let desk = try device("desk", in: root)
            #expect(desk[Self.fontSize] == 14)
            #expect(try desk.persistentValue(for: Self.fontSize) == 14)
            try laptop.write("dark", for: Self.theme)
            let report = try desk.mergeSyncFolder()
            #expect(report.changedKeys == ["theme"])
            #expect(desk[Self.theme] == "dark")
        }
    }

    @Test func writesOfOneKeyOnTwoDevicesConvergeToOneValue() throws {
        try withTemporaryRoot { root in
            let laptop = try device("laptop", in: root)
            let desk = try device("desk", in: root)
            try laptop.write(20, for: Self.fontSize)
            try desk.write(30, for: Self.fontSize)  // later: its clock is higher
            try laptop.mergeSyncFolder()
            try desk.mergeSyncFolder()
            try laptop.mergeSyncFolder()
            #expect(laptop[Self.fontSize] == 30)
            #expect(desk[Self.fontSize] == 30)
        }
    }

    /// Whatever order the other devices' files arrive in, each device ends with the change of the highest
    /// clock (wall time, then device id on a tie).
    @Test func theWinnerDoesNotDependOnTheOrderFilesArrive() throws {
        let files: [(String, Int64, PreferenceValue?)] = [
            ("a", Self.now - 5_000, 10), ("b", Self.now - 1_000, 40), ("c", Self.now - 1_000, 50), ("d", Self.now - 3_000, nil),
        ]
        let orders = [[0, 1, 2, 3], [3, 2, 1, 0], [2, 0, 3, 1], [1, 3, 0, 2]]
        for order in orders {
            try withTemporaryRoot { root in
                let receiver = try device("receiver", in: root)
                for index in order {
                    let (device, wall, value) = files[index]
                    try writeFile(of: device, in: root, entries: [("fontSize", wall, value)])
                    try receiver.mergeSyncFolder()
                }
                // "c" and "b" tie on the wall clock; "c" is the higher device id.
                #expect(receiver[Self.fontSize] == 50, "arrival order \(order)")
            }
        }
    }

    @Test func aRemovalTravelsAsATombstone() throws {
        try withTemporaryRoot { root in
            let laptop = try device("laptop", in: root)
            let desk = try device("desk", in: root)
            try laptop.write(14, for: Self.fontSize)
            try desk.mergeSyncFolder()
            #expect(try desk.persistentValue(for: Self.fontSize) == 14)
            try laptop.reset(Self.fontSize)
            let report = try desk.mergeSyncFolder()
            #expect(report.changedKeys == ["fontSize"])
            #expect(try desk.persistentValue(for: Self.fontSize) == nil)
            let text = try String(contentsOf: syncFile(of: "laptop", in: root), encoding: .utf8)
            #expect(text.contains("\"removed\":true"))
        }
    }

    /// A new device's defaults, registered values and schema defaults never travel: it takes the value
    /// the other devices synced, and its file holds no change of its own.
    @Test func aFirstLaunchKeepsTheSyncedValues() throws {
        try withTemporaryRoot { root in
            let laptop = try device("laptop", in: root)
            try laptop.write(14, for: Self.fontSize)
            try laptop.write(1024, for: Self.windowWidth)
            let fresh = try device("fresh", in: root, arguments: ["-theme", "sepia"])
            fresh.register(["fontSize": 9, "theme": "light"])
            #expect(fresh[Self.theme] == "sepia")
            #expect(fresh[Self.fontSize] == 14)
            #expect(fresh[Self.windowWidth] == 800, "a key that does not sync stays on its device")
            try fresh.mergeSyncFolder()
            try laptop.mergeSyncFolder()
            #expect(laptop[Self.fontSize] == 14)
            #expect(laptop[Self.theme] == "system", "a registered value or an argument never travels")
            let file = try SyncFile.parse(
                Data(contentsOf: syncFile(of: "fresh", in: root)), path: "fresh.json", suite: Self.suite, device: "fresh")
            #expect(file.entries.keys.sorted() == ["fontSize"], "no default, registered value or local key")
            #expect(file.entries.values.allSatisfy { $0.clock.device == "laptop" }, "the new device made no change of its own")
        }
    }

    /// A device that was away for weeks merges the newer changes; its own old change loses.
    @Test func aDeviceBackAfterWeeksMergesAndDoesNotOverwrite() throws {
        try withTemporaryRoot { root in
            let weeks: Int64 = 21 * 24 * 3_600_000
            try writeFile(
                of: "old", in: root, entries: [("fontSize", Self.now - weeks, 30), ("theme", Self.now - weeks, "light")])
            let laptop = try device("laptop", in: root)
            #expect(laptop[Self.fontSize] == 30, "an old change is still a change where nothing newer is known")
            try laptop.write(14, for: Self.fontSize)
            try laptop.mergeSyncFolder()
            #expect(laptop[Self.fontSize] == 14)
            #expect(laptop[Self.theme] == "light")
        }
    }

    @Test func hostileFilesAreSkippedWholeAndReported() throws {
        try withTemporaryRoot { root in
            let errors = ReportedErrors()
            let laptop = try device("laptop", in: root, errors: errors)
            let directory = folder(in: root).appendingPathComponent(Self.suite)
            // A whole file, then the same cut short (torn).
            try writeFile(of: "torn", in: root, entries: [("fontSize", Self.now, 61), ("theme", Self.now, "secret-torn")])
            let whole = try Data(contentsOf: syncFile(of: "torn", in: root))
            try whole.prefix(whole.count - 20).write(to: syncFile(of: "torn", in: root))
            try Data([0xFF, 0x00, 0x13, 0x37]).write(to: directory.appendingPathComponent("garbage.json"))
            try writeFile(of: "future", in: root, entries: [("theme", Self.now, "secret-future")], format: 2)
            try writeFile(of: "mallory", in: root, entries: [("theme", Self.now, "secret-mallory")], claiming: "desk")
            try writeFile(of: "desk", in: root, entries: [("fontSize", Self.now - 10_000, 16)])
            try Data(
                #"{"format":1,"suite":"com.example.sync","device":"overflow","entries":{"theme":{"wall":9223372036854775807,"counter":9223372036854775807,"device":"overflow","value":{"string":"secret-overflow"}}}}"#
                    .utf8
            ).write(to: directory.appendingPathComponent("overflow.json"))
            let oversized = Data(repeating: UInt8(ascii: " "), count: SyncFile.maximumSize + 1)
            try oversized.write(to: directory.appendingPathComponent("huge.json"))
            let report = try laptop.mergeSyncFolder()
            #expect(report.mergedDevices == ["desk"])
            #expect(report.skippedFiles.count == 6)
            #expect(laptop[Self.fontSize] == 16, "only the sound file was merged")
            #expect(laptop[Self.theme] == "system", "nothing of the torn file was merged")
            #expect(errors.all.count >= 6)
            #expect(errors.all.contains { $0.description.contains("overflow.json") && $0.description.contains("invalid clock") })
            #expect(errors.all.allSatisfy { !$0.description.contains("secret") }, "no message quotes a value")
            #expect(errors.all.contains { $0.description.contains("newer format") })
            #expect(errors.all.contains { $0.description.contains("claims another device") })
            #expect(errors.all.contains { $0.description.contains("larger than") })
            #expect(
                FileManager.default.fileExists(atPath: directory.appendingPathComponent("garbage.json").path), "left untouched")
        }
    }

    /// A writer killed while writing its file leaves only its temporary file, which no device merges;
    /// an engine that wrote in place leaves a torn file, skipped whole.
    @Test func whatAKilledWriterLeavesIsNotMergedInPart() throws {
        try withTemporaryRoot { root in
            let laptop = try device("laptop", in: root)
            try laptop.write(14, for: Self.fontSize)
            let directory = folder(in: root).appendingPathComponent(Self.suite)
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(names == ["laptop.json"], "the writer's own temporary file is renamed in: \(names)")
            let whole = try Data(contentsOf: syncFile(of: "laptop", in: root))
            try whole.prefix(whole.count / 2).write(to: directory.appendingPathComponent(".syncthing.killed.json.1234.tmp"))
            let desk = try device("desk", in: root)
            let report = try desk.mergeSyncFolder()
            #expect(report.mergedDevices == ["laptop"])
            #expect(report.skippedFiles.isEmpty, "a temporary file is not read at all")
            #expect(desk[Self.fontSize] == 14)
        }
    }

    @Test func anArrivingValueTheSchemaRefusesIsReportedAndNotStored() throws {
        try withTemporaryRoot { root in
            let errors = ReportedErrors()
            try writeFile(of: "desk", in: root, entries: [("fontSize", Self.now, 500), ("theme", Self.now, "dark")])
            let laptop = try device("laptop", in: root, errors: errors)
            #expect(try laptop.persistentValue(for: Self.fontSize) == nil)
            #expect(laptop[Self.theme] == "dark", "the rest of the file is merged")
            let report = try laptop.mergeSyncFolder()
            #expect(report.refusedKeys == ["fontSize"], "tried again at each merge: a newer schema may accept it")
            #expect(errors.all.contains { $0.description.contains("'fontSize'") && !$0.description.contains("500") })
            #expect(
                errors.all.contains { if case .valueNotAccepted(_, "fontSize", _) = $0 { true } else { false } },
                "reported as the refusal it is, not as a file that was not used")
        }
    }

    /// A file holding a clock at the bounds every reader checks (a hostile one) does not make this
    /// device's own file unreadable to the others: its next change stays within them.
    @Test func aClockAtTheBoundsDoesNotCutADeviceOff() throws {
        try withTemporaryRoot { root in
            let evil = SyncFile.Entry(
                clock: SyncClock(wall: SyncFile.maximumWall, counter: SyncFile.maximumCounter, device: "evil"), value: 7)
            let data = try SyncFile(suite: Self.suite, device: "evil", entries: ["fontSize": evil]).encoded()
            try FileManager.default.createDirectory(
                at: syncFile(of: "evil", in: root).deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: syncFile(of: "evil", in: root))
            let laptop = try device("laptop", in: root)
            #expect(laptop[Self.fontSize] == 7)
            try laptop.write(50, for: Self.fontSize)
            let errors = ReportedErrors()
            let desk = try device("desk", in: root, errors: errors)
            #expect(!errors.all.contains { $0.description.contains("laptop") }, "the laptop's file is read: \(errors.all)")
            #expect(desk[Self.fontSize] == laptop[Self.fontSize], "both read one value")
        }
    }

    /// One merge reads at most `maximumSyncBytes` of files, all together: what a folder of many large files
    /// costs a launch is bounded, and the files past the bound are skipped and reported.
    @Test func aMergeReadsABoundedNumberOfBytes() throws {
        try withTemporaryRoot { root in
            let directory = syncFile(of: "x", in: root).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let large = Data(repeating: UInt8(ascii: "x"), count: SyncFile.maximumSize)
            let count = Defaults.maximumSyncBytes / SyncFile.maximumSize + 1
            for index in 0..<count { try large.write(to: directory.appendingPathComponent("junk\(index).json")) }
            let errors = ReportedErrors()
            let laptop = try device("laptop", in: root, errors: errors)
            let report = try laptop.mergeSyncFolder()
            #expect(report.skippedFiles.count == count)
            #expect(report.skippedFiles.filter { $0.description.contains("MiB together") }.count == 1)
        }
    }

    /// Only keys the schema marks as syncing travel, either way.
    @Test func aKeyThatDoesNotSyncStaysLocal() throws {
        try withTemporaryRoot { root in
            try writeFile(of: "desk", in: root, entries: [("windowWidth", Self.now, 333)])
            let laptop = try device("laptop", in: root)
            #expect(laptop[Self.windowWidth] == 800)
            try laptop.write(1200, for: Self.windowWidth)
            #expect(!FileManager.default.fileExists(atPath: syncFile(of: "laptop", in: root).path))
        }
    }

    /// With sync off, a write stamps nothing: the domain's file has no clocks' table.
    @Test func withSyncOffNothingOfItRuns() throws {
        try withTemporaryRoot { root in
            let defaults = try Defaults(
                suiteName: Self.suite,
                configuration: .init(location: .directory(root), arguments: [], systemDirectories: [], schema: Self.schema))
            try defaults.write(14, for: Self.fontSize)
            #expect(try defaults.persistentStoreForTesting.reading { try $0.hasSyncClocks() } == false)
            #expect(defaults.syncFilePath == nil)
            #expect(try defaults.mergeSyncFolder() == Defaults.SyncReport())
            #expect(defaults.syncWatch == nil, "an observation looks at no sync folder")
        }
    }

    /// A merged change reaches observers as any other commit does.
    @Test func aMergedChangeReachesObservers() async throws {
        try await withTemporaryRoot { root in
            let desk = try device("desk", in: root)
            let values = ObservedValues(desk.changes(of: .key(Self.fontSize)))
            #expect(try await values.first(1) == [12])
            try device("laptop", in: root).write(18, for: Self.fontSize)
            try desk.mergeSyncFolder()
            #expect(try await values.until { $0.last == 18 }.last == 18)
        }
    }

    /// Writes a device's file as an engine does: whole, renamed into place.
    func dropFile(of device: String, in root: URL, entries: [(String, Int64, PreferenceValue?)]) throws {
        let staging = root.appendingPathComponent("staging")
        try writeFile(of: device, in: staging, entries: entries)
        let url = syncFile(of: device, in: root)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard rename(syncFile(of: device, in: staging).path, url.path) == 0 else { throw POSIXError(.EIO) }
    }

    /// While a syncing instance is observed, another device's file arriving in the folder is merged
    /// without anyone calling merge, and observers see the change; so is each later one.
    @Test func aFileArrivingWhileObservedIsMergedAndObserved() async throws {
        try await withTemporaryRoot { root in
            try dropFile(of: "laptop", in: root, entries: [("theme", Self.now - 5_000, "dark")])
            let desk = try device("desk", in: root)
            #expect(desk[Self.theme] == "dark")
            let values = ObservedValues(desk.changes(of: .key(Self.fontSize)))
            #expect(try await values.first(1) == [12])
            try dropFile(of: "laptop", in: root, entries: [("theme", Self.now - 5_000, "dark"), ("fontSize", Self.now, 18)])
            #expect(try await values.until { $0.last == 18 }.last == 18)
            try dropFile(of: "phone", in: root, entries: [("fontSize", Self.now + 1_000, 20)])
            #expect(try await values.until { $0.last == 20 }.last == 20)
            #expect(try desk.persistentValue(for: Self.fontSize) == 20, "merged into the domain, not only read")
        }
    }

    /// The suite's directory in the folder, missing while the instance is first observed (no device has
    /// written yet), is followed once it appears.
    @Test func aSuiteDirectoryThatAppearsWhileObservedIsFollowed() async throws {
        try await withTemporaryRoot { root in
            try FileManager.default.createDirectory(at: folder(in: root), withIntermediateDirectories: true)
            let desk = try device("desk", in: root)
            let values = ObservedValues(desk.changes(of: .key(Self.fontSize)))
            #expect(try await values.first(1) == [12])
            try dropFile(of: "laptop", in: root, entries: [("fontSize", Self.now, 18)])
            #expect(try await values.until { $0.last == 18 }.last == 18)
            try dropFile(of: "phone", in: root, entries: [("fontSize", Self.now + 1_000, 20)])
            #expect(try await values.until { $0.last == 20 }.last == 20)
        }
    }

    /// The watch asks the observations to follow the suite's directory again once, when it appears (a
    /// directory missing when followed has no watch), and merges only when the other devices' files
    /// moved: this device's own file, and the directory's own status, move nothing.
    @Test func theWatchFollowsADirectoryThatAppearsAndMergesOnlyWhatMoved() throws {
        try withTemporaryRoot { root in
            let desk = try device("desk", in: root)
            let directory = folder(in: root).appendingPathComponent(Self.suite)
            let requests = Lock(0)
            let watch = SyncFolderWatch(directory: directory, suite: Self.suite, ownFileName: "desk.json") {
                requests.withLock { $0 += 1 }
            }
            #expect(watch.mergeIfChanged(desk), "the first look merges")
            #expect(requests.withLock { $0 } == 0, "missing at the first look: nothing to follow again yet")
            #expect(!watch.mergeIfChanged(desk))
            try dropFile(of: "laptop", in: root, entries: [("fontSize", Self.now, 18)])
            #expect(watch.mergeIfChanged(desk))
            #expect(requests.withLock { $0 } == 1, "the directory appeared: followed again")
            #expect(try desk.persistentValue(for: Self.fontSize) == 18)
            try desk.write(30, for: Self.fontSize)  // renames this device's own file in
            #expect(FileManager.default.fileExists(atPath: syncFile(of: "desk", in: root).path))
            #expect(!watch.mergeIfChanged(desk), "this device's own file moves nothing")
            #expect(requests.withLock { $0 } == 1)
            try dropFile(of: "phone", in: root, entries: [("fontSize", Self.now + 60_000, 20)])
            #expect(watch.mergeIfChanged(desk))
            #expect(try desk.persistentValue(for: Self.fontSize) == 20)
        }
    }

    /// A syncing domain's file, clocks' table and all, backs up and restores; and a restore is a change the
    /// user asked for on this device: the restored values (and the removal of a synced key the backup lacks)
    /// travel as new changes and win over the older changes of every device.
    @Test func aRestoreTravelsAsANewLocalChange() throws {
        try withTemporaryRoot { root in
            let laptop = try device("laptop", in: root)
            try laptop.write(14, for: Self.fontSize)
            let backup = root.appendingPathComponent("backup.sqlite3")
            let domain = try self.domain(of: "laptop", in: root)
            try domain.backup(to: backup)
            try laptop.write("dark", for: Self.theme)
            let desk = try device("desk", in: root)
            try desk.write(30, for: Self.fontSize)  // later than the backed-up change
            try laptop.mergeSyncFolder()
            #expect(laptop[Self.fontSize] == 30)
            try domain.restore(from: backup)
            let restored = try device("laptop", in: root)  // merges at open
            #expect(restored[Self.fontSize] == 14, "the restored value is not overwritten by the older synced one")
            #expect(try restored.persistentValue(for: Self.theme) == nil)
            try desk.mergeSyncFolder()
            #expect(desk[Self.fontSize] == 14, "the restored value travels and wins")
            #expect(try desk.persistentValue(for: Self.theme) == nil, "the removal of a key the backup lacks travels")
        }
    }

    @Test func theSchemaFileCarriesWhetherAKeySyncs() throws {
        let data = try Self.schema.jsonData()
        #expect(String(decoding: data, as: UTF8.self).contains("\"syncs\" : true"))
        #expect(String(decoding: data, as: UTF8.self).contains("\"format\" : 3"), "syncs is of format 3")
        let read = try PreferenceSchema(jsonData: data, path: "schema.json")
        #expect(read.entry(named: "fontSize")?.syncs == true)
        #expect(read.entry(named: "windowWidth")?.syncs == false)
    }

    /// A schema with no key that syncs is written as format 2, which earlier releases read; `syncs` in a
    /// file of format 2 (which those releases would refuse as malformed) is refused.
    @Test func onlyASchemaWithASyncingKeyIsOfFormat3() throws {
        let local = try PreferenceSchema(suiteName: Self.suite, version: 1, keys: Self.windowWidth)
        let text = String(decoding: try local.jsonData(), as: UTF8.self)
        #expect(text.contains("\"format\" : 2"))
        #expect(try PreferenceSchema(jsonData: Data(text.utf8), path: "local.json") == local)
        let synced = String(decoding: try Self.schema.jsonData(), as: UTF8.self)
        let asFormat2 = Data(synced.replacingOccurrences(of: "\"format\" : 3", with: "\"format\" : 2").utf8)
        #expect {
            try PreferenceSchema(jsonData: asFormat2, path: "schema.json")
        } throws: {
            "\($0)".contains("syncs and keepsHistory are not members of format 2")
        }
    }

    /// Only a user's own domain syncs: a system-wide layer's domain, or a device id that cannot name a
    /// file, is refused at opening, and nothing is made.
    @Test func aSyncThatCannotBeIsRefusedAtOpening() throws {
        try withTemporaryRoot { root in
            let managed = try Defaults.Domain(
                Self.suite, layer: .managed, location: .directory(root.appendingPathComponent("user")),
                systemDirectories: [root.appendingPathComponent("xdg")])
            var configuration = managed.configuration(errorHandler: { _ in })
            configuration.sync = Defaults.SyncFolder(folder: folder(in: root), deviceID: "admin")
            #expect(
                throws: DefaultsError.syncNotPossible(suite: Self.suite, reason: "a domain of a system-wide layer never syncs")
            ) {
                try Defaults(suiteName: Self.suite, configuration: configuration)
            }
            var user = Defaults.Configuration(location: .directory(root), arguments: [], systemDirectories: [])
            user.sync = Defaults.SyncFolder(folder: folder(in: root), deviceID: "../x")
            #expect {
                try Defaults(suiteName: Self.suite, configuration: user)
            } throws: {
                if case .syncNotPossible(Self.suite, _) = $0 as? DefaultsError { true } else { false }
            }
            #expect(FileManager.default.subpaths(atPath: root.path)?.isEmpty ?? true, "nothing was made")
        }
    }

    @Test func aDomainsSyncStatusMakesNothingAndItsMergeReportsWhatMoved() throws {
        try withTemporaryRoot { root in
            try writeFile(of: "laptop", in: root, entries: [("theme", 1_000, "dark")])
            let location = root.appendingPathComponent("desktop")
            let domain = try Defaults.Domain(Self.suite, location: .directory(location), systemDirectories: [])
            let sync = Defaults.SyncFolder(folder: folder(in: root))
            let status = try domain.syncStatus(through: sync, errorHandler: { _ in })
            #expect(status.deviceID == nil && status.filePath == nil, "no device id is made by asking")
            #expect(status.devices == ["laptop"])
            #expect(!FileManager.default.fileExists(atPath: location.path), "asking made nothing")

            try domain.installSchema(Self.schema)
            let report = try domain.mergeSyncFolder(sync, errorHandler: { _ in })
            #expect(report.changedKeys == ["theme"] && report.mergedDevices == ["laptop"])
            #expect(try domain.open().string(forKey: "theme") == "dark")
            let made = try domain.syncStatus(through: sync, errorHandler: { _ in })
            #expect(made.deviceID != nil && made.syncedKeys == ["theme"], "the merge made this device's id and file")
        }
    }

    @Test func aDeviceIDIsMadeOnceAndKept() throws {
        try withTemporaryRoot { root in
            func open() throws -> Defaults {
                var configuration = Defaults.Configuration(location: .directory(root), arguments: [], systemDirectories: [])
                configuration.sync = Defaults.SyncFolder(folder: folder(in: root))
                return try Defaults(suiteName: Self.suite, configuration: configuration)
            }
            let first = try #require(try open().syncDeviceID)
            #expect(try open().syncDeviceID == first)
            #expect(Defaults.SyncFolder.isValidDeviceID(first))
        }
    }
    /// A store of device `id`'s root that does not sync (`prefs` without a folder, the app before it synced).
    func unsynced(_ id: String, in root: URL) throws -> Defaults {
        try Defaults(
            suiteName: Self.suite,
            configuration: .init(
                location: .directory(root.appendingPathComponent("device-\(id)")), arguments: [], systemDirectories: [],
                schema: Self.schema))
    }

    /// Values stored before a device synced travel with the lowest clock: they lose to every synced change
    /// and fill only keys no device changed.
    @Test func valuesStoredBeforeSyncingLoseToSyncedChanges() throws {
        try withTemporaryRoot { root in
            let laptop = try device("laptop", in: root)
            try laptop.write(14, for: Self.fontSize)
            let before = try unsynced("desk", in: root)
            try before.write(20, for: Self.fontSize)
            try before.write("dark", for: Self.theme)
            let desk = try device("desk", in: root)
            #expect(desk[Self.fontSize] == 14)
            try laptop.mergeSyncFolder()
            #expect(laptop[Self.fontSize] == 14)
            #expect(laptop[Self.theme] == "dark")
        }
    }

    /// A change of a synced key by a writer that does not sync is stamped at the next merge and travels.
    @Test func aChangeByAWriterThatDoesNotSyncTravelsAtTheNextMerge() throws {
        try withTemporaryRoot { root in
            let laptop = try device("laptop", in: root)
            try laptop.write(14, for: Self.fontSize)
            let desk = try device("desk", in: root)
            try unsynced("desk", in: root).write(30, for: Self.fontSize)
            try desk.mergeSyncFolder()
            try laptop.mergeSyncFolder()
            #expect(laptop[Self.fontSize] == 30)
            #expect(desk[Self.fontSize] == 30)
        }
    }
    /// A key the managed domain forces keeps its row: the change that arrives for it is refused and reported.
    @Test func aForcedKeyKeepsItsRowWhenAChangeArrives() throws {
        try withTemporaryRoot { root in
            let xdg = root.appendingPathComponent("xdg")
            try Defaults(
                suiteName: Self.suite,
                configuration: .init(location: .directory(Location.managedRoot(in: xdg)), arguments: [], systemDirectories: [])
            ).write(40, forKey: "fontSize")
            try writeFile(of: "desk", in: root, entries: [("fontSize", Self.now, 18), ("theme", Self.now, "dark")])
            let errors = ReportedErrors()
            let laptop = try device("laptop", in: root, errors: errors, systemDirectories: [xdg])
            #expect(laptop[Self.fontSize] == 40)
            #expect(try laptop.persistentValue(for: Self.fontSize) == nil, "nothing stored under the forced key")
            #expect(laptop[Self.theme] == "dark")
            #expect(try laptop.mergeSyncFolder().refusedKeys == ["fontSize"])
            let own = try SyncFile.parse(
                Data(contentsOf: syncFile(of: "laptop", in: root)), path: "laptop.json", suite: Self.suite, device: "laptop")
            #expect(own.entries.keys.sorted() == ["theme"], "a forced value never travels")
            #expect(errors.all.contains(.forced(suite: Self.suite, key: "fontSize")), "reported as the refusal it is")
        }
    }
}
