import Foundation
import LayeredDefaults
import Testing

/// A process killed with SIGKILL right after a write returned loses nothing and leaves a sound database.
@Suite struct CrashBoundaryTests {
    @Test func crashBoundaryKillAfterWriteKeepsTheValue() throws {
        try withTemporaryRoot { root throws in
            let test = "crashBoundaryKillAfterWriteKeepsTheValue"
            let suite = uniqueSuite("crashBoundary")
            let launcher = Launcher(root: root)
            let report = FailureReport(test: test, app: "theme-demo", suite: suite, key: "theme", expectedFallback: "system", launcher: launcher)

            let child = launcher.process("theme-demo", ["--suite", suite, "set", "dark", "--wait-after-write"])
            let output = Pipe()
            child.standardOutput = output
            child.standardError = FileHandle.nullDevice
            try child.run()
            let watchdog = Watchdog(pid: child.processIdentifier, seconds: 60)
            let line = readLine(from: output.fileHandleForReading)
            report.expect(line == "saved dark", "child: the write returned")
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            watchdog.cancel()
            let killed = child.terminationReason == .uncaughtSignal && child.terminationStatus == SIGKILL
            report.expect(killed, "child: ended by SIGKILL, not by itself")

            report.expectShows("dark", try launcher.run("theme-demo", ["--suite", suite, "show"]), "relaunch after the kill")
            let type = try launcher.prefs("read-type", suite, "theme")
            report.expect(type.succeeded && type.output == "Type is string\n", "relaunch: the key is a string")
            let check = RawSQLite.integrityCheck(root.appendingPathComponent("\(suite).sqlite3").path)
            report.expect(check == "ok", "PRAGMA integrity_check")
        }
    }

    /// Reads up to the first newline (or the end), without the newline.
    private func readLine(from handle: FileHandle) -> String {
        var line = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
            if line.contains(UInt8(ascii: "\n")) { break }
        }
        return String(decoding: line.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    }
}

/// Kills a child that hangs, so a broken child fails the test instead of stalling the run.
private final class Watchdog: Sendable {
    private let cancelled = Lock(false)

    init(pid: Int32, seconds: Int) {
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds)) { [self] in
            if !cancelled.withLock({ $0 }) { kill(pid, SIGKILL) }
        }
    }

    func cancel() { cancelled.withLock { $0 = true } }
}
