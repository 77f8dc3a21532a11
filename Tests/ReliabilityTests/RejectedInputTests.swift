import Foundation
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// Values that are not property lists, dictionaries with non-string keys, empty keys and values nested
/// too deep are refused by every write path with a typed error, and the store is unchanged: on disk, in
/// memory, in the registration and volatile domains. (`LayeredDefaultsTests.BadInputTests` covers `set(_:forKey:)`.)
@Suite(.hangLimit(minutes: 1))
struct RejectedInputTests {
    struct Custom {}

    /// Values `PreferenceValue(any:)` must refuse: not property lists, non-string keys (also nested),
    /// a nil inside a container, a number out of range.
    static let rejected: [any Sendable] = [
        URL(string: "https://example.com")!, [1: "one"] as [Int: String],
        ["outer": [2: "two"] as [Int: String]] as [String: any Sendable],
        [["ok", URL(fileURLWithPath: "/")]] as [[any Sendable]], Set(["a"]), ("a", 1), [String?.none] as [String?],
        UInt64.max, UUID(), Character("c"), 1...2, Custom(), [Custom()],
    ]

    @Test func everyWritePathRefusesWhatIsNotAPropertyList() throws {
        try withTemporaryRoot { root in
            let reported = ReportedErrors()
            let defaults = try Defaults(
                suiteName: "strict",
                configuration: .init(location: .directory(root), arguments: [], errorHandler: reported.record))
            try defaults.write("kept", forKey: "k")
            defaults.register(defaults: ["registered": 1])
            defaults.setVolatileDomain(["volatile": 1], forName: "custom")
            let file = databaseFile("strict", in: root)
            let before = try #require(FileSnapshot.take(file))

            for value in Self.rejected {
                defaults.set(value, forKey: "k")
                defaults.set(["k": value], forKey: "k")
                // NB: register(defaults:) takes a URL (as Foundation does), stored as set(_: URL?) stores it.
                if !(value is URL) { defaults.register(defaults: ["good": 1, "k": value]) }
                defaults.setPersistentDomain(["good": 1, "k": value], forName: "strict")
                defaults.setPersistentDomain(["good": 1, "k": value], forName: "other")
                defaults.setVolatileDomain(["good": 1, "k": value], forName: "custom")
                defaults.setVolatileDomain(["good": 1, "k": value], forName: Defaults.argumentDomain)
            }
            #expect(reported.all.count == Self.rejected.count * 7 - 1)
            for error in reported.all {
                switch error {
                case .notPropertyList(_, "k", let type), .valueOutOfRange(_, "k", let type): #expect(!type.isEmpty)
                default: Issue.record("unexpected \(error)")
                }
            }
            #expect(try defaults.persistentValues() == ["k": "kept"])
            #expect(defaults.volatileDomain(forName: Defaults.registrationDomain) as? [String: Int] == ["registered": 1])
            #expect(defaults.volatileDomain(forName: "custom") as? [String: Int] == ["volatile": 1])
            #expect(defaults.volatileDomain(forName: Defaults.argumentDomain).isEmpty)
            #expect(defaults.persistentDomainNames() == ["strict"], "no file for the refused domain")
            #expect(FileSnapshot.take(file) == before, "not even a transaction was begun")
        }
    }

    @Test func emptyKeysAreRefusedByEveryWritePath() throws {
        try withTemporaryRoot { root in
            let reported = ReportedErrors()
            let defaults = try Defaults(
                suiteName: "keys", configuration: .init(location: .directory(root), arguments: [], errorHandler: reported.record))
            try defaults.write("kept", forKey: "k")
            let expected = DefaultsError.invalidKey(suite: "keys")
            #expect(throws: expected) { try defaults.write("v", forKey: "") }
            #expect(throws: expected) { try defaults.write(nil, forKey: "") }
            #expect(throws: expected) { try defaults.update(forKey: "") { $0 = "v" } }
            #expect(throws: expected) {
                try defaults.transaction { domain in
                    try domain.write("changed", forKey: "k")
                    try domain.write("new", forKey: "other")
                    try domain.write("v", forKey: "")
                }
            }
            #expect(throws: expected) { try defaults.replacePersistentValues(["": "v", "k": "changed"]) }
            defaults.set("v", forKey: "")
            defaults.removeObject(forKey: "")
            defaults.setPersistentDomain(["": "v", "k": "changed"], forName: "keys")
            #expect(reported.all == [expected, expected, expected])
            #expect(try defaults.persistentValue(forKey: "k") == "kept")
            #expect(try defaults.persistentValue(forKey: "other") == nil)
            #expect(try freshValues(of: databaseFile("keys", in: root)) == ["k": "kept"])
        }
    }

    /// Expects each throwing write of `value` for the key `k` (`write`, `update`, a transaction that also
    /// changes `other`, `replacePersistentValues`) to throw `expected`.
    static func expectEveryThrowingWriteRefuses(
        _ value: PreferenceValue, with expected: DefaultsError, in defaults: Defaults,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(throws: expected, sourceLocation: sourceLocation) { try defaults.write(value, forKey: "k") }
        #expect(throws: expected, sourceLocation: sourceLocation) { try defaults.update(forKey: "k") { $0 = value } }
        #expect(throws: expected, sourceLocation: sourceLocation) {
            try defaults.transaction { domain in
                try domain.write("changed", forKey: "other")
                try domain.write(value, forKey: "k")
            }
        }
        #expect(throws: expected, sourceLocation: sourceLocation) {
            try defaults.replacePersistentValues(["k": value, "other": "changed"])
        }
    }

    /// A date outside `PreferenceValue.dateRange` (NaN, the infinities, years past 9999 or before 1), alone
    /// or inside a container, is refused by every write path before anything is written, naming suite and
    /// key; the range's own ends are stored.
    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300, -1e300, 252_423_993_600, -63_113_904_000.001])
    func datesOutsideTheRangeAreRefusedByEveryWritePath(seconds: Double) throws {
        try withTemporaryRoot { root in
            let reported = ReportedErrors()
            let defaults = try Defaults(
                suiteName: "dates", configuration: .init(location: .directory(root), arguments: [], errorHandler: reported.record)
            )
            try defaults.write("kept", forKey: "k")
            let expected = DefaultsError.dateOutOfRange(suite: "dates", key: "k")
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            for value in [PreferenceValue.date(date), ["a", .date(date)], ["when": ["at": .date(date)]]] {
                Self.expectEveryThrowingWriteRefuses(value, with: expected, in: defaults)
                defaults.set(value.anyValue, forKey: "k")
            }
            #expect(reported.all == [expected, expected, expected])
            #expect(try freshValues(of: databaseFile("dates", in: root)) == ["k": "kept"])
            for edge in [PreferenceValue.dateRange.lowerBound, PreferenceValue.dateRange.upperBound.addingTimeInterval(-0.001)] {
                try defaults.write(.date(edge), forKey: "k")
                #expect(try freshValues(of: databaseFile("dates", in: root)) == ["k": .date(edge)])
            }
        }
    }

    /// A value whose containers nest deeper than `PreferenceValue.maximumNestingDepth` (just past it, and
    /// 256 levels, which JSON cannot even hold) is refused by every write path before anything is
    /// written, with an error naming suite, key and limit but not the value; one at the limit is stored.
    @Test func tooDeeplyNestedValuesAreRefusedByEveryWritePath() throws {
        func nested(_ levels: Int, around leaf: PreferenceValue) -> PreferenceValue {
            (0..<levels).reduce(leaf) { value, level in level.isMultiple(of: 2) ? .array([value]) : .dictionary(["d": value]) }
        }
        try withTemporaryRoot { root in
            let reported = ReportedErrors()
            let defaults = try Defaults(
                suiteName: "deep", configuration: .init(location: .directory(root), arguments: [], errorHandler: reported.record))
            try defaults.write("kept", forKey: "k")
            let limit = PreferenceValue.maximumNestingDepth
            let expected = DefaultsError.nestingTooDeep(suite: "deep", key: "k", limit: limit)
            for levels in [limit + 1, 256] {
                let deep = nested(levels, around: "private-marker")
                #expect(throws: expected) { try deep.checkStorable(suite: "deep", key: "k") }
                Self.expectEveryThrowingWriteRefuses(deep, with: expected, in: defaults)
                defaults.set(deep, forKey: "k")
                defaults.setPersistentDomain(["k": deep], forName: "deep")
            }
            #expect(reported.all == [expected, expected, expected, expected])
            #expect(!expected.description.contains("private-marker") && expected.description.contains("\(limit)"))
            #expect(try defaults.persistentValue(forKey: "k") == "kept" && defaults.persistentValue(forKey: "other") == nil)
            #expect(try freshValues(of: databaseFile("deep", in: root)) == ["k": "kept"])

            let deepest = nested(limit, around: "leaf")
            #expect(throws: Never.self) { try deepest.checkStorable(suite: "deep", key: "k") }
            try defaults.write(deepest, forKey: "k")
            #expect(try freshValues(of: databaseFile("deep", in: root)) == ["k": deepest])
        }
    }
}
