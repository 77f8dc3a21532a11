import LayeredDefaults

enum Appearance: String, CaseIterable, PreferenceRepresentable { case system, light, dark }  // its cases: its choices

extension Defaults.Key<Appearance> {
    static let appearance = Defaults.Key<Appearance>("appearance", default: .system, summary: "The colour scheme")
}
extension Defaults.Key<Int> {
    static let fontSize = Defaults.Key(
        "fontSize", default: 12, summary: "The editor's font size, in points", accepts: .integers(6...72))
}

let schema = try PreferenceSchema(suiteName: "com.example.app", version: 1, keys: .appearance, .fontSize)
try Defaults.installSchema(schema)  // at launch: <root>/schemas/com.example.app.json, for prefs
let defaults = try Defaults(suiteName: "com.example.app")
try defaults.write(14, for: .fontSize)
let refused = (try? defaults.write(100, for: .fontSize)) == nil  // true: DefaultsError.valueNotAccepted, nothing changed
let untouched = try defaults.isDefault(.appearance)  // true: nothing stored, it reads .system
try defaults.reset(.fontSize)  // removes the 14: it reads 12 again
