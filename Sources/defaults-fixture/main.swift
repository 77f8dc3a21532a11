// A child process for the multi-process tests: performs one operation on a suite and exits.
//
//   defaults-fixture <root> <suite> write <key> <json value>   store a value (PreferenceValue JSON)
//   defaults-fixture <root> <suite> read <key>                 print the value as JSON, or "nil"
//   defaults-fixture <root> <suite> write-many <prefix> <n>    write <prefix>-0 ... and print each key once committed
//   defaults-fixture <root> <suite> increment <key> <n>        atomically add 1 to an integer, n times
//   defaults-fixture <root> <suite> hold-write-lock <seconds>  hold the write lock, printing "locked" once held
//   defaults-fixture <root> <suite> migrate <name> <key>       run migration <name> (it adds 1 to <key>): prints "ran" or "skipped"
//
// Exit status: 0 success, 1 usage, 2 store error (one line on stderr).
import Foundation
import LayeredDefaults

/// Writes one line to standard output at once (unbuffered: the parent reads it while we run).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: defaults-fixture <root> <suite> <operation> ...\n".utf8))
    exit(1)
}
let (root, suite, operation, rest) = (arguments[0], arguments[1], arguments[2], Array(arguments.dropFirst(3)))

do {
    let defaults = try Defaults(suiteName: suite, location: .directory(URL(fileURLWithPath: root)), arguments: [])
    switch (operation, rest.count) {
    case ("write", 2):
        try defaults.write(try JSONDecoder().decode(PreferenceValue.self, from: Data(rest[1].utf8)), forKey: rest[0])
    case ("read", 1):
        if let value = defaults.value(forKey: rest[0]) {
            say(String(decoding: try JSONEncoder().encode(value), as: UTF8.self))
        } else {
            say("nil")
        }
    case ("write-many", 2):
        for index in 0..<(Int(rest[1]) ?? 0) {
            let key = "\(rest[0])-\(index)"
            try defaults.write(.integer(index), forKey: key)
            say(key)
        }
    case ("increment", 2):
        for _ in 0..<(Int(rest[1]) ?? 0) {
            try defaults.update(forKey: rest[0]) { .integer(($0?.integerValue ?? 0) + 1) }
        }
    case ("hold-write-lock", 1):
        try defaults.transaction { domain in
            try domain.set(.string("held"), forKey: "lock-holder")
            say("locked")
            Thread.sleep(forTimeInterval: Double(rest[0]) ?? 1)
        }
    case ("migrate", 2):
        let ran = try defaults.migrate(.named(rest[0])) { domain in
            try domain.set(.integer((try domain.value(forKey: rest[1])?.integerValue ?? 0) + 1), forKey: rest[1])
        }
        say(ran ? "ran" : "skipped")
    default:
        FileHandle.standardError.write(Data("defaults-fixture: unknown operation '\(operation)' with \(rest.count) arguments\n".utf8))
        exit(1)
    }
} catch {
    FileHandle.standardError.write(Data("defaults-fixture: \(error)\n".utf8))
    exit(2)
}
