import Foundation
import LayeredDefaults
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

/// The app's settings as an `@Observable` model of the main actor, bound to the store.
@MainActor @Observable final class SettingsModel {
    var sort = SortOrder.byModified
    var editorFont = EditorFont(family: "Menlo", size: 13)
    var showsPreview: Bool?
    var recentNotes: [String] = []
    var lastOpened: Date?
    @ObservationIgnored private var bindings: [DefaultsObservation] = []

    init(defaults: Defaults) {
        bindings = [
            defaults.bind(.sort, to: self, \.sort),
            defaults.bind(.editorFont, to: self, \.editorFont),
            defaults.bind(.showsPreview, to: self, \.showsPreview),
            defaults.bind(.recentNotes, to: self, \.recentNotes),
            defaults.bind(.lastOpened, to: self, \.lastOpened),
        ]
    }
}

/// Waits (without a timing assertion) until `done` holds, or fails after `timeout`.
@MainActor
func eventually(timeout: Duration = .seconds(5), _ done: @MainActor () -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while !done() {
        try #require(ContinuousClock.now < deadline, "timed out")
        try await Task.sleep(for: .milliseconds(5))
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

    @Test @MainActor func theModelWritesThrough() async throws {
        try await withTemporaryRoot { root in
            let defaults = try makeDefaults(root)
            let model = SettingsModel(defaults: defaults)
            let opened = Date(timeIntervalSinceReferenceDate: 800_000_000)
            model.editorFont = EditorFont(family: "Courier", size: 15)
            model.showsPreview = false
            model.lastOpened = opened
            model.recentNotes.append("b.md")
            try await eventually { defaults[.editorFont].size == 15 }
            try await eventually { defaults[.showsPreview] == false }
            try await eventually { defaults[.lastOpened] == opened }
            try await eventually { defaults[.recentNotes] == ["b.md"] }
            #expect(try defaults.persistentValue(forKey: "editorFont") == .string(#"{"family":"Courier","size":15}"#))
            model.lastOpened = nil
            try await eventually { defaults[.lastOpened] == nil }
            #expect(try defaults.persistentValue(forKey: "lastOpened") == nil, "nil removes")
        }
    }

    @Test @MainActor func theModelFollowsAnotherInstanceAndProcess() async throws {
        try await withTemporaryRoot { root in
            let defaults = try makeDefaults(root)
            let model = SettingsModel(defaults: defaults)
            try makeDefaults(root).update(.recentNotes) { $0.append("from-another-instance.md") }
            try await eventually { model.recentNotes == ["from-another-instance.md"] }
            let result = try run("defaults-fixture", [root.path, "com.example.notes", "write", "sort", #"{"string":"byTitle"}"#])
            #expect(result.status == 0)
            try await eventually { model.sort == .byTitle }
        }
    }

    @Test func observingTheSettings() async throws {
        try await withTemporaryRoot { root in
            let defaults = try makeDefaults(root)
            var sorts: [SortOrder] = []
            for await sort in defaults.changes(for: .sort) {  // the current value first, then each change
                sorts.append(sort)
                if sort == .byModified { defaults[.sort] = .byTitle } else { break }
            }
            #expect(sorts == [.byModified, .byTitle])

            var seen: [[String: PreferenceValue]] = []
            for await values in defaults.changes(forKeys: ["sort", "showsPreview"]) {
                seen.append(values)
                if seen.count == 1 { defaults[.showsPreview] = true } else { break }
            }
            #expect(seen == [["sort": "byTitle"], ["sort": "byTitle", "showsPreview": true]])
        }
    }
}
