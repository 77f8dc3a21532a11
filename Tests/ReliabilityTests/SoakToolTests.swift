import Foundation
import PackageTestSupport
import Testing

/// `prefs-soak` itself: a short run verifies clean, and its checks fail when a write is lost or a read stale.
@Suite(.hangLimit(minutes: 1))
struct SoakToolTests {
    private func soak(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let child = try ChildProcess("prefs-soak", arguments)
        let deadline = ContinuousClock.now + .seconds(40)
        let lines = try child.remainingLines(before: deadline)
        let status = try child.wait(before: deadline)
        return (status, lines.joined(separator: "\n"))
    }

    @Test func aShortSoakLosesNothing() throws {
        let result = try soak(["--seconds", "1", "--processes", "2", "--keys", "50"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("\nlost: 0\nstale: 0"), "\(result.output)")
        #expect(result.output.contains("operations/s"))
        #expect(result.output.contains("writes that change nothing"))
    }

    @Test func aLostWriteIsCaught() throws {
        let result = try soak(["--seconds", "1", "--processes", "2", "--keys", "50", "--simulate-loss"])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("\nlost: 1"), "\(result.output)")
    }

    /// The first process publishes progress it never committed: the others' reads of it count as stale.
    @Test func aStaleReadIsCaught() throws {
        let result = try soak(["--seconds", "1", "--processes", "2", "--keys", "50", "--simulate-stale"])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("\nlost: 0\nstale: "), "\(result.output)")
        #expect(!result.output.contains("\nstale: 0"), "\(result.output)")
        #expect(result.output.contains("process 1 read the progress of process 0 stale"), "\(result.output)")
    }
}
