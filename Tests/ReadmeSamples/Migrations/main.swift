import LayeredDefaults
let defaults = try Defaults(suiteName: "com.example.app")
try defaults.migrate("2-theme-enum") { domain in
    if case .bool(true)? = try domain.value(forKey: "darkMode") { try domain.write("dark", forKey: "theme") }
    try domain.write(nil, forKey: "darkMode")
}
try defaults.migrate("3-rename") { try $0.renameKey("name", to: "displayName") }
