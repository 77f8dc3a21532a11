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
try Defaults.installSchema(schema)  // at launch: <root>/schemas/com.example.app.json, for scripts and prefs
let defaults = try Defaults(suiteName: "com.example.app", configuration: .init(schema: schema))
try defaults.write(14, for: .fontSize)
let refused = (try? defaults.write(100, forKey: "fontSize")) == nil  // true: valueNotAccepted, untyped too
let typo = (try? defaults.write(20, forKey: "fontsize")) == nil  // true: undeclaredKey (did you mean 'fontSize'?)
let theme = try defaults.value(forKey: "appearance")  // "system": the schema's default, for every read
try defaults.reset(.fontSize)  // removes the 14: it reads 12 again
