import Foundation

/// The monotonic clock in nanoseconds (`clock_gettime(CLOCK_MONOTONIC)`, a vDSO call of ~20 ns).
@inline(__always)
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
}

/// Where measured loops deposit a checksum of what they read, so the optimizer cannot drop the reads.
nonisolated(unsafe) private var checksumSink = 0

/// Deposits `value` into a global the optimizer must assume is observed.
@inline(never)
func consume(_ value: Int) { checksumSink &+= value }

/// One measured figure: the median of several repetitions, with the smallest and largest.
struct Sample: Codable, Sendable {
    /// The median over the repetitions.
    var median: Double
    /// The smallest repetition.
    var min: Double
    /// The largest repetition.
    var max: Double
    /// How many repetitions were measured.
    var repetitions: Int
    /// Operations per repetition (the figure is per operation).
    var operations: Int
    /// The figure of each repetition, in the order measured.
    var values: [Double]

    /// The statistics of `values` (one per repetition).
    init(_ values: [Double], operations: Int) {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        median = sorted.isEmpty ? 0 : sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        min = sorted.first ?? 0
        max = sorted.last ?? 0
        repetitions = sorted.count
        self.operations = operations
        self.values = values
    }

    /// The statistics of this sample's repetitions and `other`'s together (another round of the same
    /// measurement).
    func merged(with other: Sample) -> Sample {
        Sample(values + other.values, operations: operations)
    }

    /// Every figure divided by `divisor` (e.g. a batch's figure per row).
    func divided(by divisor: Double) -> Sample {
        Sample(values.map { $0 / divisor }, operations: operations)
    }

    /// A single exact figure (a count).
    init(exactly value: Double) {
        self.init([value], operations: 1)
    }
}

/// How long and how often a case measures.
struct MeasureSettings: Sendable {
    /// Repetitions of each measurement (each gives one figure; the report shows their median).
    var repetitions: Int
    /// Fewer repetitions are run when an operation is so slow that ``repetitions`` would exceed the budget.
    var minimumRepetitions: Int
    /// The target duration of one repetition, in nanoseconds; fast operations are repeated to fill it.
    var repetitionNanoseconds: Double
    /// The time one measurement may take, calibration included, in nanoseconds (exceeded only to reach
    /// ``minimumRepetitions`` of a single operation; an operation that alone outlasts it is measured once).
    var budgetNanoseconds: Double
    /// Child processes started per multi-process measurement.
    var processRepetitions: Int

    /// The full run: a few minutes in all.
    static let full = MeasureSettings(
        repetitions: 7, minimumRepetitions: 3, repetitionNanoseconds: 20e6,
        budgetNanoseconds: 2.5e9, processRepetitions: 5)
    /// The `--quick` run: under a minute in all.
    static let quick = MeasureSettings(
        repetitions: 5, minimumRepetitions: 2, repetitionNanoseconds: 3e6,
        budgetNanoseconds: 0.3e9, processRepetitions: 3)

    /// These settings with repetitions of at least `nanoseconds` (and the budget to run them all).
    ///
    /// NB: for durable writes. SQLite checkpoints the WAL about every 1,000 commits, a pause of
    /// milliseconds that a 20 ms repetition holds once or not at all: its figure would jump between
    /// two values. A repetition of several checkpoints carries its share of them. (Ours, writing
    /// without a pause, checkpoints at its backstop, also every 1,000 log frames.)
    func withRepetitions(of nanoseconds: Double) -> MeasureSettings {
        var settings = self
        settings.repetitionNanoseconds = Swift.max(repetitionNanoseconds, nanoseconds)
        settings.budgetNanoseconds = Swift.max(budgetNanoseconds, 1.25 * Double(repetitions) * settings.repetitionNanoseconds)
        return settings
    }
}

/// The cost of reading the clock twice, subtracted from operations that time themselves.
let timerOverheadNanoseconds: Double = {
    var values: [UInt64] = []
    for _ in 0..<2001 {
        let start = monotonicNanoseconds()
        values.append(monotonicNanoseconds() - start)
    }
    return Double(values.sorted()[values.count / 2])
}()

/// Measures `body`, which performs the operations numbered by its range (each number once over the
/// whole measurement, so an operation can make a fresh key from it).
///
/// A calibration (which also warms up) doubles the count until a run takes a tenth of a repetition;
/// then each repetition runs enough operations to last ``MeasureSettings/repetitionNanoseconds``,
/// within ``MeasureSettings/budgetNanoseconds``.
/// - Returns: nanoseconds per operation.
func measure(_ settings: MeasureSettings, _ body: (Range<Int>) throws -> Void) rethrows -> Sample {
    try measureRuns(settings) { range in
        let start = monotonicNanoseconds()
        try body(range)
        return Double(monotonicNanoseconds() - start)
    }
}

/// Measures an operation that times its own essential part: `operation(i)` performs operation `i`
/// (untimed setup and cleanup included) and returns the nanoseconds of the part that counts, read with
/// ``monotonicNanoseconds()`` around it; the clock's own cost is subtracted.
/// - Returns: nanoseconds per operation, as ``measure(_:_:)``.
func measureEach(_ settings: MeasureSettings, _ operation: (Int) throws -> UInt64) rethrows -> Sample {
    try measureRuns(settings) { range in
        var timed: UInt64 = 0
        for index in range { timed &+= try operation(index) }
        return Swift.max(0, Double(timed) - timerOverheadNanoseconds * Double(range.count))
    }
}

/// The calibration and repetitions shared by ``measure(_:_:)`` and ``measureEach(_:_:)``: `run`
/// performs a range of operations and returns the nanoseconds that count.
private func measureRuns(_ settings: MeasureSettings, _ run: (Range<Int>) throws -> Double) rethrows -> Sample {
    var next = 0
    var count = 1
    var spent = 0.0
    var wallPerOperation = 0.0
    var calibration = 0.0
    while true {
        let start = monotonicNanoseconds()
        calibration = try run(next..<next + count) / Double(count)
        let wall = Double(monotonicNanoseconds() - start)
        next += count
        spent += wall
        wallPerOperation = wall / Double(count)
        if wall >= settings.repetitionNanoseconds / 10 || spent >= settings.budgetNanoseconds / 4 { break }
        count *= 2
    }
    // NB: an operation that alone outlasts the whole budget (Foundation's batch) is measured once.
    if count == 1, spent >= settings.budgetNanoseconds { return Sample([calibration], operations: 1) }
    let remaining = Swift.max(0, settings.budgetNanoseconds - spent)
    var operations = Swift.max(1, Int(settings.repetitionNanoseconds / wallPerOperation))
    var repetitions = settings.repetitions
    if Double(operations * repetitions) * wallPerOperation > remaining {
        operations = Swift.max(1, Int(remaining / Double(repetitions) / wallPerOperation))
        if Double(operations * repetitions) * wallPerOperation > remaining {
            repetitions = Swift.max(settings.minimumRepetitions, Int(remaining / wallPerOperation))
        }
    }
    var values: [Double] = []
    for _ in 0..<repetitions {
        values.append(try run(next..<next + operations) / Double(operations))
        next += operations
    }
    return Sample(values, operations: operations)
}
