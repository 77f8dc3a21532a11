import Foundation
import LayeredDefaults

/// Everything one child acknowledged, and the state of its keys those acknowledgements imply.
struct SoakLedger {
    let child: Int
    /// The child's keys (by index) as its last acknowledged operation on each left them; nil: removed.
    private(set) var keys: [Int: PreferenceValue?] = [:]
    /// Acknowledged increments of each shared counter.
    private(set) var increments = [Int](repeating: 0, count: SoakOptions.counters)
    private(set) var writes = 0, removals = 0, transactions = 0, reads = 0, stale = 0
    private(set) var errors: [String] = []
    /// Counter values that went backwards, as this child saw them (an update that was not atomic).
    private(set) var nonMonotonic = 0
    private(set) var isDone = false
    private var lastCounterValue = [Int](repeating: 0, count: SoakOptions.counters)

    init(child: Int) { self.child = child }

    /// Operations acknowledged, reads included.
    var operations: Int { writes + removals + transactions + increments.reduce(0, +) + reads }

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
        case ("DONE", let reads?, let stale?, _):
            self.reads = reads
            self.stale = stale
            isDone = true
        default:
            errors.append(String(line))
        }
    }
}
