import Foundation
import LayeredDefaults
import LayeredDefaultsTesting
import Observation
import PackageTestSupport
import Testing

// A notes app's five settings, declared as an app would.

/// How the note list is sorted.
enum SortOrder: String, PreferenceRepresentable { case byModified, byTitle }

/// The editor's font, stored as JSON text.
struct EditorFont: CodablePreference, Equatable {
    var family: String
    var size: Int
}

extension Defaults.Key<SortOrder> { static let sort = Defaults.Key<SortOrder>("sort", default: .byModified) }
extension Defaults.Key<EditorFont> {
    static let editorFont = Defaults.Key<EditorFont>("editorFont", default: .init(family: "Menlo", size: 13))
}
/// Nil until the user chooses: "never set" is not "off".
extension Defaults.Key<Bool?> { static let showsPreview = Defaults.Key<Bool?>("showsPreview") }
extension Defaults.Key<[String]> { static let recentNotes = Defaults.Key<[String]>("recentNotes", default: []) }
extension Defaults.Key<Date?> { static let lastOpened = Defaults.Key<Date?>("lastOpened") }

/// The app's settings as an `@Observable` model of the main actor: each property shows and edits a
/// key's bound value, so an edit is in the store when its setter returns.
@MainActor @Observable final class SettingsModel {
    private let storedSort: Defaults.BoundValue<SortOrder>
    private let storedEditorFont: Defaults.BoundValue<EditorFont>
    private let storedShowsPreview: Defaults.BoundValue<Bool?>
    private let storedRecentNotes: Defaults.BoundValue<[String]>
    private let storedLastOpened: Defaults.BoundValue<Date?>

    var sort: SortOrder {
        get { storedSort.value }
        set { storedSort.value = newValue }
    }
    var editorFont: EditorFont {
        get { storedEditorFont.value }
        set { storedEditorFont.value = newValue }
    }
    var showsPreview: Bool? {
        get { storedShowsPreview.value }
        set { storedShowsPreview.value = newValue }
    }
    var recentNotes: [String] {
        get { storedRecentNotes.value }
        set { storedRecentNotes.value = newValue }
    }
    var lastOpened: Date? {
        get { storedLastOpened.value }
        set { storedLastOpened.value = newValue }
    }

    init(defaults: Defaults) {
        storedSort = defaults.bind(.sort)
        storedEditorFont = defaults.bind(.editorFont)
        storedShowsPreview = defaults.bind(.showsPreview)
        storedRecentNotes = defaults.bind(.recentNotes)
        storedLastOpened = defaults.bind(.lastOpened)
    }
}

@Suite struct NotesAppExampleTests {
    func makeDefaults(_ root: URL, errors: ReportedErrors = ReportedErrors()) throws -> Defaults {
        try Defaults(
            suiteName: "com.example.notes", configuration: .init(location: .directory(root), errorHandler: errors.record))
    }

    @Test @MainActor func theModelReadsTheCurrentValues() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults(root)
            defaults[.sort] = .byTitle
            defaults[.recentNotes] = ["a.md"]
            let model = SettingsModel(defaults: defaults)
            #expect(model.sort == .byTitle)
            #expect(model.recentNotes == ["a.md"])
            #expect(model.showsPreview == nil, "never set")
            #expect(model.lastOpened == nil)
            #expect(model.editorFont == EditorFont(family: "Menlo", size: 13))
        }
    }

    /// Each edit is in the store when the setter returns: the test reads it right away.
    @Test @MainActor func theModelWritesThrough() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults(root)
            let model = SettingsModel(defaults: defaults)
            let opened = Date(timeIntervalSinceReferenceDate: 800_000_000)
            model.editorFont = EditorFont(family: "Courier", size: 15)
            #expect(defaults[.editorFont].size == 15)
            model.showsPreview = false
            #expect(defaults[.showsPreview] == false)
            model.lastOpened = opened
            #expect(defaults[.lastOpened] == opened)
            model.recentNotes.append("b.md")
            #expect(defaults[.recentNotes] == ["b.md"])
            #expect(try defaults.persistentValue(forKey: "editorFont") == .string(#"{"family":"Courier","size":15}"#))
            model.lastOpened = nil
            #expect(try defaults.persistentValue(forKey: "lastOpened") == nil, "nil removes")
            #expect(model.lastOpened == nil)
        }
    }

    @Test @MainActor func theModelFollowsAnotherInstanceAndProcess() async throws {
        try await withTemporaryRoot { root in
            let defaults = try makeDefaults(root)
            let model = SettingsModel(defaults: defaults)
            try makeDefaults(root).update(.recentNotes) { $0.append("from-another-instance.md") }
            try await waitUntilObserved { model.recentNotes == ["from-another-instance.md"] }
            let result = try run("defaults-fixture", [root.path, "com.example.notes", "write", "sort", #"{"string":"byTitle"}"#])
            #expect(result.status == 0)
            try await waitUntilObserved { model.sort == .byTitle }
        }
    }

    @Test func observingTheSettings() async throws {
        try await withTemporaryRoot { root in
            let defaults = try makeDefaults(root)
            var sorts: [SortOrder] = []
            for await sort in defaults.changes(of: .key(.sort)) {  // the current value first, then each change
                sorts.append(sort)
                if sort == .byModified { defaults[.sort] = .byTitle } else { break }
            }
            #expect(sorts == [.byModified, .byTitle])

            var seen: [[String: PreferenceValue]] = []
            for await values in defaults.changes(of: .keys(["sort", "showsPreview"])) {
                seen.append(values)
                if seen.count == 1 { defaults[.showsPreview] = true } else { break }
            }
            #expect(seen == [["sort": "byTitle"], ["sort": "byTitle", "showsPreview": true]])
        }
    }
}
