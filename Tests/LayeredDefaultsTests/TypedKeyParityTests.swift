import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// What sindresorhus/Defaults' users expect of typed keys: defaults computed when read, ranges, and
/// dictionaries whose keys are not strings.
@Suite struct TypedKeyParityTests {
    /// A computed default runs whenever nothing usable is stored, and never once a value is; its schema
    /// entry says it has no fixed default.
    @Test func aComputedDefaultIsComputedWhenRead() throws {
        let counter = Counter()
        let key = Defaults.Key<Int>("counter", summary: "A counter") {
            counter.increment()
            return counter.value
        }
        let defaults = try makeInMemoryDefaults()
        #expect(defaults[key] == 1)
        #expect(defaults[key] == 2, "computed at each read")
        try defaults.write(10, for: key)
        #expect(defaults[key] == 10)
        #expect(counter.value == 2)
        try defaults.reset(key)
        #expect(defaults[key] == 3)
        let entry = key.schemaEntry
        #expect(entry.defaultIsComputed && entry.defaultValue == nil && entry.type == .integer)
        let schema = try PreferenceSchema(suiteName: "test.suite", version: 1, keys: key)
        #expect(try PreferenceSchema(jsonData: schema.jsonData(), path: "x") == schema, "the file says so")
        #expect(String(decoding: try schema.jsonData(), as: UTF8.self).contains(#""computedDefault" : true"#))
    }

    @Test func rangesAreStoredAsTheirBounds() throws {
        let defaults = try makeInMemoryDefaults()
        let open = Defaults.Key<Range<Int>>("open", default: 0..<10)
        let closed = Defaults.Key<ClosedRange<Double>>("closed", default: 0...1)
        #expect(defaults[open] == 0..<10)
        try defaults.write(3..<7, for: open)
        try defaults.write(0.25...0.75, for: closed)
        #expect(defaults[open] == 3..<7 && defaults[closed] == 0.25...0.75)
        #expect(try defaults.persistentValues() == ["open": [3, 7], "closed": [0.25, 0.75]])
        #expect(open.schemaEntry.type == .array)
    }

    /// A stored range whose bounds are out of order (which `Range` would trap on) reads as the default.
    @Test func aStoredRangeOutOfOrderReadsAsTheDefault() throws {
        let errors = ReportedErrors()
        let defaults = try makeInMemoryDefaults(errorHandler: errors.record)
        let open = Defaults.Key<Range<Int>>("open", default: 0..<10)
        for stored: PreferenceValue in [[7, 3], [1], [1, 2, 3], ["a", "b"], 5] {
            try defaults.write(stored, forKey: "open")
            #expect(defaults[open] == 0..<10)
        }
        #expect(errors.all == [.mismatchedValue(suite: "test.suite", key: "open", type: "Range<Int>")])
    }

    @Test func dictionariesWithKeysThatAreNotStrings() throws {
        let defaults = try makeInMemoryDefaults()
        let names = Defaults.Key<[Int: String]>("names", default: [:])
        try defaults.write([1: "one", 20: "twenty"], for: names)
        #expect(defaults[names] == [1: "one", 20: "twenty"])
        #expect(try defaults.persistentValue(forKey: "names") == ["1": "one", "20": "twenty"])
        let flags = Defaults.Key<[Bool: Int]>("flags", default: [:])
        try defaults.write([true: 1, false: 0], for: flags)
        #expect(defaults[flags] == [true: 1, false: 0])
        #expect(names.schemaEntry.type == .dictionary)
    }

    /// Two stored keys that read as one key (`"1"` and `"01"`), or one that does not read at all, make the
    /// whole value unreadable: it reads as the default rather than losing an entry.
    @Test func aStoredDictionaryWhoseKeysCollideReadsAsTheDefault() throws {
        let defaults = try makeInMemoryDefaults(errorHandler: { _ in })
        let names = Defaults.Key<[Int: String]>("names", default: [0: "default"])
        try defaults.write(["1": "one", "01": "also one"], forKey: "names")
        #expect(defaults[names] == [0: "default"])
        try defaults.write(["x": "not a number"], forKey: "names")
        #expect(defaults[names] == [0: "default"])
    }
}
