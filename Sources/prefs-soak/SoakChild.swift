import Foundation
import LayeredDefaults

/// Child mode: runs mixed operations until the deadline, acknowledging each committed one.
struct SoakChild {
    let index: Int
    let options: SoakOptions

    func run() -> Int32 {
        guard let root = options.root else { return 2 }
        let defaults: Defaults
        do {
            defaults = try Defaults(suiteName: SoakOptions.suite, configuration: .init(location: .directory(root), arguments: []))
        } catch {
            say("E \(error)")
            return 1
        }
        var generator = SplitMix64(seed: options.seed)
        var model: [Int: PreferenceValue] = [:]  // this child's keys as its acknowledged writes left them
        var seq = 0
        var reads = 0
        var stale = 0
        let deadline = ContinuousClock.now + .milliseconds(Int(options.seconds * 1000))
        while ContinuousClock.now < deadline {
            seq += 1
            let keyIndex = Int.random(in: 0..<options.keys, using: &generator)
            let key = SoakProtocol.key(child: index, index: keyIndex)
            do {
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
                        try domain.set(value, forKey: key)
                        try domain.set(value, forKey: SoakProtocol.key(child: index, index: other))
                    }
                    model[keyIndex] = value
                    model[other] = value
                    say("T \(keyIndex) \(other) \(seq)")
                case 45..<60:
                    let counter = Int.random(in: 0..<SoakOptions.counters, using: &generator)
                    let value = try defaults.update(forKey: SoakProtocol.counter(counter)) { .integer(($0?.integerValue ?? 0) + 1) }
                    say("U \(counter) \(value?.integerValue ?? -1)")
                case 60..<85:
                    reads += 1
                    if try defaults.persistentValue(forKey: key) != model[keyIndex] { stale += 1 }
                default:
                    reads += 1
                    let other = Int.random(in: 0..<options.processes, using: &generator)
                    _ = try defaults.value(forKey: SoakProtocol.key(child: other, index: keyIndex))
                    _ = defaults.integer(forKey: SoakProtocol.counter(keyIndex % SoakOptions.counters))
                }
            } catch {
                say("E \(error)")
            }
        }
        say("DONE \(reads) \(stale)")
        return 0
    }

    /// One line on standard output, written at once (the parent reads while we run).
    private func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

/// A seeded generator (SplitMix64), so a run can be replayed from its printed seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
