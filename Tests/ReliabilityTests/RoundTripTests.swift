import Foundation
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing
import ToolSupport

@testable import LayeredDefaults

/// What is written is what is read back, through the in-memory view and through a new connection.
@Suite(.hangLimit(minutes: 1))
struct RoundTripTests {
    /// NUL is a character like any other, in values and in keys: "a\0b" and "a\0c" are two keys.
    @Test func stringsAndKeysWithNULRoundTrip() throws {
        try withTemporaryRoot { root in
            let defaults = try Defaults(suiteName: "nul", configuration: .init(location: .directory(root), arguments: []))
            try defaults.write("value\0after NUL", forKey: "a\0b")
            try defaults.write("other", forKey: "a\0c")
            try defaults.write("", forKey: "empty")
            try defaults.write(.array(["x\0y", ""]), forKey: "array")
            let expected: [String: PreferenceValue] = [
                "a\0b": "value\0after NUL", "a\0c": "other", "empty": "", "array": .array(["x\0y", ""]),
            ]
            #expect(try freshValues(of: databaseFile("nul", in: root)) == expected)
            let reader = try Defaults(suiteName: "nul", configuration: .init(location: .directory(root), arguments: []))
            #expect(reader.string(forKey: "a\0b") == "value\0after NUL")
            #expect(try reader.persistentValue(forKey: "a") == nil)
        }
    }

    /// Every value a caller can build either round-trips exactly through the file or is refused with a
    /// ``DefaultsError`` and changes nothing: non-finite numbers and dates, deep containers, odd strings.
    @Test func everyConstructibleValueRoundTripsOrIsRefused() throws {
        var generator = SplitMix64.random()
        let seed = generator.seed
        try withTemporaryRoot { root in
            let defaults = try Defaults(suiteName: "values", configuration: .init(location: .directory(root), arguments: []))
            var expected: [String: PreferenceValue] = [:]
            for index in 0..<1_000 {
                let key = "k\(index % 50)"
                let value = RandomValues.value(depth: 3, finite: false, using: &generator)
                do {
                    try defaults.write(value, forKey: key)
                    expected[key] = value
                } catch is DefaultsError {
                    #expect(try RandomValues.same(defaults.persistentValue(forKey: key), expected[key]), "seed \(seed)")
                } catch {
                    Issue.record("seed \(seed): untyped \(type(of: error)) for key \(key): \(error)")
                }
            }
            let fresh = try freshValues(of: databaseFile("values", in: root))
            #expect(fresh.keys.sorted() == expected.keys.sorted(), "seed \(seed)")
            for (key, value) in expected {
                #expect(RandomValues.same(fresh[key], value), "seed \(seed): \(key) came back different")
                #expect(try RandomValues.same(defaults.persistentValue(forKey: key), value), "seed \(seed): \(key) in memory")
            }
        }
    }
}
