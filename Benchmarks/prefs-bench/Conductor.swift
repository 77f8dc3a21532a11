import Foundation

/// The process the sandboxed run starts in: it measures nothing itself. Each case is measured for one
/// peer (and one domain size) at a time in a new process (`--child measure`), so that no peer pays for
/// another's memory, caches or process-wide state (Foundation keeps every domain it has loaded, and
/// its `synchronize()` may write other dirty domains); it then merges the rows and prints the report.
///
/// A full run measures in ``rounds`` rounds, the peers alternating (ours, SQLite, the floor; Foundation,
/// 10-1000 times slower, in the first round only), and pools the repetitions of all rounds: on a shared
/// machine the load drifts, and neighbours in time compare fairly.
struct Conductor {
    /// The command line.
    let options: Options
    /// Where every store of the run lives.
    let sandbox: Sandbox

    /// The domain sizes of the cases where size matters.
    static let sizes = [100, 10_000, 100_000]

    /// Rounds of each measurement: 3, or 1 with `--quick`.
    var rounds: Int { options.quick ? 1 : 3 }

    /// Checks the sandbox, measures the selected cases and prints the report.
    /// - Throws: when Foundation is not isolated, or a measurement fails.
    func run() throws {
        let started = Date()
        let foundationDirectory = try sandbox.verifyFoundationIsolation()
        progress("Foundation's UserDefaults writes to \(foundationDirectory) (inside the sandbox)")
        var rows: [Row] = []
        var notes: [String] = []
        for benchCase in BenchCase.selected(by: options.filter) {
            progress("\(benchCase.item). \(benchCase.id): \(benchCase.title)")
            for size in benchCase.sized ? benchCase.sizes.map(Optional.some) : [nil] {
                for round in 0..<rounds {
                    // NB: Foundation last and once: ours and its near peers stay neighbours in time.
                    for kind in benchCase.peers.filter({ $0 != .foundation })
                        + (round == 0 ? benchCase.peers.filter { $0 == .foundation } : [])
                    {
                        if options.quick, let reason = benchCase.quickSkips[kind] {
                            if !notes.contains(reason) { notes.append(reason) }
                            continue
                        }
                        progress(
                            "  \(size.map { "\(Report.count($0)) keys, " } ?? "")\(kind.rawValue)"
                                + (rounds > 1 ? " (round \(round + 1) of \(rounds))" : ""))
                        merge(try measureInChild(benchCase, kind, size: size, round: round), into: &rows)
                    }
                }
            }
        }
        let report = Report(
            rows: rows, options: options, started: started, foundationDirectory: foundationDirectory, notes: notes)
        print(options.json ? try report.json() : report.table())
    }

    /// Measures `benchCase` for `kind` at `size` in a new process, and returns its rows.
    private func measureInChild(_ benchCase: BenchCase, _ kind: PeerKind, size: Int?, round: Int) throws -> [Row] {
        let child = try ChildProcess([
            "measure", benchCase.id, kind.rawValue, size.map(String.init) ?? "-",
            options.quick ? "quick" : "full", "\(round)",
        ])
        let output = try child.readToEnd()
        try child.finish()
        return try JSONDecoder().decode([Row].self, from: output)
    }

    /// Measures one case for one peer in this process (the `measure` child role), printing its rows as JSON.
    /// - Parameter arguments: `<case> <peer> <size or -> <quick|full> <round>`.
    static func measure(_ arguments: [String]) throws {
        guard arguments.count == 5, let benchCase = BenchCase.all.first(where: { $0.id == arguments[0] }),
            let kind = PeerKind(rawValue: arguments[1]), let round = Int(arguments[4]), let sandbox = Sandbox.current
        else { throw ChildProcess.Failure(description: "bad measure command line \(arguments)") }
        var options = Options()
        options.quick = arguments[3] == "quick"
        let run = BenchRun(
            options: options, sandbox: sandbox, peers: [kind], sizes: Int(arguments[2]).map { [$0] } ?? sizes,
            round: round)
        let rows = try benchCase.run(run)
        FileHandle.standardOutput.write(try JSONEncoder().encode(rows))
    }

    /// Adds the figures of `new` to the row of the same case, label and size in `rows` (pooling the
    /// repetitions of a peer measured in an earlier round), or appends it.
    private func merge(_ new: [Row], into rows: inout [Row]) {
        for row in new {
            if let index = rows.firstIndex(where: { $0.caseID == row.caseID && $0.label == row.label && $0.keys == row.keys }) {
                rows[index].results.merge(row.results) { earlier, new in earlier.merged(with: new) }
            } else {
                rows.append(row)
            }
        }
    }

    private func progress(_ line: String) {
        FileHandle.standardError.write(Data("prefs-bench: \(line)\n".utf8))
    }
}
