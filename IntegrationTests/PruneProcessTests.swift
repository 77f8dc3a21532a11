import Foundation
import LayeredDefaults
import PackageTestSupport
import Testing

/// `prefs prune` as a real process, beside another process that has a domain open.
@Suite struct PruneProcessTests {
    /// A domain another process has open (this test process, through a live ``Defaults``) is skipped
    /// and named; a matching domain nobody has open is deleted.
    @Test func aDomainAProcessHasOpenIsSkippedAndNamed() throws {
        try withTemporaryRoot { root throws in
            let launcher = Launcher(root: root)
            try launcher.prefs("write", "it.prune.closed", "k", "v")
            let open = try Defaults(suiteName: "it.prune.open", configuration: .init(location: .directory(root), arguments: []))
            try open.write("v", forKey: "k")
            let result = try launcher.prefs("prune", "--prefix", "it.prune.", "--any-age")
            #expect(result.succeeded && result.output == "Deleted it.prune.closed\n")
            #expect(
                result.errorLines == [
                    "prefs: warning: skipped it.prune.open: a process has it open (its -shm file is locked); close it, then prune again"
                ])
            let files = try FileManager.default.contentsOfDirectory(atPath: root.path)
            #expect(!files.contains { $0.hasPrefix("it.prune.closed") })
            #expect(files.contains("it.prune.open.sqlite3") && files.contains("it.prune.open.sqlite3-wal"))
            #expect(try open.persistentValues() == ["k": "v"], "the open store goes on working")
            #expect(try launcher.prefs("read", "it.prune.open", "k").output == "v\n")
        }
    }
}
