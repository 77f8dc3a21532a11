import LayeredDefaults

extension Defaults.Key<Int> { static let fontSize = Defaults.Key("fontSize", default: 12) }
let defaults = try Defaults(suiteName: "com.example.watch")

for await size in defaults.changes(of: .key(.fontSize)) {  // the current value, then each change
    print("font size:", size)
    break
}
