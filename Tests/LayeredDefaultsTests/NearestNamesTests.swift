import Foundation
import Testing

@testable import LayeredDefaults

/// "Did you mean" does bounded work: only names within a small edit distance are suggested (2, or a
/// third of the name's length, at most `PreferenceSchema.maximumSuggestionDistance`), and the distance is
/// computed in a band of that width, cut short once a row is past it: at most names x length x (2 x the
/// distance + 1) cells, counted here, never timed. Before, a refused write against an 8,000-key schema
/// spent 3.4 to 4.5 s (debug build) finding the nearest names.
@Suite struct NearestNamesTests {
    /// 8,000 keys of 60 characters: `preference.number.0000` and so on, padded.
    static let schema: PreferenceSchema = {
        let entries = (0..<8_000).map { index in
            let number = String(index)
            let name = "preference.number." + String(repeating: "0", count: 4 - number.count) + number
            return PreferenceSchema.Entry(
                name: name + String(repeating: "x", count: 60 - name.count), type: .integer, defaultValue: nil, summary: "s")
        }
        return try! PreferenceSchema(suiteName: "test.suite", version: 1, entries: entries)
    }()

    /// The most cells the distance may compute for `name` against every key.
    static func bound(for name: String) -> Int {
        let distance = min(PreferenceSchema.maximumSuggestionDistance, max(2, name.count / 3))
        return schema.keys.count * name.count * (2 * distance + 1)
    }

    @Test func aNearNameIsSuggestedWithinTheBound() {
        let name = "preference.number.1234" + String(repeating: "x", count: 37) + "y"
        var steps = 0
        let nearest = Self.schema.names(nearestTo: name, steps: &steps)
        #expect(nearest.first == "preference.number.1234" + String(repeating: "x", count: 38))
        #expect(nearest.count == 3)
        #expect(steps <= Self.bound(for: name))
    }

    @Test func aFarNameOfTheSameLengthGetsNoSuggestionWithinTheBound() {
        let name = String(repeating: "q", count: 60)
        var steps = 0
        #expect(Self.schema.names(nearestTo: name, steps: &steps) == [])
        #expect(steps > 0)
        #expect(steps <= Self.bound(for: name))
    }

    @Test func aNameOfAnotherLengthIsNeverCompared() {
        var steps = 0
        #expect(Self.schema.names(nearestTo: "fontSize", steps: &steps) == [])
        #expect(steps == 0)
    }

    /// The banded, cut-short distance is the Levenshtein distance wherever that is within the limit, and
    /// `limit + 1` otherwise: every pair of words of up to 6 letters of "ab", at limits 1 to 4.
    @Test func theBandedDistanceIsTheDistanceWithinTheLimit() {
        func words(upTo length: Int) -> [[Character]] {
            (0...length).flatMap { count in
                (0..<(1 << count)).map { bits in (0..<count).map { bits >> $0 & 1 == 0 ? "a" : "b" } }
            }
        }
        func distance(_ a: [Character], _ b: [Character]) -> Int {
            var previous = Array(0...b.count)
            for i in a.indices {
                var current = [i + 1] + Array(repeating: 0, count: b.count)
                for j in b.indices {
                    current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1))
                }
                previous = current
            }
            return previous[b.count]
        }
        let all = words(upTo: 6)
        var mismatches = 0
        var steps = 0
        for limit in 1...4 {
            for a in all where a.count >= 3 {
                for b in all {
                    let expected = min(distance(a, b), limit + 1)
                    if PreferenceSchema.editDistance(a, b, limit: limit, steps: &steps) != expected { mismatches += 1 }
                }
            }
        }
        #expect(mismatches == 0)
    }
}
