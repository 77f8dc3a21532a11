import Foundation
import LayeredDefaults
import PackageTestSupport
import Synchronization
import Testing

/// `prefs watch` as a real process: it prints another process's writes as they happen and ends with
/// exit status 0 on SIGINT.
@Suite struct WatchProcessTests {
    /// Starts `prefs watch` with `arguments`, then writes `key` from this process (another process than
    /// the watch) again and again, `1`, `2`, ..., until the watch prints a line (it may miss the writes
    /// before its observation started), and returns that line; then interrupts it and returns its status.
    static func firstLine(
        _ arguments: [String], writing key: String, in launcher: Launcher
    ) throws -> (line: String?, status: Int32, error: String) {
        let defaults = try Defaults(suiteName: "app", configuration: .init(location: .directory(launcher.root), arguments: []))
        let watch = try launcher.start("prefs", ["watch"] + arguments)
        let count = Atomic(0)
        let write: @Sendable () -> Void = {
            try? defaults.write(.integer(count.add(1, ordering: .relaxed).newValue), forKey: key)
            usleep(50_000)
        }
        // NB: the writes stop before this goes on, even when no line came: none outlives the test's directory.
        let line = try whileRepeating(write) { try watch.nextLine(before: .now + .seconds(60)) }
        watch.send(SIGINT)
        let status = try watch.wait(before: .now + .seconds(60))
        return (line, status, watch.errorText)
    }

    @Test func printsAnotherProcesssWriteAndEndsOnInterrupt() throws {
        try withTemporaryRoot { root throws in
            let launcher = Launcher(root: root)
            try launcher.prefs("write", "app", "other", "-string", "x")
            let (line, status, error) = try Self.firstLine(["app", "count"], writing: "count", in: launcher)
            let text = try #require(line)
            #expect(text.hasPrefix("count = "), "\(text)")
            #expect(Int(text.dropFirst("count = ".count)) ?? 0 >= 1)
            #expect(status == 0 && error.isEmpty)
        }
    }

    @Test func jsonGivesOneObjectALine() throws {
        try withTemporaryRoot { root throws in
            let launcher = Launcher(root: root)
            try launcher.prefs("write", "app", "other", "-string", "x")
            let (line, status, _) = try Self.firstLine(["--json", "app"], writing: "count", in: launcher)
            let object = try JSONSerialization.jsonObject(with: Data(try #require(line).utf8)) as? [String: Any]
            #expect(object?["key"] as? String == "count")
            #expect((object?["value"] as? [String: Any])?["integer"] != nil)
            #expect(status == 0)
        }
    }

    @Test func aMissingDomainIsNotFound() throws {
        try withTemporaryRoot { root throws in
            let result = try Launcher(root: root).prefs("watch", "nowhere")
            #expect(result.status == 1 && result.error == "prefs: Domain nowhere does not exist\n")
        }
    }

    /// A reader that goes away (`prefs watch d | head -1`) ends the watch at its next line, quietly, with
    /// the status of output cut short, instead of leaving it running.
    @Test func aReaderThatGoesAwayEndsTheWatch() throws {
        try withTemporaryRoot { root throws in
            let launcher = Launcher(root: root)
            try launcher.prefs("write", "app", "k", "-int", "0")
            // NB: the writes go on until the pipeline has ended (or for 15 s): `head` ends at the first line,
            // and the watch at the line after, which it cannot write.
            let result = try launcher.shell(
                #"""
                ( timeout 30 "$PREFS" watch app; echo "watch $?" > "$1" ) | head -1 &
                i=1
                while [ ! -s "$1" ] && [ "$i" -lt 300 ]; do
                    "$PREFS" write app k -int "$i"; i=$((i + 1)); sleep 0.05
                done
                wait
                cat "$1" >&2
                """#, root.appendingPathComponent("watch-status").path)
            #expect(result.error == "watch 3\n", "ended by itself with the status of output cut short, and said nothing")
            #expect(result.output.hasPrefix("k = "))
        }
    }
}
