import LayeredDefaults
let defaults = try Defaults(suiteName: "com.example.app")  // <root>/com.example.app.sqlite3
defaults.register(["fontSize": 12, "theme": "system"])  // this instance's registration domain
try defaults.write(14, forKey: "fontSize")  // committed to disk when it returns
let size = try defaults.value(forKey: "fontSize")  // .integer(14), here and in the next process
try defaults.write(nil, forKey: "fontSize")  // removed: the registered 12 shows through

try defaults.update(forKey: "launchCount") { $0 = .integer(($0?.integerValue ?? 0) + 1) }  // atomic
try defaults.transaction { domain in  // several keys: all or nothing
    try domain.write("Ada", forKey: "displayName")
    try domain.write(nil, forKey: "name")
}
