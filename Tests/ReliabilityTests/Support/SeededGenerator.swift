/// A small, fast, seeded random number generator (SplitMix64), so a failing fuzz or kill run can be
/// replayed from the seed printed with it.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    /// The seed this generator started from.
    let seed: UInt64

    init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// A generator seeded from the system's generator; print ``seed`` with any failure.
    static func random() -> SeededGenerator { SeededGenerator(seed: UInt64.random(in: 0...UInt64.max)) }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
