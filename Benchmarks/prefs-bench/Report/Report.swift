import Foundation
import ToolSupport

/// The results of a run, as a table for people or JSON for programs.
struct Report: Codable {
    /// When the run started (ISO 8601).
    let date: String
    /// The command line that produced it.
    let command: String
    /// The machine: processors, system.
    let machine: String
    /// Whether it was a `--quick` run.
    let quick: Bool
    /// Where Foundation kept its domains (inside the sandbox).
    let foundationDirectory: String
    /// The clock's own cost, subtracted from operations that time themselves (ns).
    let timerOverhead: Double
    /// Every row measured.
    let rows: [Row]
    /// The performance targets, checked against the rows.
    let targets: [TargetResult]
    /// What was left out of the run, and why.
    let notes: [String]

    /// Assembles the report of a run.
    init(rows: [Row], options: Options, started: Date, foundationDirectory: String, notes: [String]) {
        date = ISO8601DateFormatter().string(from: started)
        command =
            (["swift run -c release prefs-bench"] + (options.quick ? ["--quick"] : []) + (options.json ? ["--json"] : [])
            + (options.filter.map { ["--filter", $0] } ?? [])).joined(separator: " ")
        var system = utsname()
        uname(&system)
        let release = withUnsafeBytes(of: system.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let machineName = withUnsafeBytes(of: system.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        machine = "\(ProcessInfo.processInfo.activeProcessorCount) cores, Linux \(release) \(machineName)"
        quick = options.quick
        self.foundationDirectory = foundationDirectory
        timerOverhead = timerOverheadNanoseconds
        self.rows = rows
        targets = Target.all.map { $0.check(rows) }
        self.notes = notes
    }

    /// The report as pretty-printed JSON.
    func json() throws -> String {
        String(decoding: try JSONEncoder.sorted(pretty: true).encode(self), as: UTF8.self)
    }

    /// The report as text tables: the figures (median [min-max]), the ratios ours/peer, the targets.
    func table() -> String {
        let peers = PeerKind.allCases.filter { kind in rows.contains { $0[kind] != nil } }
        let ratioPeers = peers.filter { $0 != .ours }
        var lines = [
            "prefs-bench \(date) - \(command) - \(machine)",
            "Figures: median [min-max] over repetitions; ratios: ours / peer (below 1: ours is faster or smaller).",
        ]
        let header = ["#", "case", "keys"] + peers.map(\.rawValue) + ratioPeers.map { "ours/\($0.rawValue)" }
        var cells: [[String]] = []
        for row in rows {
            cells.append(
                ["\(row.item)", row.label, row.keys.map(Self.count) ?? ""]
                    + peers.map { row[$0].map { Self.figure($0, row.unit) } ?? "-" }
                    + ratioPeers.map { row.ratio(to: $0).map(Self.ratio) ?? "-" })
        }
        lines += Self.align([header] + cells, leftColumns: 2)
        lines.append("")
        lines.append("Targets:")
        lines += Self.align(
            [["target", "measured", "limit", "verdict"]]
                + targets.filter { $0.verdict != .notMeasured }.map { target in
                    [
                        target.target, target.measured.map { target.limit == "= 0" ? String(Int($0)) : Self.ratio($0) } ?? "-",
                        target.limit, target.verdict.rawValue,
                    ]
                }, leftColumns: 1)
        if targets.contains(where: { $0.verdict == .missed }) {
            lines.append(
                "Each MISSED target's measured reason, the best instruction figure reached and what was tried:"
                    + " docs/PERFORMANCE.md, \"At the limit\".")
        }
        lines += notes.map { "Note: \($0)" }
        return lines.joined(separator: "\n")
    }

    /// Pads `cells` into columns: the first `leftColumns` aligned left, the rest right.
    private static func align(_ cells: [[String]], leftColumns: Int) -> [String] {
        let widths = (0..<(cells.map(\.count).max() ?? 0)).map { column in
            cells.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        return cells.map { row in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column < leftColumns ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }
    }

    /// `1,234,567`.
    static func count(_ value: Int) -> String {
        let digits = String(value)
        return String(digits.reversed().enumerated().map { $0 > 0 && $0 % 3 == 0 ? ",\($1)" : "\($1)" }.joined().reversed())
    }

    /// A figure in its unit, with the range (in the median's scale) when there were several repetitions.
    static func figure(_ sample: Sample, _ unit: Row.Unit) -> String {
        let scale = Scale(sample.median, unit)
        guard sample.repetitions > 1 else {
            return unit == .count ? scale.text(sample.median) : scale.text(sample.median) + " (1 run)"
        }
        return
            "\(scale.text(sample.median)) [\(scale.text(sample.min, withUnit: false))-\(scale.text(sample.max, withUnit: false))]"
    }

    /// How the figures of a cell are written: nanoseconds as ns, us, ms or s (chosen by the median),
    /// KiB as MiB, events per second with one decimal, operations per second and counts as integers, ratios as ``Report/ratio(_:)``.
    private struct Scale {
        let divisor: Double
        let suffix: String
        let unit: Row.Unit

        init(_ median: Double, _ unit: Row.Unit) {
            self.unit = unit
            switch unit {
            case .nanoseconds:
                (divisor, suffix) =
                    switch median {
                    case ..<1e3: (1, " ns")
                    case ..<1e6: (1e3, " us")
                    case ..<1e9: (1e6, " ms")
                    default: (1e9, " s")
                    }
            case .kibibytes: (divisor, suffix) = (1024, " MiB")
            case .operationsPerSecond, .perSecond: (divisor, suffix) = (1, "/s")
            case .count, .ratio: (divisor, suffix) = (1, "")
            }
        }

        func text(_ value: Double, withUnit: Bool = true) -> String {
            let scaled = value / divisor
            let number: String =
                switch unit {
                case .nanoseconds:
                    scaled >= 100 ? String(Int(scaled.rounded())) : String(format: scaled >= 10 ? "%.1f" : "%.2f", scaled)
                case .kibibytes, .perSecond: String(format: "%.1f", scaled)
                case .operationsPerSecond, .count: Report.count(Int(scaled.rounded()))
                case .ratio: Report.ratio(scaled)
                }
            return withUnit ? number + suffix : number
        }
    }

    /// A ratio with two or three significant digits.
    static func ratio(_ value: Double) -> String {
        switch value {
        case 100...: String(Int(value.rounded()))
        case 10...: String(format: "%.1f", value)
        case 0.1...: String(format: "%.2f", value)
        default: String(format: "%.4f", value)
        }
    }
}
