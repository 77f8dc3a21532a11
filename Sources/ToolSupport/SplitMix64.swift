/// A small, fast, seeded random number generator (SplitMix64): the same seed gives the same sequence,
/// so a benchmark's workload is the same for every peer and a failing soak or fuzz run can be replayed
/// from the seed printed with it.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    /// The seed this generator started from.
    public let seed: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// A generator seeded from the system's generator; print ``seed`` with any failure.
    public static func random() -> SplitMix64 { SplitMix64(seed: UInt64.random(in: 0...UInt64.max)) }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
