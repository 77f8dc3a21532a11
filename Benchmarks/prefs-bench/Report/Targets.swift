/// The outcome of one performance target.
struct TargetResult: Codable, Sendable {
    /// Whether the figure is within the limit.
    enum Verdict: String, Codable, Sendable {
        case met
        case missed = "MISSED"
        case notMeasured = "not measured"
    }

    /// What is required.
    let target: String
    /// The figure compared with the limit (a ratio or a count), when its rows were measured.
    let measured: Double?
    /// The limit, e.g. `<= 1.5`.
    let limit: String
    /// Met, missed, or not measured (the case was filtered out).
    let verdict: Verdict
}

/// A performance target: a figure derived from the rows, and its limit.
struct Target: Sendable {
    /// What is required.
    let description: String
    /// The limit the figure must be at most (or, with ``atLeast``, at least).
    let limit: Double
    /// True when the figure must be at least ``limit``.
    var atLeast = false
    /// The figure, from the rows (nil when they were not measured).
    let figure: @Sendable ([Row]) -> Double?

    /// Compares the figure with the limit.
    func check(_ rows: [Row]) -> TargetResult {
        let measured = figure(rows)
        let limitText = limit == 0 ? "= 0" : (atLeast ? ">= " : "<= ") + Report.ratio(limit)
        guard let measured else {
            return TargetResult(target: description, measured: nil, limit: limitText, verdict: .notMeasured)
        }
        let met = atLeast ? measured >= limit : measured <= limit
        return TargetResult(target: description, measured: measured, limit: limitText, verdict: met ? .met : .missed)
    }

    /// The median of `kind` in the row `caseID`/`label` at `keys`.
    static func median(_ rows: [Row], _ caseID: String, _ label: String, _ keys: Int?, _ kind: PeerKind) -> Double? {
        rows.first { $0.caseID == caseID && $0.label == label && $0.keys == keys }?[kind]?.median
    }

    /// Ours' median over `peer`'s in the row `caseID`/`label` at `keys`.
    static func ratio(_ rows: [Row], _ caseID: String, _ label: String, _ keys: Int?, to peer: PeerKind) -> Double? {
        divide(median(rows, caseID, label, keys, .ours), median(rows, caseID, label, keys, peer))
    }

    /// `a / b` when both exist and `b` is not zero.
    static func divide(_ a: Double?, _ b: Double?) -> Double? {
        guard let a, let b, b != 0 else { return nil }
        return a / b
    }

    /// Every target, for every size where it applies.
    static let all: [Target] = {
        var targets: [Target] = []
        let sizes = [100, 10_000, 100_000]
        for size in sizes {
            for label in ["hot read, string", "hot read, int", ReadCases.shortKeysLabel] {
                targets.append(
                    Target(description: "\(label), \(Report.count(size)) keys: ours / Foundation (4x faster)", limit: 0.25) {
                        ratio($0, "hot-read", label, size, to: .foundation)
                    })
                targets.append(
                    Target(description: "\(label), \(Report.count(size)) keys: ours / dict floor", limit: 1.0) {
                        ratio($0, "hot-read", label, size, to: .floor)
                    })
            }
            targets.append(
                Target(description: "missing key, \(Report.count(size)) keys: ours / dict floor", limit: 1.2) {
                    ratio($0, "fallthrough", "missing key", size, to: .floor)
                })
            targets.append(
                Target(description: "registered default, \(Report.count(size)) keys: ours / two-level dict floor", limit: 1.2) {
                    ratio($0, "fallthrough", "registered default", size, to: .floor)
                })
        }
        for size in sizes {
            targets.append(
                Target(description: "read after write, \(Report.count(size)) keys: ours / ours' hot read", limit: 2) {
                    divide(
                        median($0, "read-after-write", "read after write, string", size, .ours),
                        median($0, "hot-read", "hot read, string", size, .ours))
                })
        }
        for variant in ["new key", "existing key"] {
            let label = "durable write, \(variant)"
            for size in sizes {
                targets.append(
                    Target(description: "\(label), \(Report.count(size)) keys: ours / SQLite", limit: 1.1) {
                        ratio($0, "write", label, size, to: .sqlite)
                    })
            }
            targets.append(
                Target(description: "\(label), 10,000 keys: Foundation / ours (100x faster)", limit: 100, atLeast: true) {
                    divide(median($0, "write", label, 10_000, .foundation), median($0, "write", label, 10_000, .ours))
                })
            targets.append(
                Target(description: "\(label): ours at 100,000 keys / ours at 100", limit: 1.5) {
                    divide(median($0, "write", label, 100_000, .ours), median($0, "write", label, 100, .ours))
                })
        }
        for pattern in WriteLatency.Pattern.allCases {
            targets.append(
                Target(description: "write latency p99 / p50, \(pattern.rawValue), 100,000 keys: ours", limit: 3) {
                    median($0, "write-latency", WriteLatency.label("p99 / p50", pattern), 100_000, .ours)
                })
        }
        targets.append(
            Target(description: "batch of 10,000 writes: ours / SQLite", limit: 1.1) {
                ratio($0, "batch", "batch of 10,000 writes, per row", 10_000, to: .sqlite)
            })
        targets.append(
            Target(description: "cold start, open + first read, 10,000 keys: ours / SQLite", limit: 1.1) {
                ratio($0, "cold-start", "cold start, open + first read", 10_000, to: .sqlite)
            })
        targets.append(
            Target(description: "cold start, 10,000 keys: ours / Foundation (a fifth)", limit: 0.2) {
                ratio($0, "cold-start", "cold start, open + first read", 10_000, to: .foundation)
            })
        targets.append(
            // NB: ours' growth less raw SQLite's: both fill SQLite's page cache (bounded by `cache_size`,
            // 2 MiB by default) as every key is read; the target counts raw SQLite as "no cache".
            Target(description: "memory, 100,000 keys read: ours' cache (less SQLite's page cache) / a dictionary", limit: 1.3) {
                let label = ProcessCases.cacheCostLabel
                guard let ours = median($0, "memory", label, 100_000, .ours),
                    let sqlite = median($0, "memory", label, 100_000, .sqlite)
                else { return nil }
                return divide(ours - sqlite, median($0, "memory", label, 100_000, .floor))
            })
        targets.append(
            Target(description: "durable write with 100 observers of other keys / with none", limit: 1.2) {
                divide(
                    median($0, "observers", ObserverCases.observedLabel, ObserverCases.size, .ours),
                    median($0, "observers", ObserverCases.unobservedLabel, ObserverCases.size, .ours))
            })
        targets.append(
            Target(description: "another process's write seen by an observer, p99, in ms", limit: 5) {
                median($0, "observation", CrossProcessObservation.latencyLabel("p99"), 100, .ours).map { $0 / 1e6 }
            })
        targets.append(
            Target(description: "idle observing process: wake-ups per second", limit: 0) {
                median($0, "observation", CrossProcessObservation.idleObservingLabel, nil, .ours)
            })
        targets.append(
            Target(description: "two writers: ours' keys lost (worst repetition)", limit: 0) { rows in
                rows.first { $0.caseID == "two-writers" && $0.unit == .count }?[.ours]?.max
            })
        targets.append(
            Target(description: "freshness: ours' stale reads", limit: 0) { rows in
                rows.first { $0.caseID == "freshness" && $0.unit == .count }?[.ours]?.max
            })
        return targets
    }()
}
