import Foundation
import PackageTestSupport
import ToolSupport

@testable import LayeredDefaults

/// Random property-list values for load and fuzz tests.
enum RandomValues {
    /// A random value, nested at most `depth` levels; `finite` leaves out NaN and infinite doubles.
    static func value(depth: Int = 2, finite: Bool = true, using generator: inout SplitMix64) -> PreferenceValue {
        switch Int.random(in: 0..<(depth > 0 ? 10 : 8), using: &generator) {
        case 0, 1: return .string(string(using: &generator))
        case 2: return .integer(Int.random(in: Int.min...Int.max, using: &generator))
        case 3: return .integer(Int.random(in: -1000...1000, using: &generator))
        case 4: return .double(double(finite: finite, using: &generator))
        case 5: return .bool(Bool.random(using: &generator))
        case 6: return .date(date(using: &generator))
        case 7:
            return .data(
                Data((0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        case 8:
            return .array(
                (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                    value(depth: depth - 1, finite: finite, using: &generator)
                })
        default:
            var values: [String: PreferenceValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                values[string(using: &generator)] = value(depth: depth - 1, finite: finite, using: &generator)
            }
            return .dictionary(values)
        }
    }

    /// A random date a store holds: anywhere in `PreferenceValue.dateRange`, near its ends, or near now,
    /// with or without a fraction of a second.
    static func date(using generator: inout SplitMix64) -> Date {
        let range = PreferenceValue.dateRange
        let (first, last) = (range.lowerBound.timeIntervalSinceReferenceDate, range.upperBound.timeIntervalSinceReferenceDate)
        let seconds: Double
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: seconds = first + Double(Int.random(in: 0...1000, using: &generator))
        case 1: seconds = last - Double(Int.random(in: 1...1000, using: &generator))
        case 2: seconds = Double(Int.random(in: -1_000_000_000...1_000_000_000, using: &generator))
        default: seconds = Double.random(in: first..<last, using: &generator)
        }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    /// A random string: ASCII, accents, CJK, emoji, control characters and NUL.
    static func string(maximumLength: Int = 24, using generator: inout SplitMix64) -> String {
        let pieces: [String] = [
            "a", "Z", "0", " ", "é", "日本", "🙂", "\n", "\t", "\0", "\"", "'", "\\", "=", ";", "(", "{", "<", "%", "\u{301}",
            "\u{FEFF}",
        ]
        return (0..<Int.random(in: 0...maximumLength, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
            .joined()
    }

    static func double(finite: Bool, using generator: inout SplitMix64) -> Double {
        switch Int.random(in: 0..<(finite ? 4 : 7), using: &generator) {
        case 0: return Double(Int.random(in: -1_000_000...1_000_000, using: &generator)) / 8
        case 1:
            return Double(bitPattern: generator.next() & ~(0x7FF << 52) | (UInt64.random(in: 1...0x7FE, using: &generator) << 52))
        case 2: return -0.0
        case 3: return .leastNonzeroMagnitude
        case 4: return .nan
        case 5: return .infinity
        default: return -.infinity
        }
    }

    /// True when two values are the same, counting NaN equal to NaN and telling 0.0 from -0.0 apart.
    static func same(_ a: PreferenceValue?, _ b: PreferenceValue?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (.double(let x)?, .double(let y)?): return x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
        case (.date(let x)?, .date(let y)?):
            let (s, t) = (x.timeIntervalSinceReferenceDate, y.timeIntervalSinceReferenceDate)
            return s.bitPattern == t.bitPattern || (s.isNaN && t.isNaN)
        case (.array(let x)?, .array(let y)?): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.dictionary(let x)?, .dictionary(let y)?): return x.keys == y.keys && x.allSatisfy { same($0.value, y[$0.key]) }
        default: return a == b
        }
    }
}
