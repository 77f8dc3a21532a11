import LayeredDefaults
extension Defaults.Key<Int> { static let fontSize = Defaults.Key("fontSize", default: 12) }
let defaults = try Defaults(suiteName: "com.example.app")

for await size in defaults.changes(of: .key(.fontSize)) {  // the current value, then each change
    print("font size:", size)  // here or in another process
    break
}
let observation = defaults.observe(.key(.fontSize), initial: false) { (size: Int) in print("now", size) }
observation.cancel()  // or release it; never waits, callable from anywhere
