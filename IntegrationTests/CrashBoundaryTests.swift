import Foundation
import LayeredDefaults
import PackageTestSupport
import Testing

/// A process killed with SIGKILL right after a write returned loses nothing and leaves a sound database.
@Suite struct CrashBoundaryTests {
    @Test func crashBoundaryKillAfterWriteKeepsTheValue() throws {
        try withTemporaryRoot { root throws in
            let test = "crashBoundaryKillAfterWriteKeepsTheValue"
            let suite = uniqueSuite("crashBoundary")
            let launcher = Launcher(root: root)
            let report = FailureReport(
                test: test, app: "theme-demo", suite: suite, key: "theme", expectedFallback: "system", launcher: launcher)

            let child = try launcher.start("theme-demo", ["--suite", suite, "set", "dark", "--wait-after-write"])
            let line = try child.nextLine(before: .now + .seconds(60))
            report.expect(line == "saved dark", "child: the write returned")
            child.send(SIGKILL)
            try child.wait(before: .now + .seconds(60))
            let killed = child.process.terminationReason == .uncaughtSignal && child.process.terminationStatus == SIGKILL
            report.expect(killed, "child: ended by SIGKILL, not by itself")

            report.expectShows("dark", try launcher.run("theme-demo", ["--suite", suite, "show"]), "relaunch after the kill")
            let type = try launcher.prefs("read-type", suite, "theme")
            report.expect(type.succeeded && type.output == "Type is string\n", "relaunch: the key is a string")
            let check = RawSQLite.integrityCheck(root.appendingPathComponent("\(suite).sqlite3").path)
            report.expect(check == "ok", "PRAGMA integrity_check")
        }
    }
}
