import Foundation

/// What a case measures with, in the process that measures it: the options, the sandbox, the
/// settings, and the peers and domain sizes given to this process.
final class BenchRun {
    /// The command line.
    let options: Options
    /// Where every store of the run lives.
    let sandbox: Sandbox
    /// How long and how often to measure.
    let settings: MeasureSettings
    /// The domain sizes this process measures, for the cases where size matters.
    let sizes: [Int]
    /// The peers this process measures.
    let selectedPeers: Set<PeerKind>
    /// The round of the measurement (see ``Conductor``): part of every suite name, so no round sees
    /// another's data.
    let round: Int

    /// A measuring context for `peers` at `sizes`, in `round`.
    init(options: Options, sandbox: Sandbox, peers: Set<PeerKind>, sizes: [Int], round: Int) {
        self.options = options
        self.sandbox = sandbox
        settings = options.quick ? .quick : .full
        selectedPeers = peers
        self.sizes = sizes
        self.round = round
    }

    /// The peers of `candidates` that this process measures.
    func peers(_ candidates: [PeerKind]) -> [PeerKind] {
        candidates.filter(selectedPeers.contains)
    }

    /// A line on standard error, so the user sees progress while standard output stays the report.
    func progress(_ line: String) {
        FileHandle.standardError.write(Data("prefs-bench: \(line)\n".utf8))
    }

    /// Opens the domain `suite` of `kind` (see ``PeerKind/open(suite:in:workload:)``).
    func open(_ kind: PeerKind, suite: String, workload: Workload? = nil, asAnAppMeetsIt: Bool = false) throws -> any Peer {
        try kind.open(suite: suite, in: sandbox, workload: workload, asAnAppMeetsIt: asAnAppMeetsIt)
    }

    /// The name of a suite for `kind` and `parts`, unique in the run.
    func suite(_ kind: PeerKind, _ parts: Any...) -> String {
        (["bench", kind.tag, "r\(round)"] + parts.map { "\($0)" }).joined(
            separator: ".")
    }
}
