import LayeredDefaults

extension Defaults.Key<Int> {
    static let fontSize = Defaults.Key(
        "fontSize", default: 12, summary: "The font size, in points", accepts: .integers(6...72))
}

let schema = try PreferenceSchema(suiteName: "com.example.editor", version: 1, keys: .fontSize)
try Defaults.Domain(schema.suiteName).installSchema(schema)  // <root>/schemas/com.example.editor.json
let defaults = try Defaults(suiteName: "com.example.editor", configuration: .init(schema: schema))
print(try defaults.value(forKey: "fontSize") ?? "none")  // 12: the schema's default, for every reader
try defaults.write(14, for: .fontSize)
let refused = (try? defaults.write(100, for: .fontSize)) == nil  // true: not accepted, nothing changed
let typo = (try? defaults.write(20, forKey: "fontsize")) == nil  // true: a key it does not declare
try defaults.reset(.fontSize)  // removes the 14: it reads 12 again
