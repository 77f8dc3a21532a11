import Foundation
import PackageTestSupport
import Testing

/// A process sees every commit another process has acknowledged, whatever it has just committed itself.
@Suite(.hangLimit(minutes: 1))
struct FreshnessTests {
    /// One process writes `k` = 1, 2, ... 100, pausing 2-20 ms after each write, and hands every value it
    /// has acknowledged to a second process, which loops over a write of `kind` that changes nothing
    /// (`same`: rewrite a key with its value; `absent`: remove a missing key; `empty`: an empty
    /// transaction; `migrate`: a migration already applied) and a read of `k`. No read finds a value
    /// older than one acknowledged before the read began.
    ///
    /// NB: both run on one CPU, where the writer, waiting for the lock, is scheduled as soon as the other
    /// releases it, and commits right after a commit that moved nothing in SQLite's WAL index.
    @Test(arguments: ["same", "absent", "empty", "migrate"])
    func noOpWriteHidesNoCommit(_ kind: String) throws {
        try withTemporaryRoot { root in
            let deadline = ContinuousClock.now + .seconds(40)
            let writer = try ChildProcess.fixture(root, "chased", ["count-up", "k", "100"], options: ["--cpu", "0"])
            let reader = try ChildProcess.fixture(
                root, "chased", ["chase", "k", kind], options: ["--cpu", "0"],
                input: writer.outputForAnotherChild)
            let lines = try reader.remainingLines(before: deadline)
            #expect(try reader.wait(before: deadline) == 0, "\(reader.errorText)")
            #expect(try writer.wait(before: deadline) == 0, "\(writer.errorText)")
            // checked <reads> stale <stale reads> behind <most commits a stale read was behind>
            let words = try #require(lines.last?.split(separator: " "), "no summary: \(lines)")
            let figures = stride(from: 1, to: words.count, by: 2).compactMap { Int(words[$0]) }
            try #require(figures.count == 3, "unexpected summary: \(words)")
            #expect(figures[0] > 0, "no read was checked")
            #expect(figures[1] == 0, "\(figures[1]) of \(figures[0]) reads were stale, up to \(figures[2]) commits behind")
        }
    }
}
