import Foundation
import LayeredDefaults

/// Everything one child acknowledged, and the state of its keys those acknowledgements imply.
struct SoakLedger {
    let child: Int
    /// The child's keys (by index) as its last acknowledged operation on each left them; nil: removed.
    private(set) var keys: [Int: PreferenceValue?] = [:]
    /// Acknowledged increments of each shared counter.
    private(set) var increments = [Int](repeating: 0, count: SoakOptions.counters)
    /// The child's progress key as its last acknowledged write left it (0: never written).
    private(set) var progress = 0
    private(set) var writes = 0, removals = 0, transactions = 0, progressWrites = 0, noOpWrites = 0
    /// Reads done, and reads of other children's progress keys checked among them.
    private(set) var reads = 0, checks = 0
    /// Stale reads: of the child's own keys, and of other children's progress keys (one ``staleReports`` entry each).
    private(set) var stale = 0
    /// The stale reads of other children's progress: whose, and how many commits behind.
    private(set) var staleReports: [(child: Int, behind: Int)] = []
    /// How many times the setup migration ran in this child (at most once in all children together).
    private(set) var migrationsRun = 0
    private(set) var errors: [String] = []
    /// Counter values that went backwards, as this child saw them (an update that was not atomic).
    private(set) var nonMonotonic = 0
    private(set) var isDone = false
    private var lastCounterValue = [Int](repeating: 0, count: SoakOptions.counters)

    init(child: Int) { self.child = child }

    /// Operations acknowledged, reads included.
    var operations: Int { writes + removals + transactions + progressWrites + noOpWrites + increments.reduce(0, +) + reads }

    /// Applies one line of the child's output (see ``SoakProtocol``).
    mutating func apply(_ line: Substring) {
        let words = line.split(separator: " ", maxSplits: 3)
        func number(_ index: Int) -> Int? { words.count > index ? Int(words[index]) : nil }
        switch (words.first, number(1), number(2), number(3)) {
        case ("S", let key?, let seq?, _):
            keys[key] = .some(SoakProtocol.value(child: child, seq: seq))
            writes += 1
        case ("D", let key?, _, _):
            keys[key] = .some(nil)
            removals += 1
        case ("T", let first?, let second?, let seq?):
            keys[first] = .some(SoakProtocol.value(child: child, seq: seq))
            keys[second] = .some(SoakProtocol.value(child: child, seq: seq))
            transactions += 1
        case ("U", let counter?, let value?, _) where counter < SoakOptions.counters:
            increments[counter] += 1
            if value <= lastCounterValue[counter] { nonMonotonic += 1 }
            lastCounterValue[counter] = value
        case ("P", let value?, _, _) where value > progress:
            progress = value
            progressWrites += 1
        case ("N", _, _, _) where words.count == 2:
            noOpWrites += 1
        case ("M", let ran?, _, _):
            migrationsRun += ran
        case ("X", let child?, let behind?, _):
            staleReports.append((child, behind))
            stale += 1
        case ("DONE", let reads?, let stale?, let checks?):
            self.reads = reads
            self.stale += stale
            self.checks = checks
            isDone = true
        default:
            errors.append(String(line))
        }
    }
}
