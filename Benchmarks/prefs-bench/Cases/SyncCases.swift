import Foundation
import LayeredDefaults

/// Work item 13: what sync costs a write: the durable write of a key the schema marks as syncing, in a
/// domain that syncs through a folder, beside the write of a key that does not sync in the same domain
/// and in a domain that does not sync.
enum SyncCases {
    /// The domain size.
    static let size = 1_000
    static let unsyncedDomainLabel = "durable write, a domain that does not sync"
    static let localKeyLabel = "durable write, a key that does not sync, in a domain that syncs"
    static let syncedKeyLabel = "durable write, a synced key (its clock, and this device's file written whole)"

    /// Item 13: three rows of durable writes of one existing string key, in order alternating from round to
    /// round: a domain without sync; a domain with sync, a key it keeps local; the same domain, a synced
    /// key (the clock stamped in the same transaction, then this device's file in the folder rewritten
    /// and renamed in, each with an fsync).
    static func syncedWrite(_ run: BenchRun) throws -> [Row] {
        let settings = run.settings.withRepetitions(of: run.options.quick ? 60e6 : 150e6)
        let rows = [unsyncedDomainLabel, localKeyLabel, syncedKeyLabel].map {
            Row(caseID: "sync", item: 13, label: $0, keys: size, unit: .nanoseconds)
        }
        var measured = rows
        guard run.peers([.ours]).contains(.ours) else { return rows }
        let suite = run.suite(.ours, "sync")
        let schema = try PreferenceSchema(
            suiteName: suite, version: 1,
            entries: [
                { () -> PreferenceSchema.Entry in
                    var entry = PreferenceSchema.Entry(name: "synced", type: .string, defaultValue: nil, summary: "Synced")
                    entry.syncs = true
                    return entry
                }(),
                PreferenceSchema.Entry(name: "local", type: .string, defaultValue: nil, summary: "Local"),
            ],
            allowsUndeclaredKeys: true)
        func open(_ suiteName: String, syncing: Bool) throws -> Defaults {
            var configuration = Defaults.Configuration(
                location: .directory(run.sandbox.oursDirectory), arguments: [], systemDirectories: [],
                schema: syncing ? schema : nil)
            if syncing {
                configuration.sync = Defaults.SyncFolder(
                    folder: run.sandbox.root.appendingPathComponent("sync-folder"), deviceID: "bench")
            }
            let defaults = try Defaults(suiteName: suiteName, configuration: configuration)
            try defaults.transaction { domain in
                for index in 0..<size - 2 { try domain.write(.string("value-\(index)"), forKey: "filler-\(index)") }
            }
            return defaults
        }
        let plain = try open(suite + "-plain", syncing: false)
        let synced = try open(suite, syncing: true)
        let cases: [(row: Int, defaults: Defaults, key: String)] = [
            (0, plain, "local"), (1, synced, "local"), (2, synced, "synced"),
        ]
        for (row, defaults, key) in run.round % 2 == 0 ? cases : cases.reversed() {
            var next = 0
            measured[row][.ours] = try measure(settings) { range in
                for index in range { try defaults.write(.string("changed-\(next + index)"), forKey: key) }
                next += range.count
            }
        }
        guard try synced.syncStatus()?.syncedKeys == ["synced"] else {
            throw PeerError.failed(.ours, "the synced key was not stamped")
        }
        return measured
    }
}
