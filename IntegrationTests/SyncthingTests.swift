import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Sync through a folder that the real engine replicates: Syncthing instances on the loopback, each
/// device with its own store root and its instance's copy of the folder.
@Suite struct SyncthingTests {
    static let suite = "com.example.synced"
    static let fontSize = Defaults.Key<Int>("fontSize", default: 12, summary: "The font size", accepts: .integers(6...72))
        .syncing()
    static let note = Defaults.Key<String>("note", default: "", summary: "A note").syncing()
    static let schema = try! PreferenceSchema(suiteName: suite, version: 1, keys: fontSize, note)

    /// A device `id`, its store under `root`, syncing through `folder`.
    func device(_ id: String, root: URL, folder: URL, errors: ReportedErrors = ReportedErrors()) throws -> Defaults {
        var configuration = Defaults.Configuration(
            location: .directory(root.appendingPathComponent("store-\(id)")), arguments: [], systemDirectories: [],
            schema: Self.schema, errorHandler: errors.record)
        configuration.sync = Defaults.SyncFolder(folder: folder, deviceID: id)
        return try Defaults(suiteName: Self.suite, configuration: configuration)
    }

    /// Merges `devices` until `done` holds; fails after a generous deadline (which bounds only a failure).
    func eventually(
        merging devices: [Defaults], sourceLocation: SourceLocation = #_sourceLocation, _ done: () throws -> Bool
    ) throws {
        let deadline = ContinuousClock.now + .seconds(40)
        while true {
            for device in devices { try device.mergeSyncFolder() }
            if try done() { return }
            guard ContinuousClock.now < deadline else {
                Issue.record("the devices did not converge", sourceLocation: sourceLocation)
                return
            }
            usleep(100_000)
        }
    }

    /// The instances' configuration keeps them to the loopback and to each other, asserted from the
    /// files they start with.
    @Test(.needs(.syncthing)) func theInstancesReachNothingButEachOther() throws {
        try withTemporaryRoot { root in
            let engine = try SyncthingPeers(count: 2, under: root)
            let ids = Set(engine.peers.map(\.deviceID))
            for peer in engine.peers {
                let document = try XMLDocument(contentsOf: peer.home.appendingPathComponent("config.xml"))
                func values(_ path: String) throws -> [String] { try document.nodes(forXPath: path).compactMap(\.stringValue) }
                #expect(try values("/configuration/options/globalAnnounceEnabled") == ["false"])
                #expect(try values("/configuration/options/localAnnounceEnabled") == ["false"])
                #expect(try values("/configuration/options/relaysEnabled") == ["false"])
                #expect(try values("/configuration/options/natEnabled") == ["false"])
                #expect(try values("/configuration/options/urAccepted") == ["-1"])
                #expect(try values("/configuration/options/crashReportingEnabled") == ["false"])
                #expect(try values("/configuration/options/autoUpgradeIntervalH") == ["0"])
                #expect(try values("/configuration/options/listenAddress") == ["tcp://127.0.0.1:\(peer.listenPort)"])
                #expect(try values("/configuration/gui/address") == ["127.0.0.1:\(peer.guiPort)"])
                #expect(Set(try values("/configuration/device/@id")) == ids, "the peers and nothing else")
                let addresses = try values("/configuration/device/address")
                #expect(addresses.count == 2 && addresses.allSatisfy { $0.hasPrefix("tcp://127.0.0.1:") })
                #expect(Set(try values("/configuration/folder/device/@id")) == ids)
            }
        }
    }

    /// A write on one device is read on the other; writes of one key on both converge to one value on
    /// both; a third device's first launch keeps the synced values; a hostile file in the folder is
    /// skipped and reported, and the instances are gone once stopped.
    @Test(.needs(.syncthing)) func devicesConvergeThroughSyncthing() throws {
        try withTemporaryRoot { root in
            let engine = try SyncthingPeers(count: 2, under: root)
            defer { engine.stop() }
            try engine.start()
            let (folderA, folderB) = (engine.peers[0].folder, engine.peers[1].folder)
            let errorsB = ReportedErrors()
            let laptop = try device("laptop", root: root, folder: folderA)
            let desk = try device("desk", root: root, folder: folderB, errors: errorsB)

            try laptop.write(14, for: Self.fontSize)
            try eventually(merging: [desk]) { desk[Self.fontSize] == 14 }

            try laptop.write(20, for: Self.fontSize)
            try desk.write(30, for: Self.fontSize)
            try eventually(merging: [laptop, desk]) {
                laptop[Self.fontSize] == 30 && desk[Self.fontSize] == 30
            }

            // A third device, its own root, through the first instance's folder: its defaults never travel.
            let tablet = try device("tablet", root: root, folder: folderA)
            tablet.register(["fontSize": 9])
            #expect(tablet[Self.fontSize] == 30)
            try eventually(merging: [laptop, desk]) {
                FileManager.default.fileExists(atPath: folderB.appendingPathComponent("\(Self.suite)/tablet.json").path)
            }
            #expect(laptop[Self.fontSize] == 30)
            #expect(desk[Self.fontSize] == 30)

            // A hostile file: replicated, then skipped whole and reported by the other device.
            let hostile = folderA.appendingPathComponent("\(Self.suite)/mallory.json")
            try Data(
                #"{"format":1,"suite":"com.example.synced","device":"desk","entries":{"note":{"wall":1,"counter":0,"device":"x","value":{"string":"secret"}}}}"#
                    .utf8
            )
            .write(to: hostile)
            try eventually(merging: [desk]) {
                errorsB.all.contains {
                    $0.description.contains("mallory.json") && $0.description.contains("claims another device")
                }
            }
            #expect(desk[Self.note] == "")
            #expect(errorsB.all.allSatisfy { !$0.description.contains("secret") })

            engine.stop()
            #expect(!engine.anyProcessLeft, "no instance's process is left")
        }
    }

    /// A write on one device reaches an observer on the other without anyone calling merge: the observed
    /// instance follows its folder and merges what Syncthing brings.
    @Test(.needs(.syncthing)) func aWriteOnOneDeviceIsObservedOnAnotherWithoutAMerge() throws {
        try withTemporaryRoot { root in
            let engine = try SyncthingPeers(count: 2, under: root)
            defer { engine.stop() }
            try engine.start()
            let laptop = try device("laptop", root: root, folder: engine.peers[0].folder)
            let desk = try device("desk", root: root, folder: engine.peers[1].folder)
            let seen = Lock<[Int]>([])
            let observation = desk.observe(.key(Self.fontSize), initial: false) { value in seen.withLock { $0.append(value) } }
            defer { observation.cancel() }
            try laptop.write(16, for: Self.fontSize)
            // The deadline bounds only a failure.
            let deadline = ContinuousClock.now + .seconds(40)
            while seen.withLock({ $0.last }) != 16 && ContinuousClock.now < deadline { usleep(100_000) }
            #expect(seen.withLock { $0.last } == 16, "observed on the other device without a merge call")
            #expect(try desk.persistentValue(for: Self.fontSize) == 16)
        }
    }

    /// A device killed while writing its file, whatever the moment, leaves nothing the others merge in
    /// part: its file is renamed in whole, and its temporary file is one Syncthing ignores.
    @Test(.needs(.syncthing)) func aDeviceKilledWhileWritingLeavesNothingMergedInPart() throws {
        try withTemporaryRoot { root in
            let engine = try SyncthingPeers(count: 2, under: root)
            defer { engine.stop() }
            try engine.start()
            let (folderA, folderB) = (engine.peers[0].folder, engine.peers[1].folder)
            let writer = try KilledSyncWriter(
                suite: Self.suite, schema: Self.schema, root: root.appendingPathComponent("store-killer"), folder: folderA)
            let errorsB = ReportedErrors()
            let desk = try device("desk", root: root, folder: folderB, errors: errorsB)
            var seen = Set<String>()
            try eventually(merging: [desk]) {
                let value = desk[Self.note]
                if !value.isEmpty {
                    #expect(KilledSyncWriter.isWhole(value), "a merged value is one the device wrote whole")
                    seen.insert(String(value.prefix(7)))
                }
                return seen.count >= 3
            }
            try writer.kill()
            let expected = try #require(try writer.lastValue(suite: Self.suite))
            try eventually(merging: [desk]) { desk[Self.note] == expected }
            #expect(KilledSyncWriter.isWhole(desk[Self.note]))
            #expect(errorsB.all.isEmpty, "no file was torn: \(errorsB.all)")
            let names = try FileManager.default.contentsOfDirectory(atPath: folderB.appendingPathComponent(Self.suite).path)
            #expect(!names.contains { $0.hasPrefix(".syncthing.") }, "a temporary file is never replicated")
        }
    }
}
