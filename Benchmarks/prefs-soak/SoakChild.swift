import Foundation
import LayeredDefaults
import ToolSupport

/// Child mode: runs mixed operations until the deadline, acknowledging each committed one, and checks
/// its reads: of its own keys against what it wrote, of other children's progress keys against what
/// they had acknowledged (on the ``SoakBoard``) or this child had already read.
///
/// Time alternates between busy and quiet spells, the same for every child (see
/// ``SoakOptions/quietSpellWriter(among:)``). Busy, a child runs the mix below as fast as it can. In a
/// quiet spell one child writes its progress with a pause of 1-3 ms after each write, and the others
/// loop over a write that changes nothing and a read of that child's progress.
///
/// NB: a store that misses another process's commit serves its old view only until it sees the next
/// commit of another process. When every child commits without pause, that is microseconds later and
/// no read can notice; quiet spells, like the pauses of real applications, let a missed commit show.
/// Writes that change nothing are the commits a store is most likely to mistake: they leave SQLite's
/// change counter where it was.
struct SoakChild {
    let index: Int
    let options: SoakOptions

    func run() -> Int32 {
        guard let root = options.root else { return 2 }
        let defaults: Defaults
        let board: SoakBoard
        do {
            defaults = try Defaults(suiteName: SoakOptions.suite, configuration: .init(location: .directory(root), arguments: []))
            board = try SoakBoard(in: root, children: options.processes)
            let ran = try defaults.migrate(SoakProtocol.migration) { _ in }
            say("M \(ran ? 1 : 0)")
        } catch {
            say("E \(error)")
            return 1
        }
        var generator = SplitMix64(seed: options.seed)
        var model: [Int: PreferenceValue] = [:]  // this child's keys as its acknowledged writes left them
        var progress = 0  // this child's progress key, as last written
        var seen = [Int](repeating: 0, count: options.processes)  // the latest progress read of each child
        var (seq, reads, stale, checks) = (0, 0, 0, 0)

        /// Reads the progress key of child `other`; stale when older than a value known to have committed.
        func checkProgress(of other: Int) throws {
            // Loaded before the read begins: that value had committed by then (see SoakBoard).
            let known = max(board.acknowledged(by: other), seen[other])
            let found = try defaults.value(forKey: SoakProtocol.progressKey(child: other))?.integerValue ?? 0
            if found < known { say("X \(other) \(known - found)") }
            seen[other] = max(seen[other], found)
            reads += 1
            checks += 1
        }

        /// Another child (this one when it is alone).
        func anotherChild() -> Int {
            options.processes == 1
                ? index
                : (index + 1 + Int.random(in: 0..<(options.processes - 1), using: &generator)) % options.processes
        }

        /// Writes the next progress value and publishes it on the board once committed.
        func writeProgress() throws {
            progress += 1
            try defaults.write(.integer(progress), forKey: SoakProtocol.progressKey(child: index))
            // NB: --simulate-stale publishes progress that was never committed, so readers must see stale values.
            board.publish(options.simulateStale && index == 0 ? progress + 1_000_000 : progress, child: index)
            say("P \(progress)")
        }

        let deadline = ContinuousClock.now + .milliseconds(Int(options.seconds * 1000))
        while ContinuousClock.now < deadline {
            seq += 1
            let keyIndex = Int.random(in: 0..<options.keys, using: &generator)
            let key = SoakProtocol.key(child: index, index: keyIndex)
            do {
                if let writer = SoakOptions.quietSpellWriter(among: options.processes) {
                    if writer == index {
                        try writeProgress()
                        usleep(UInt32.random(in: 1000...3000, using: &generator))
                    } else {
                        try writeNothing(
                            Int.random(in: 0..<4, using: &generator), to: defaults, key: key, holding: model[keyIndex])
                        try checkProgress(of: writer)
                    }
                    continue
                }
                switch Int.random(in: 0..<100, using: &generator) {
                case 0..<30:
                    let value = SoakProtocol.value(child: index, seq: seq)
                    try defaults.write(value, forKey: key)
                    model[keyIndex] = value
                    say("S \(keyIndex) \(seq)")
                case 30..<40:
                    try defaults.write(nil, forKey: key)
                    model[keyIndex] = nil
                    say("D \(keyIndex)")
                case 40..<45:
                    let other = (keyIndex + 1 + Int.random(in: 0..<(options.keys - 1), using: &generator)) % options.keys
                    let value = SoakProtocol.value(child: index, seq: seq)
                    try defaults.transaction { domain in
                        try domain.write(value, forKey: key)
                        try domain.write(value, forKey: SoakProtocol.key(child: index, index: other))
                    }
                    model[keyIndex] = value
                    model[other] = value
                    say("T \(keyIndex) \(other) \(seq)")
                case 45..<55:
                    let counter = Int.random(in: 0..<SoakOptions.counters, using: &generator)
                    let value = try defaults.update(forKey: SoakProtocol.counter(counter)) {
                        $0 = .integer(($0?.integerValue ?? 0) + 1)
                    }
                    say("U \(counter) \(value?.integerValue ?? -1)")
                case 55..<60:
                    try writeProgress()
                case 60..<70:
                    try writeNothing(Int.random(in: 0..<4, using: &generator), to: defaults, key: key, holding: model[keyIndex])
                case 70..<90:
                    reads += 1
                    if try defaults.persistentValue(forKey: key) != model[keyIndex] { stale += 1 }
                default:
                    try checkProgress(of: anotherChild())
                }
            } catch {
                say("E \(error)")
            }
        }
        say("DONE \(reads) \(stale) \(checks)")
        return 0
    }

    /// A write transaction that commits and changes nothing, of one of four `kind`s: rewrites `key` with
    /// the value it holds (`value`; nil: removes the absent key), removes a key that never exists, runs an
    /// empty transaction, or runs the setup migration again (which must not run).
    private func writeNothing(_ kind: Int, to defaults: Defaults, key: String, holding value: PreferenceValue?) throws {
        switch kind {
        case 0:
            try defaults.write(value, forKey: key)
            say("N same")
        case 1:
            try defaults.write(nil, forKey: SoakProtocol.absentKey(child: index))
            say("N absent")
        case 2:
            try defaults.transaction { _ in }
            say("N empty")
        default:
            let ran = try defaults.migrate(SoakProtocol.migration) { _ in }
            say(ran ? "E the setup migration ran again" : "N migrate")
        }
    }

    /// One line on standard output, written at once (the parent reads while we run).
    private func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
