import LayeredDefaults

let defaults = try Defaults(suiteName: "com.example.tour")  // its own suite, its own file
defaults.register(["fontSize": 12])  // this instance's defaults, in memory
try defaults.write(14, forKey: "fontSize")  // on disk when it returns
print(try defaults.value(forKey: "fontSize") ?? "none")  // 14, for this and every other process
try defaults.write(nil, forKey: "fontSize")  // removed: the registered 12 shows through
try defaults.update(forKey: "launchCount") { $0 = .integer(($0?.integerValue ?? 0) + 1) }  // atomic
