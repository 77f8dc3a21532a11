import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// Typed keys as an app declares and uses them: optional keys, natural declarations, typed update,
/// the subscript's write, `Codable` values as JSON text.
@Suite struct TypedKeyAppTests {
    enum SortOrder: String, PreferenceRepresentable { case byModified, byTitle }
    struct EditorFont: CodablePreference, Equatable {
        var family: String
        var size: Int
    }
    struct EditorFontV2: CodablePreference, Equatable {
        var family: String
        var size: Int
        var weight: Int
    }

    @Test func declarationsReadNaturallyForEveryKindOfDefault() throws {
        let defaults = try makeInMemoryDefaults()
        #expect(defaults[.sort] == .byModified)
        #expect(defaults[.sortByType] == .byTitle)
        #expect(defaults[.annotatedSort] == .byModified)
        #expect(defaults[.editorFont] == EditorFont(family: "Menlo", size: 13))
        #expect(defaults[.recentFiles] == [])
        #expect(defaults[.epoch] == .distantPast)
        #expect(defaults[.lastOpened] == nil)
        defaults[.sort] = .byTitle
        #expect(defaults[.sort] == .byTitle)
    }

    @Test func optionalKeysReadNilWhenNothingIsStoredAndNilRemoves() throws {
        let defaults = try makeInMemoryDefaults()
        let date = Date(timeIntervalSinceReferenceDate: 1000.25)
        #expect(defaults[.lastOpened] == nil)
        try defaults.write(date, for: .lastOpened)
        #expect(defaults[.lastOpened] == date)
        #expect(try defaults.persistentValue(forKey: "lastOpened") == .date(date))
        defaults[.lastOpened] = nil
        #expect(try defaults.persistentValue(forKey: "lastOpened") == nil, "nil removes")
        defaults[.lastOpened] = date
        try defaults.write(Date?.none, for: .lastOpened)
        #expect(try defaults.persistentValue(forKey: "lastOpened") == nil, "an optional's nil removes too")
        #expect(try defaults.update(.lastOpened) { $0 = $0 ?? date } == date)
        #expect(try defaults.update(.lastOpened) { $0 = nil } == nil)
        #expect(try defaults.persistentValue(forKey: "lastOpened") == nil, "update to nil removes")
    }

    @Test func anOptionalBoolTellsNeverSetFromFalse() throws {
        let defaults = try makeInMemoryDefaults()
        #expect(defaults[.showsPreview] == nil)
        defaults[.showsPreview] = false
        #expect(defaults[.showsPreview] == false)
        #expect(try defaults.persistentValue(forKey: "showsPreview") == .bool(false))
    }

    @Test func typedUpdateIsAtomicAcrossThreads() throws {
        let defaults = try makeInMemoryDefaults()
        try onThreads(50) { index in _ = try? defaults.update(.recentFiles) { $0.append("f\(index)") } }
        // NB: sorted lists, not sets: an update applied twice would show as a repeated file.
        #expect(defaults[.recentFiles].sorted() == (0..<50).map { "f\($0)" }.sorted())
    }

    @Test func typedUpdateIsAtomicAcrossProcesses() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("notes", root: root)
            let children = try (0..<3).map { child in
                try ChildProcess("defaults-fixture", [root.path, "notes", "append", "recentFiles", "p\(child)", "30"])
            }
            for _ in 0..<30 { try defaults.update(.recentFiles) { $0.append("here") } }
            for child in children { #expect(try child.wait(before: .now + .seconds(120)) == 0) }
            #expect(defaults[.recentFiles].count == 120)
        }
    }

    /// A typed update over a stored value that does not convert to the key's type fails typed, every
    /// time (also after a read used up the one report), and leaves the value stored: it is never
    /// silently replaced by the default's update. Once the value is removed, the update works.
    @Test func aTypedUpdateOverAValueThatDoesNotConvertFailsAndChangesNothing() throws {
        let errors = ReportedErrors()
        let defaults = try makeInMemoryDefaults(errorHandler: errors.record)
        let count = Defaults.Key("count", default: 10)
        try defaults.write("not a number", forKey: "count")
        #expect(defaults[count] == 10, "a read gives the default and uses up the one report")
        let mismatched = DefaultsError.mismatchedValue(suite: "test.suite", key: "count", type: "Int")
        #expect(errors.all == [mismatched])
        var transformed = 0
        for _ in 0..<2 {
            #expect(throws: mismatched) {
                try defaults.update(count) {
                    transformed += 1
                    $0 += 1
                }
            }
        }
        #expect(transformed == 0, "the transform never sees a value that is not the stored one")
        #expect(try defaults.persistentValue(forKey: "count") == "not a number", "the stored value is untouched")
        #expect(errors.all == [mismatched], "the failures are thrown, not reported")
        #expect(!mismatched.description.contains("not a number"), "no value in the message")

        try defaults.reset(count)
        #expect(try defaults.update(count) { $0 += 1 } == 11, "once removed, the update starts from the default")
        #expect(try defaults.persistentValue(forKey: "count") == 11)
    }

    @Test func subscriptWriteErrorsGoToTheHandler() throws {
        let errors = ReportedErrors()
        let defaults = try makeInMemoryDefaults(errorHandler: errors.record)
        try defaults.transaction { _ in defaults[.sort] = .byTitle }
        #expect(errors.all == [.nestedTransaction(suite: "test.suite")])
        #expect(defaults[.sort] == .byModified, "the rejected write changed nothing")
    }

    @Test func codableValuesAreStoredAsCompactSortedJSONText() throws {
        let defaults = try makeInMemoryDefaults()
        defaults[.editorFont] = EditorFont(family: "Menlo/Mono", size: 14)
        #expect(try defaults.persistentValue(forKey: "editorFont") == .string(#"{"family":"Menlo/Mono","size":14}"#))
        #expect(defaults[.editorFont] == EditorFont(family: "Menlo/Mono", size: 14))
    }

    @Test func codableValuesStoredAsJSONDataStillRead() throws {
        let defaults = try makeInMemoryDefaults()
        try defaults.write(.data(Data(#"{"family":"Courier","size":9}"#.utf8)), forKey: "editorFont")
        #expect(defaults[.editorFont] == EditorFont(family: "Courier", size: 9))
    }

    @Test func aValueThatNoLongerDecodesReadsAsTheDefaultIsReportedOnceAndStaysStored() throws {
        let errors = ReportedErrors()
        let defaults = try makeInMemoryDefaults(errorHandler: errors.record)
        let stored = PreferenceValue.string(#"{"family":"Menlo","size":13}"#)
        try defaults.write(stored, forKey: "editorFont")
        let v2 = Defaults.Key("editorFont", default: EditorFontV2(family: "Menlo", size: 12, weight: 400))
        #expect(defaults[v2] == v2.defaultValue)
        #expect(defaults[v2] == v2.defaultValue)
        #expect(try defaults.persistentValue(for: v2) == nil)
        #expect(
            errors.all == [.mismatchedValue(suite: "test.suite", key: "editorFont", type: "EditorFontV2")],
            "once per key and instance")
        #expect(try defaults.persistentValue(forKey: "editorFont") == stored, "the stored text is untouched")
        #expect(!errors.all[0].description.contains("Menlo"), "no value in the message")

        let another = try makeInMemoryDefaults(errorHandler: errors.record)
        try another.write(stored, forKey: "editorFont")
        _ = another[v2]
        _ = another[v2]
        #expect(errors.all.count == 2, "another instance reports it once too")
    }
}

extension Defaults.Key<TypedKeyAppTests.SortOrder> {
    static let sort = Defaults.Key("sort", default: TypedKeyAppTests.SortOrder.byModified)
    static let sortByType = Defaults.Key<TypedKeyAppTests.SortOrder>("sortByType", default: .byTitle)
    static let annotatedSort: Defaults.Key<TypedKeyAppTests.SortOrder> = .init("annotatedSort", default: .byModified)
}

extension Defaults.Key<TypedKeyAppTests.EditorFont> {
    static let editorFont = Self("editorFont", default: .init(family: "Menlo", size: 13))
}

extension Defaults.Key<[String]> {
    static let recentFiles = Defaults.Key<[String]>("recentFiles", default: [])
}

extension Defaults.Key<Date> {
    static let epoch = Defaults.Key<Date>("epoch", default: .distantPast)
}

extension Defaults.Key<Date?> {
    static let lastOpened = Defaults.Key<Date?>("lastOpened")
}

extension Defaults.Key<Bool?> {
    static let showsPreview = Defaults.Key<Bool?>("showsPreview")
}
