import Foundation
import PackageTestSupport
import Testing
import ToolSupport

@testable import LayeredDefaults

/// A writer killed with SIGKILL at a random moment loses nothing it acknowledged and leaves a healthy file.
@Suite(.hangLimit(minutes: 1))
struct KillTests {
    /// The domain in `file` read through a new connection; empty when the first child died before
    /// creating the file or its schema (a valid state: the next open creates it).
    private func observedValues(of file: URL) throws -> [String: PreferenceValue] {
        guard isCreated(file) else { return [:] }
        let connection = try Connection(path: file.path, busyTimeoutMilliseconds: 10_000)
        let hasSchema = try connection.integer("SELECT count(*) FROM sqlite_schema WHERE name = 'preferences'") == 1
        connection.close()
        return hasSchema ? try freshValues(of: file) : [:]
    }

    private func isCreated(_ file: URL) -> Bool {
        ((try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0) > 0
    }

    /// 20 rounds on one suite: a child writes, removes and atomically updates keys in a loop, announcing
    /// each operation and acknowledging it once committed; the parent kills it with SIGKILL after a
    /// random number of acknowledgements (0 included: during the open) and a random extra moment. After
    /// each round, read through a new connection, the domain is exactly the acknowledged state, or that
    /// plus the one operation in flight; `PRAGMA integrity_check` says `ok`. Values span pages, so
    /// WAL checkpoints happen along the way.
    @Test func killedWritersLoseNothingAcknowledged() throws {
        var generator = SplitMix64.random()
        let seed = generator.seed
        try withTemporaryRoot { root in
            let file = databaseFile("killed", in: root)
            var model = ChurnModel()
            var acknowledgedInAll = 0
            for round in 0..<20 {
                let target = round == 0 ? 0 : Int.random(in: 0...500, using: &generator)
                let extra = useconds_t(Int.random(in: 0...3000, using: &generator))  // microseconds
                let deadline = ContinuousClock.now + .seconds(20)
                let child = try ChildProcess.fixture(root, "killed", ["churn", "r\(round)", "1000000"])
                model.startChild()
                if target > 0 {
                    while model.acknowledged < target, let line = try child.nextLine(before: deadline) { model.handle(line) }
                }
                // NB: not a wait for anything: a random moment to strike; slept, not spun, so the child
                // keeps the core it writes on.
                usleep(extra)
                child.send(SIGKILL)
                for line in try child.remainingLines(before: deadline) { model.handle(line) }
                try child.wait(before: deadline)
                #expect(
                    child.process.terminationReason == .uncaughtSignal,
                    "round \(round) (seed \(seed)): the child exited by itself: \(child.errorText)")
                acknowledgedInAll += model.acknowledged

                let values = try observedValues(of: file)
                let withInFlight = model.withInFlight
                #expect(
                    values == model.values || values == withInFlight,
                    "round \(round) (seed \(seed)): \(values.count) keys, \(model.values.count) acknowledged; in flight: \(model.inFlight?.joined(separator: " ") ?? "none")"
                )
                if values != model.values, let withInFlight, values == withInFlight { model.values = withInFlight }
                if isCreated(file) { #expect(try integrityCheck(of: file) == "ok", "round \(round) (seed \(seed))") }
            }
            #expect(acknowledgedInAll > 1000, "the rounds did some work (seed \(seed))")
            let defaults = try Defaults(suiteName: "killed", configuration: .init(location: .directory(root), arguments: []))
            #expect(try defaults.persistentValues() == model.values)
        }
    }
}
