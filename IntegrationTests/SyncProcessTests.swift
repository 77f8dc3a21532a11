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
            let killerRoot = root.appendingPathComponent("store-killer")
            try Defaults.installSchema(Self.schema, location: .directory(killerRoot))
            let writer = try ChildProcess(
                executable: URL(fileURLWithPath: "/bin/sh"),
                [
                    "-c",
                    """
                    pad=$(head -c 60000 /dev/zero | tr '\\0' x); i=0
                    while :; do
                        i=$((i + 1))
                        "$0" --root "$1" write com.example.killed note "$(printf 'v%06d' "$i")$pad" || exit 1
                        "$0" --root "$1" sync com.example.killed "$2" merge --device killer > /dev/null || exit 1
                    done
                    """,
                    BuiltProducts.url(of: "prefs").path, killerRoot.path, folder.path,
                ])
            let errors = ReportedErrors()
            var configuration = Defaults.Configuration(
                location: .directory(root.appendingPathComponent("store-desk")), arguments: [], systemDirectories: [],
                schema: Self.schema, errorHandler: errors.record)
            configuration.sync = Defaults.SyncFolder(folder: folder, deviceID: "desk")
            let desk = try Defaults(suiteName: Self.suite, configuration: configuration)
            func isWhole(_ value: String) -> Bool {
                value.utf8.count == 60_007 && value.hasPrefix("v") && value.dropFirst(7).allSatisfy { $0 == "x" }
            }
            var seen = Set<String>()
            let deadline = ContinuousClock.now + .seconds(60)
            while seen.count < 20, ContinuousClock.now < deadline {
                try desk.mergeSyncFolder()
                let value = desk[Self.note]
                if !value.isEmpty {
                    #expect(isWhole(value), "a merged value is one the device wrote whole")
                    seen.insert(String(value.prefix(7)))
                }
            }
            #expect(seen.count >= 20, "the writer wrote several files while the other device merged")
            // NB: the shell and the prefs it runs are one process group (`Process` starts a child in its own).
            kill(-writer.processIdentifier, SIGKILL)
            _ = try writer.wait(before: .now + .seconds(30))
            try desk.mergeSyncFolder()
            let last = try SyncFile.read(
                path: folder.appendingPathComponent("\(Self.suite)/killer.json").path, suite: Self.suite, device: "killer")
            #expect(desk[Self.note] == last.entries["note"]?.value?.stringValue)
            #expect(isWhole(desk[Self.note]))
            #expect(errors.all.isEmpty, "no file was torn: \(errors.all)")
        }
    }
}
