import Foundation
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing

@testable import LayeredDefaults

@Suite struct TypedKeyTests {
    enum Mode: String, PreferenceRepresentable { case compact, regular }
    struct Window: CodablePreference, Equatable {
        var width: Int
        var height: Int
    }

    @Test func everySupportedTypeRoundTrips() throws {
        let defaults = try makeInMemoryDefaults()
        func roundTrip<Value: PreferenceRepresentable & Equatable>(_ value: Value, default defaultValue: Value) throws {
            let key = Defaults.Key("key-\(Value.self)", default: defaultValue)
            #expect(defaults[key] == defaultValue)
            try defaults.write(value, for: key)
            #expect(defaults[key] == value)
            #expect(try defaults.persistentValue(for: key) == value)
        }
        try roundTrip("text", default: "")
        try roundTrip(42, default: 0)
        try roundTrip(2.5, default: 0.0)
        try roundTrip(true, default: false)
        try roundTrip(Date(timeIntervalSinceReferenceDate: 12.5), default: Date(timeIntervalSinceReferenceDate: 0))
        try roundTrip(Data([1, 2]), default: Data())
        try roundTrip(URL(string: "https://example.com/x")!, default: URL(string: "https://a.b")!)
        try roundTrip(["a", "b"], default: [String]())
        try roundTrip(["k": 1], default: [String: Int]())
        try roundTrip(Mode.compact, default: .regular)
        try roundTrip(Window(width: 3, height: 4), default: Window(width: 0, height: 0))
    }

    @Test func codableValuesAreStoredAsJSONText() throws {
        let defaults = try makeInMemoryDefaults()
        let key = Defaults.Key("window", default: Window(width: 0, height: 0))
        try defaults.write(Window(width: 3, height: 4), for: key)
        #expect(try defaults.persistentValue(forKey: "window") == .string(#"{"height":4,"width":3}"#))
    }

    @Test(arguments: [PreferenceValue.string("twelve"), .array([1]), .bool(true), .data(Data([1]))])
    func undecodableValuesReadAsTheDefaultAndStayStored(stored: PreferenceValue) throws {
        let errors = ReportedErrors()
        let defaults = try makeInMemoryDefaults(errorHandler: errors.record)
        let fontSize = Defaults.Key("fontSize", default: 12)
        try defaults.write(stored, forKey: "fontSize")
        #expect(defaults[fontSize] == 12)
        #expect(errors.all == [.mismatchedValue(suite: "test.suite", key: "fontSize", type: "Int")])
        #expect(try defaults.persistentValue(for: fontSize) == nil)
        #expect(try defaults.persistentValue(forKey: "fontSize") == stored, "a read never overwrites")
    }

    /// A mismatch's message advises `reset(_:)` (it named `set(nil, for:)`, which no longer exists),
    /// and following it removes the value: the key reads its default, reported no more.
    @Test func theAdviceOfAMismatchWorks() throws {
        let errors = ReportedErrors()
        let defaults = try makeInMemoryDefaults(errorHandler: errors.record)
        let fontSize = Defaults.Key("fontSize", default: 12)
        try defaults.write("twelve", forKey: "fontSize")
        #expect(defaults[fontSize] == 12)
        let reported = try #require(errors.all.first)
        #expect(reported.description.contains("remove it (`reset(_:)`, `prefs delete <domain> <key>`)"))
        try defaults.reset(fontSize)
        #expect(try defaults.persistentValue(forKey: "fontSize") == nil)
        #expect(defaults[fontSize] == 12)
        #expect(errors.all.count == 1)
    }

    @Test func neverSetIsNotFalse() throws {
        let defaults = try makeInMemoryDefaults()
        let flag = Defaults.Key("flag", default: false)
        #expect(try defaults.persistentValue(for: flag) == nil)
        #expect(defaults[flag] == false)
        try defaults.write(false, for: flag)
        #expect(try defaults.persistentValue(for: flag) == false)
        try defaults.reset(flag)
        #expect(try defaults.persistentValue(for: flag) == nil)
    }

    @Test func argumentStringsConvertForScalarKeys() throws {
        let defaults = try makeInMemoryDefaults(arguments: ["-size", "14", "-ratio", "0.5", "-on", "YES", "-mode", "compact"])
        #expect(defaults[Defaults.Key("size", default: 0)] == 14)
        #expect(defaults[Defaults.Key("ratio", default: 0.0)] == 0.5)
        #expect(defaults[Defaults.Key("on", default: false)] == true)
        #expect(defaults[Defaults.Key("mode", default: Mode.regular)] == .compact)
    }
}

@Suite struct MigrationTests {
    @Test func runsOnceAndIsRecorded() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("app", root: root)
            defaults.set(true, forKey: "darkMode")
            let migration: (inout DomainTransaction) throws -> Void = { domain in
                if case .bool(true)? = try domain.value(forKey: "darkMode") { try domain.write("dark", forKey: "theme") }
                try domain.write(nil, forKey: "darkMode")
            }
            #expect(try defaults.migrate("2-theme-enum", migration))
            #expect(try defaults.persistentValues() == ["theme": "dark"])
            defaults.set("light", forKey: "theme")
            #expect(try !defaults.migrate("2-theme-enum", migration), "never re-run")
            #expect(try makeDefaults("app", root: root).appliedMigrations() == ["2-theme-enum"])
            #expect(defaults.string(forKey: "theme") == "light")
        }
    }

    @Test func aFailingMigrationLeavesTheOldDataAndNoRecord() throws {
        struct Boom: Error {}
        let defaults = try makeInMemoryDefaults()
        defaults.set("old", forKey: "name")
        #expect(throws: Boom.self) {
            try defaults.migrate("3-rename") { domain in
                try domain.renameKey("name", to: "displayName")
                throw Boom()
            }
        }
        #expect(try defaults.persistentValues() == ["name": "old"])
        #expect(try defaults.appliedMigrations().isEmpty)
        #expect(try defaults.migrate("3-rename") { try $0.renameKey("name", to: "displayName") })
        #expect(try defaults.persistentValues() == ["displayName": "old"])
    }

    @Test func anotherProcessDoesNotRunItAgain() throws {
        try withTemporaryRoot { root in
            #expect(try makeDefaults("app", root: root).migrate("1-first") { try $0.write(1, forKey: "count") })
            let result = try fixture(root, "app", "migrate", "1-first", "count")
            #expect(result.status == 0, "\(result.error)")
            #expect(result.output == "skipped\n")
            #expect(try makeDefaults("app", root: root).integer(forKey: "count") == 1)
        }
    }
}
