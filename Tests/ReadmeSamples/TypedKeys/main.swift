import LayeredDefaults

enum Appearance: String, PreferenceRepresentable { case light, dark }  // stored as its raw value

extension Defaults.Key<Int> { static let fontSize = Defaults.Key("fontSize", default: 12) }
extension Defaults.Key<Appearance> {
    static let appearance = Defaults.Key<Appearance>("appearance", default: .light)
}

let defaults = try Defaults(suiteName: "com.example.keys")
print(defaults[.fontSize])  // 12 until it is set
defaults[.fontSize] = 13  // never throws: a failure goes to the error handler
try defaults.write(14, for: .fontSize)  // the same, but it throws
try defaults.write(.dark, for: .appearance)  // stored as the string "dark"
