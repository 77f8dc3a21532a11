import Foundation  // for Date
import LayeredDefaults

enum Appearance: String, PreferenceRepresentable { case light, dark }  // stored as its raw value
struct EditorFont: CodablePreference, Equatable { var family: String, size: Int }  // stored as JSON text

extension Defaults.Key<Int> { static let fontSize = Defaults.Key("fontSize", default: 12) }
extension Defaults.Key<Appearance> { static let appearance = Defaults.Key<Appearance>("appearance", default: .light) }
extension Defaults.Key<EditorFont> {
    static let editorFont = Defaults.Key<EditorFont>("editorFont", default: .init(family: "Menlo", size: 13))
}
extension Defaults.Key<Date?> { static let lastOpened = Defaults.Key<Date?>("lastOpened") }  // nil: never set
extension Defaults.Key<[String]> { static let recentFiles = Defaults.Key<[String]>("recentFiles", default: []) }

let defaults = try Defaults(suiteName: "com.example.app")
let before = defaults[.fontSize]  // 12 until set; a stored "abc" reads as 12 (and is reported once)
defaults[.fontSize] = 13  // never throws: a failure goes to the error handler
try defaults.write(14, for: .fontSize)  // the same, throwing
let stored = try defaults.persistentValue(for: .fontSize)  // 14; nil when never set
try defaults.write(.dark, for: .appearance)  // stored as the string "dark"
try defaults.write(EditorFont(family: "Courier", size: 15), for: .editorFont)  // {"family":"Courier","size":15}
defaults[.lastOpened] = Date()  // nil removes it
try defaults.update(.recentFiles) { $0.append("notes.md") }  // atomic, across processes too
