import Foundation
// README: tour
import LayeredDefaults
// END README
import LayeredDefaultsTesting
import Testing

// README: typed-keys
enum Appearance: String, PreferenceRepresentable { case light, dark }  // stored as its raw value
struct EditorFont: CodablePreference, Equatable { var family: String, size: Int }  // stored as JSON text

extension Defaults.Key<Int> { static let fontSize = Defaults.Key("fontSize", default: 12) }
extension Defaults.Key<Appearance> { static let appearance = Defaults.Key<Appearance>("appearance", default: .light) }
extension Defaults.Key<EditorFont> {
    static let editorFont = Defaults.Key<EditorFont>("editorFont", default: .init(family: "Menlo", size: 13))
}
extension Defaults.Key<Date?> { static let lastOpened = Defaults.Key<Date?>("lastOpened") }  // nil: never set
extension Defaults.Key<[String]> { static let recentFiles = Defaults.Key<[String]>("recentFiles", default: []) }
// END README

/// The README's tour: compiled, and (except `openingAStore`) run on stores of their own.
@Suite struct TourSample {
    /// Opens the user's real store: compiled, never called by a test.
    func openingAStore(settingsDirectory: URL) throws {
        // README: tour
        let defaults = try Defaults(suiteName: "com.example.app")  // <root>/com.example.app.sqlite3
        // END README
        // README: configuration
        let custom = try Defaults(
            suiteName: "com.example.app",
            configuration: .init(
                location: .directory(settingsDirectory),  // default: .default (see "Where files live")
                arguments: [],  // default: CommandLine.arguments
                suites: ["com.example.shared"],  // searched after this domain; default: none
                busyTimeout: .seconds(2),  // default: 5 s
                errorHandler: { error in print(error) }))  // default: one line on standard error
        // END README
        _ = (defaults, custom)
    }

    @Test func tour() throws {
        try withIsolatedDefaults { defaults, _ in
            // README: tour
            defaults.register(["fontSize": 12, "theme": "system"])  // this instance's registration domain
            try defaults.write(14, forKey: "fontSize")  // committed to disk when it returns
            let size = try defaults.value(forKey: "fontSize")  // .integer(14), here and in the next process
            try defaults.write(nil, forKey: "fontSize")  // removed: the registered 12 shows through

            try defaults.update(forKey: "launchCount") { .integer(($0?.integerValue ?? 0) + 1) }  // atomic
            try defaults.transaction { domain in  // several keys: all or nothing
                try domain.set("Ada", forKey: "displayName")
                try domain.set(nil, forKey: "name")
            }
            // END README
            #expect(size == 14)
            #expect(try defaults.value(forKey: "fontSize") == 12)
            #expect(try defaults.persistentValues() == ["launchCount": 1, "displayName": "Ada"])
        }
    }

    @Test func typedKeys() throws {
        try withInMemoryDefaults { defaults, _ in
            // README: typed-keys
            let before = defaults[.fontSize]  // 12 until set; a stored "abc" reads as 12 (and is reported once)
            defaults[.fontSize] = 13  // never throws: a failure goes to the error handler
            try defaults.set(14, for: .fontSize)  // the same, throwing
            let stored = try defaults.storedValue(for: .fontSize)  // 14; nil when never set
            try defaults.set(.dark, for: .appearance)  // stored as the string "dark"
            try defaults.set(EditorFont(family: "Courier", size: 15), for: .editorFont)  // {"family":"Courier","size":15}
            defaults[.lastOpened] = Date()  // nil removes it
            try defaults.update(.recentFiles) { $0.append("notes.md") }  // atomic, across processes too
            // END README
            #expect(before == 12 && stored == 14)
            #expect(try defaults.persistentValue(forKey: "appearance") == "dark")
            #expect(try defaults.persistentValue(forKey: "editorFont") == #"{"family":"Courier","size":15}"#)
            #expect(defaults[.lastOpened] != nil)
            #expect(defaults[.recentFiles] == ["notes.md"])
        }
    }

    @Test func observation() async throws {
        try await withInMemoryDefaults { defaults, _ in
            // README: observation
            for await size in defaults.changes(for: .fontSize) {  // the current value, then each change
                print("font size:", size)  // here or in another process
                break
            }
            let observation = defaults.observe(.fontSize) { (size: Int) in print("now", size) }
            observation.cancel()  // or release it
            // END README
        }
    }
}
