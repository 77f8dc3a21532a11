import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// Sync between processes through one folder, no engine: a device whose process is killed while it
/// writes its file.
@Suite struct SyncProcessTests {
    static let suite = "com.example.killed"
    static let note = Defaults.Key<String>("note", default: "", summary: "A note").syncing()
    static let schema = try! PreferenceSchema(suiteName: suite, version: 1, keys: note)

    /// A `prefs` process that writes a large synced value and merges (so writes its file) again and again
    /// is killed at whatever moment; another device, merging all along, only ever merges values written
    /// whole, never reports a torn file, and ends with the killed device's last whole file.
    @Test func aDeviceKilledWhileWritingItsFileLeavesNothingMergedInPart() throws {
        try withTemporaryRoot { root in
            let folder = root.appendingPathComponent("folder")
            let writer = try KilledSyncWriter(
                suite: Self.suite, schema: Self.schema, root: root.appendingPathComponent("store-killer"), folder: folder)
            let errors = ReportedErrors()
            var configuration = Defaults.Configuration(
                location: .directory(root.appendingPathComponent("store-desk")), arguments: [], systemDirectories: [],
                schema: Self.schema, errorHandler: errors.record)
            configuration.sync = Defaults.SyncFolder(folder: folder, deviceID: "desk")
            let desk = try Defaults(suiteName: Self.suite, configuration: configuration)
            var seen = Set<String>()
            let deadline = ContinuousClock.now + .seconds(60)
            while seen.count < 20, ContinuousClock.now < deadline {
                try desk.mergeSyncFolder()
                let value = desk[Self.note]
                if !value.isEmpty {
                    #expect(KilledSyncWriter.isWhole(value), "a merged value is one the device wrote whole")
                    seen.insert(String(value.prefix(7)))
                }
            }
            #expect(seen.count >= 20, "the writer wrote several files while the other device merged")
            try writer.kill()
            try desk.mergeSyncFolder()
            #expect(desk[Self.note] == (try writer.lastValue(suite: Self.suite)))
            #expect(KilledSyncWriter.isWhole(desk[Self.note]))
            #expect(errors.all.isEmpty, "no file was torn: \(errors.all)")
        }
    }
}
