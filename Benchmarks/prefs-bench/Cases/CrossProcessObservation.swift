import Foundation
import ToolSupport

/// Work item 12: another process's write, seen by an observer; and what an idle observing process
/// costs the machine.
///
/// Both use a child process (the `observer` role of ``ChildMode``) that opens the domain and, with
/// `observe`, watches one key through `observe(.key(_:), initial: false)`; its handler answers with the time it ran
/// (`CLOCK_MONOTONIC`, one clock for every process of the machine).
enum CrossProcessObservation {
    /// The peers compared: ours alone (the others have no observation of another process's writes).
    static let peers: [PeerKind] = [.ours]
    /// The key the observer watches and this process writes.
    static let key = "pref.observed"
    /// The percentiles of the latency reported, as (label, fraction).
    static let percentiles: [(label: String, fraction: Double)] = [("p50", 0.5), ("p99", 0.99)]
    /// The label of the row of a latency percentile.
    static func latencyLabel(_ percentile: String) -> String {
        "another process's write seen by an observer, \(percentile) after its commit returned"
    }
    /// The labels of the wake-up rows: without an observation, and observing one key.
    static let idleLabel = "idle process, wake-ups per second, no observer"
    /// See ``idleLabel``.
    static let idleObservingLabel = "idle process, wake-ups per second, observing one key"

    /// Item 12. Latency: this process writes the key durably (300 times) (after a pause of 0-150 ms, drawn at
    /// random, so that the writes fall at every phase of whatever the observer waits for), and the
    /// observer reports when its handler ran; the latency is that time less the time the write
    /// returned. Wake-ups: an idle child, with and without an observation, its threads' context
    /// switches (`voluntary_ctxt_switches` + `nonvoluntary_ctxt_switches` of every
    /// `/proc/<pid>/task/<tid>/status`) counted over a few seconds while nothing writes.
    static func run(_ run: BenchRun) throws -> [Row] {
        // NB: 300, so that the p99 is a percentile (the 297th of 300, by nearest rank), not the slowest
        // write of the round, where one scheduling delay of the machine decided it.
        let writes = run.options.quick ? 30 : 300
        let idleSeconds = run.options.quick ? 2.0 : 4.0
        var latencyRows = percentiles.map {
            Row(caseID: "observation", item: 12, label: latencyLabel($0.label), keys: 100, unit: .nanoseconds)
        }
        var idle = Row(caseID: "observation", item: 12, label: idleLabel, keys: nil, unit: .perSecond)
        var idleObserving = Row(caseID: "observation", item: 12, label: idleObservingLabel, keys: nil, unit: .perSecond)
        for kind in run.peers(peers) {
            let suite = run.suite(kind, "observation")
            let writer = try run.open(kind, suite: suite, workload: Workload(size: 100))
            try writer.write("start", forKey: key)

            let observer = try ChildProcess(["observer", kind.rawValue, suite, key, "observe"])
            guard try observer.readLine() == "ready" else { throw PeerError.failed(kind, "the observer did not start") }
            var generator = SplitMix64(seed: UInt64(12 + run.round))
            var latencies: [Double] = []
            for index in 0..<writes {
                Thread.sleep(forTimeInterval: Double(generator.next() % 150) / 1000)
                let value = "seen-\(index)"
                try writer.write(value, forKey: key)
                let committed = monotonicNanoseconds()
                // NB: changes are coalesced, never lost: the last value always arrives.
                while true {
                    let parts = try observer.readLine().split(separator: " ", maxSplits: 1).map(String.init)
                    guard parts.count == 2, let seen = UInt64(parts[0]) else {
                        throw PeerError.failed(kind, "the observer's answer is not a time and a value")
                    }
                    if parts[1] == value {
                        latencies.append(Double(Int64(bitPattern: seen &- committed)))
                        break
                    }
                }
            }
            observer.send("quit")
            try observer.finish()
            latencies.sort()
            for (slot, percentile) in percentiles.enumerated() {
                // NB: nearest rank: the smallest latency at least `fraction` of the writes took no longer than.
                let rank = Int((Double(latencies.count) * percentile.fraction).rounded(.up))
                let value = latencies[max(0, min(latencies.count, rank) - 1)]
                latencyRows[slot][kind] = Sample([value], operations: writes)
            }

            for observing in [false, true] {
                let child = try ChildProcess(["observer", kind.rawValue, suite, key, observing ? "observe" : "none"])
                guard try child.readLine() == "ready" else { throw PeerError.failed(kind, "the idle observer did not start") }
                // NB: let the child settle (its first look at the domain, the delivery of nothing) first.
                Thread.sleep(forTimeInterval: 0.5)
                let before = try contextSwitches(of: child.processIdentifier)
                let start = monotonicNanoseconds()
                Thread.sleep(forTimeInterval: idleSeconds)
                let after = try contextSwitches(of: child.processIdentifier)
                let seconds = Double(monotonicNanoseconds() - start) / 1e9
                child.send("quit")
                try child.finish()
                let rate = Sample([Double(after - before) / seconds], operations: 1)
                if observing { idleObserving[kind] = rate } else { idle[kind] = rate }
            }
        }
        return latencyRows + [idle, idleObserving]
    }

    /// The context switches of every thread of process `pid` so far: each is a wake-up of a thread.
    /// - Throws: ``PeerError`` when `/proc` cannot be read.
    static func contextSwitches(of pid: Int32) throws -> Int {
        let tasks = "/proc/\(pid)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks) else {
            throw PeerError.failed(.ours, "cannot list \(tasks)")
        }
        var total = 0
        for thread in threads {
            // NB: a thread may end between the listing and the read: it no longer counts.
            guard let status = try? String(contentsOfFile: "\(tasks)/\(thread)/status", encoding: .utf8) else { continue }
            for line in status.split(separator: "\n")
            where line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:") {
                total += Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).last ?? "") ?? 0
            }
        }
        return total
    }
}
