import Foundation
import PackageTestSupport

@testable import LayeredDefaults

/// A device whose `prefs` writes a large synced value of `note` and merges (so writes its file in the
/// folder) again and again, until it is killed, at whatever moment: what the sync tests kill mid-write.
/// Each value is whole: `v` and a six-digit counter, then 60,000 x's; a file cut short is not JSON.
struct KilledSyncWriter {
    /// The shell running the loop: it and the `prefs` it runs are one process group.
    let process: ChildProcess
    /// The device's file in the folder.
    let file: URL

    /// Installs `schema` in `root` (the device's own store) and starts the loop on `suite` through `folder`.
    init(suite: String, schema: PreferenceSchema, root: URL, folder: URL) throws {
        try Defaults.Domain(suite, location: .directory(root)).installSchema(schema)
        file = folder.appendingPathComponent("\(suite)/killer.json")
        process = try ChildProcess(
            executable: URL(fileURLWithPath: "/bin/sh"),
            [
                "-c",
                """
                pad=$4; i=0
                while :; do
                    i=$((i + 1))
                    "$0" --root "$1" write "$3" note "$(printf 'v%06d' "$i")$pad" || exit 1
                    "$0" --root "$1" sync "$3" "$2" merge --device killer > /dev/null || exit 1
                done
                """,
                // NB: the padding is made here, not by `head` and `tr`: the shell and its builtins are all
                // the loop needs.
                BuiltProducts.url(of: "prefs").path, root.path, folder.path, suite, String(repeating: "x", count: 60_000),
            ])
    }

    /// True when `value` is one the loop wrote whole.
    static func isWhole(_ value: String) -> Bool {
        value.utf8.count == 60_007 && value.hasPrefix("v") && value.dropFirst(7).allSatisfy { $0 == "x" }
    }

    /// Kills the loop and its `prefs`, whatever they are doing, and waits for the shell to end.
    func kill() throws {
        // NB: the process group (`Process` starts a child in its own), so no `prefs` outlives the shell.
        _ = Foundation.kill(-process.processIdentifier, SIGKILL)
        _ = try process.wait(before: .now + .seconds(30))
    }

    /// The value of `note` in the device's file as the kill left it.
    func lastValue(suite: String) throws -> String? {
        try SyncFile.parse(Data(contentsOf: file), path: file.path, suite: suite, device: "killer")
            .entries["note"]?.value?.stringValue
    }
}
