import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// Typed keys of `Set` (stored as a sorted array) and `UUID` (stored as its string), with no conformance
/// of the app's own.
@Suite struct SetAndUUIDKeyTests {
    enum Tag: String, PreferenceRepresentable { case work, home, later }
    struct Size: CodablePreference, Hashable {
        var width: Int
        var height: Int
    }

    /// The key of each reported error: `mismatchedValue`'s, else the error itself.
    private static func mismatchedKeys(_ errors: ReportedErrors) -> [String] {
        errors.all.map { error in
            guard case .mismatchedValue(_, let key, _) = error else { return "\(error)" }
            return key
        }
    }

    @Test func setsRoundTrip() throws {
        let defaults = try makeInMemoryDefaults()
        let tags = Defaults.Key("tags", default: Set<Tag>())
        #expect(defaults[tags].isEmpty)
        try defaults.write([.later, .work], for: tags)
        #expect(defaults[tags] == [.work, .later])
        #expect(try defaults.persistentValue(for: tags) == [.work, .later])
        let sizes = Defaults.Key("sizes", default: Set<Size>())
        try defaults.write([Size(width: 2, height: 1), Size(width: 1, height: 2)], for: sizes)
        #expect(defaults[sizes] == [Size(width: 1, height: 2), Size(width: 2, height: 1)])
    }

    /// The same set is stored as the same array whatever order it was built in: its stored values
    /// sorted ascending.
    @Test func aSetIsStoredAsItsSortedElements() throws {
        let defaults = try makeInMemoryDefaults()
        let names = Defaults.Key("names", default: Set<String>())
        for order in [["pear", "apple", "fig"], ["fig", "pear", "apple"], ["apple", "fig", "pear"]] {
            try defaults.write(Set(order), for: names)
            #expect(try defaults.persistentValue(forKey: "names") == ["apple", "fig", "pear"])
        }
        try defaults.write([10, -3, 2], for: Defaults.Key("numbers", default: Set<Int>()))
        #expect(try defaults.persistentValue(forKey: "numbers") == [-3, 2, 10])
        try defaults.write([.work, .home, .later], for: Defaults.Key("tags", default: Set<Tag>()))
        #expect(try defaults.persistentValue(forKey: "tags") == ["home", "later", "work"])
        let dates = Set([Date(timeIntervalSinceReferenceDate: 5), Date(timeIntervalSinceReferenceDate: -5)])
        try defaults.write(dates, for: Defaults.Key("dates", default: Set<Date>()))
        #expect(
            try defaults.persistentValue(forKey: "dates")
                == .array([.date(.init(timeIntervalSinceReferenceDate: -5)), .date(.init(timeIntervalSinceReferenceDate: 5))]))
    }

    /// Elements that are not `Comparable` (dictionaries, data, arrays) are in a fixed order too: a
    /// dictionary by its sorted keys, then its values in that order.
    @Test func aSetOfUnorderedTypesIsStoredInAFixedOrder() throws {
        let defaults = try makeInMemoryDefaults()
        try defaults.write(
            [["b": 1], ["a": 2], ["a": 1, "c": 0], ["a": 1]], for: Defaults.Key("dictionaries", default: Set<[String: Int]>()))
        #expect(try defaults.persistentValue(forKey: "dictionaries") == [["a": 1], ["a": 2], ["a": 1, "c": 0], ["b": 1]])
        try defaults.write([Data([2]), Data([1, 9]), Data([1])], for: Defaults.Key("data", default: Set<Data>()))
        #expect(
            try defaults.persistentValue(forKey: "data") == .array([.data(Data([1])), .data(Data([1, 9])), .data(Data([2]))]))
        try defaults.write([[2.5], [], [-1.0, 3.0]], for: Defaults.Key("arrays", default: Set<[Double]>()))
        #expect(try defaults.persistentValue(forKey: "arrays") == [[], [-1.0, 3.0], [2.5]])
    }

    /// The order is total: NaN after every number, kinds in a fixed order, so sorting never depends on
    /// where an element started.
    @Test func theStoredOrderIsTotal() {
        let values: [PreferenceValue] = [.double(.nan), .integer(1), .string("a"), .double(-.infinity), .bool(true), .double(0)]
        let expected: [PreferenceValue] = [
            .string("a"), .integer(1), .double(-.infinity), .double(0), .double(.nan), .bool(true),
        ]
        for rotation in 0..<values.count {
            let rotated = Array(values[rotation...] + values[..<rotation])
            let sorted = rotated.sorted(by: PreferenceValue.precedesInStoredOrder)
            #expect(sorted.map { String(describing: $0) } == expected.map { String(describing: $0) })
        }
    }

    @Test func aStoredArrayReadsAsItsSet() throws {
        let errors = ReportedErrors()
        let defaults = try makeInMemoryDefaults(errorHandler: errors.record)
        let names = Defaults.Key("names", default: Set(["default"]))
        try defaults.write(["b", "a", "b"], forKey: "names")
        #expect(defaults[names] == ["a", "b"], "an element stored twice is one element")
        try defaults.write(["a", 1], forKey: "names")
        #expect(defaults[names] == ["default"], "an element that does not convert: the default")
        try defaults.write("a", forKey: "names")
        #expect(defaults[names] == ["default"], "not an array: the default")
        #expect(Self.mismatchedKeys(errors) == ["names"], "reported once, naming the key")
    }

    @Test func aUUIDIsStoredAsItsString() throws {
        let errors = ReportedErrors()
        let defaults = try makeInMemoryDefaults(errorHandler: errors.record)
        let id = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let installation = Defaults.Key<UUID?>("installation")
        #expect(defaults[installation] == nil)
        try defaults.write(id, for: installation)
        #expect(try defaults.persistentValue(forKey: "installation") == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        #expect(defaults[installation] == id)
        try defaults.write("e621e1f8-c36c-495a-93fc-0c247a3e6e5f", forKey: "installation")
        #expect(defaults[installation] == id, "lower case reads too")
        try defaults.write("not a uuid", forKey: "installation")
        #expect(defaults[installation] == nil)
        #expect(try defaults.persistentValue(for: installation) == nil)
        #expect(Self.mismatchedKeys(errors) == ["installation"], "reported once, naming the key")
    }
}
