// A child process for the multi-process tests: performs one operation on a suite and exits.
//
//   defaults-fixture [options] <root> <suite> write <key> <json value>   store a value (PreferenceValue JSON)
//   defaults-fixture [options] <root> <suite> write-and-exit <key> <json value>
//                                                                        the same, then exit(0) with the store still
//                                                                        open, as an app ends holding Defaults.standard
//   defaults-fixture [options] <root> <suite> read <key>                 print the value as JSON, or "nil"
//   defaults-fixture [options] <root> <suite> write-many <prefix> <n>    write <prefix>-0 ... and print each key once committed
//   defaults-fixture [options] <root> <suite> increment <key> <n>        atomically add 1 to an integer, n times
//   defaults-fixture [options] <root> <suite> append <key> <prefix> <n> append "<prefix>-<i>" to a string list, n times (typed update)
//   defaults-fixture [options] <root> <suite> hold-write-lock <seconds>  hold the write lock, printing "locked" once held
//   defaults-fixture [options] <root> <suite> churn <prefix> <n>         n mixed writes, removals and updates (below)
//   defaults-fixture [options] <root> <suite> churn <prefix> <n> <every> <ms>
//                                                                        the same, pausing <ms> ms after every <every>
//                                                                        operations (so the store is idle, and checkpointed)
//   defaults-fixture [options] <root> <suite> observe <key>              print the key's value at each change an
//                                                                        observation delivers, until stdin ends
//   defaults-fixture [options] <root> <suite> read-lines <key>           print the key's value for each line of stdin
//   defaults-fixture [options] <root> <suite> write-data <key> <bytes>   store <bytes> bytes of 0xA5 as data
//   defaults-fixture [options] <root> <suite> set <key> <json value>     like write, through the non-throwing
//                                                                        `set(_:forKey:)` (errors: the default handler)
//   defaults-fixture [options] <root> <suite> shm-lock-held              print "held" when another process holds
//                                                                        SQLite's open-connection lock on the -shm
//                                                                        file (byte 128), else "free"; opens no store
//   defaults-fixture [options] <root> <suite> migrate <name> <key>       run migration <name> (it adds 1 to <key>):
//                                                                        prints "ran" or "skipped"
//   defaults-fixture [options] <root> <suite> shared-lock-held           print "held" when another process holds
//                                                                        SQLite's SHARED lock on the database file,
//                                                                        else "free"; opens no store
//   defaults-fixture [options] <root> <suite> repair                     Defaults.Domain.repair: print where the file went,
//                                                                        or "nil"; opens no store first
//   defaults-fixture [options] <root> <suite> backup <file>              Defaults.Domain.backup to <file>; opens no store first
//   defaults-fixture [options] <root> <suite> domains                    print Location.domainNames, one a line
//   defaults-fixture [options] <root> <suite> exists                     print Location.domainExists: "yes" or "no"
//   defaults-fixture [options] <root> <suite> user-defaults              write count 3, flag true, ratio 0.25 and when
//                                                                        (100 s after 2001) through Foundation's own
//                                                                        UserDefaults(suiteName: <suite>), synchronized
//                                                                        (where $XDG_CONFIG_HOME says); opens no store
//   defaults-fixture [options] <root> <suite> count-up <key> <n>         write 1, 2, ... n to <key>, a pause of 2-20 ms
//                                                                        after each, printing each value once committed
//   defaults-fixture [options] <root> <suite> write-lines <key> [raw]    until standard input ends: write each line
//                                                                        read (a string) to <key>, printing it once committed;
//                                                                        with `raw`, through a plain SQLite connection as
//                                                                        the `sqlite3` shell writes (synchronous = FULL, no
//                                                                        idle checkpoint), to an existing file
//   defaults-fixture [options] <root> <suite> chase <key> <kind>         until standard input ends: a write of <kind>
//                                                                        that changes nothing, then a read of <key> (below)
//
// `churn` announces each operation before it starts and acknowledges it once it has committed, so a
// parent that kills the process at any moment knows every acknowledged operation and the one (at most)
// in flight:
//
//   do set <key> <length>   then  ok        the value is the string "<key>:" followed by <length> "x"
//   do del <key>            then  ok
//   do inc <key>            then  ok <n>    an atomic update; <n> is the new value
//
// `chase` reads, on standard input, the values another process acknowledges (the output of `count-up`),
// and loops: a write transaction that commits but changes nothing, of one <kind> (`same`: rewrite a key
// with the value it holds; `absent`: remove a key that does not exist; `empty`: an empty transaction;
// `migrate`: a migration already applied), then a read of <key>. A read finding a smaller integer (or
// nothing) than the last value acknowledged before it began is stale: that commit had returned. At the
// end of its input it prints
//
//   checked <reads> stale <stale reads> behind <most commits a stale read was behind>
//
// Options:
//   --as-user <uid>   when running as root, drop to this user and group (and no supplementary groups)
//                     before touching anything: root ignores file permissions, a read-only test cannot
//   --umask <octal>   set the file-mode creation mask first (to prove the store does not rely on it)
//   --busy-timeout <ms>
//                     how long a write waits for another process's lock (default: the library's, 5 s)
//   --cpu <n>         run on one CPU only: the n-th (from 0) of those this process may use (Linux; elsewhere
//                     ignored). Processes sharing one CPU interleave where a scheduler on several would not.
//   --stalled-sync <ms>
//                     every sync SQLite asks for sleeps <ms> first, as on a slow disk (a VFS of the fixture's
//                     own): a commit with synchronous = FULL (`write-lines <key> raw`) stalls between its log
//                     and its WAL-index header, a backup before its copy is complete
//   --file-size-limit <bytes>
//                     cap the size of every file this process writes (RLIMIT_FSIZE; SIGXFSZ ignored), so
//                     writes past it fail as they would on a full disk
//
// Exit status: 0 success, 1 usage, 2 store error (one line on stderr), 3 cannot apply an option.
import CSQLite
import Foundation
import LayeredDefaults
import LayeredDefaultsCompatibility

#if canImport(Glibc)
    // NB: Glibc imports RLIMIT_FSIZE as an enum case of __rlimit_resource, which getrlimit takes as Int32.
    let fileSizeLimitResource = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
#else
    let fileSizeLimitResource = RLIMIT_FSIZE
#endif

/// Writes one line to standard output at once (unbuffered: the parent reads it while we run).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("defaults-fixture: \(message)\n".utf8))
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var busyTimeout = Duration.seconds(5)
while let option = arguments.first, option.hasPrefix("--"), arguments.count >= 2 {
    let value = arguments[1]
    arguments.removeFirst(2)
    switch option {
    case "--as-user":
        guard let uid = UInt32(value) else { fail("--as-user needs a numeric id", status: 1) }
        if geteuid() == 0 {
            guard setgroups(0, nil) == 0, setgid(uid) == 0, setuid(uid) == 0 else {
                fail("cannot drop privileges to \(uid): \(String(cString: strerror(errno)))", status: 3)
            }
        }
    case "--umask":
        guard let mask = mode_t(value, radix: 8) else { fail("--umask needs an octal mask", status: 1) }
        umask(mask)
    case "--busy-timeout":
        guard let milliseconds = Int(value) else { fail("--busy-timeout needs milliseconds", status: 1) }
        busyTimeout = .milliseconds(milliseconds)
    case "--cpu":
        guard let index = Int(value) else { fail("--cpu needs a number", status: 1) }
        pin(toCPU: index)
    case "--stalled-sync":
        guard let milliseconds = Int(value) else { fail("--stalled-sync needs milliseconds", status: 1) }
        StalledSync.install(milliseconds: milliseconds)
    case "--file-size-limit":
        guard let bytes = rlim_t(value) else { fail("--file-size-limit needs a number of bytes", status: 1) }
        signal(SIGXFSZ, SIG_IGN)
        var limit = rlimit()
        getrlimit(fileSizeLimitResource, &limit)
        limit.rlim_cur = bytes
        guard setrlimit(fileSizeLimitResource, &limit) == 0 else {
            fail("cannot limit the file size: \(String(cString: strerror(errno)))", status: 3)
        }
    default:
        fail("unknown option '\(option)'", status: 1)
    }
}
guard arguments.count >= 3 else { fail("usage: defaults-fixture [options] <root> <suite> <operation> ...", status: 1) }
let (root, suite, operation, rest) = (arguments[0], arguments[1], arguments[2], Array(arguments.dropFirst(3)))

/// Prints "held" when another process holds a POSIX lock on bytes `start..<start + length` of the file
/// `root/<suite>.sqlite3<suffix>`, else "free".
///
/// NB: a POSIX lock query (F_GETLK) from another process sees the locks a process holds; that process
/// cannot ask itself (its own locks never conflict, and closing the descriptor it would ask through drops them).
func reportLock(suffix: String, start: Int, length: Int) -> Never {
    let descriptor = open(URL(fileURLWithPath: root).appendingPathComponent(suite + ".sqlite3" + suffix).path, O_RDONLY)
    guard descriptor >= 0 else {
        fail("cannot open the \(suffix.isEmpty ? "database" : suffix) file: \(String(cString: strerror(errno)))", status: 2)
    }
    var query = flock()
    query.l_type = Int16(F_WRLCK)
    query.l_whence = Int16(SEEK_SET)
    query.l_start = off_t(start)
    query.l_len = off_t(length)
    guard fcntl(descriptor, F_GETLK, &query) == 0 else { fail("F_GETLK: \(String(cString: strerror(errno)))", status: 2) }
    say(query.l_type == Int16(F_UNLCK) ? "free" : "held")
    exit(0)
}

let location = URL(fileURLWithPath: root)
do {
    switch operation {
    case "shm-lock-held":
        // The read lock of "a connection is open" (byte 128 of the -shm file).
        reportLock(suffix: "-shm", start: 128, length: 1)
    case "shared-lock-held":
        // NB: SQLite's SHARED lock is a read lock on the 510 bytes after PENDING_BYTE (0x40000000) + 2; a
        // connection in WAL mode holds it for as long as it is open.
        reportLock(suffix: "", start: 0x4000_0002, length: 510)
    case "repair":
        say(try Defaults.Domain(suite, location: .directory(location)).repair()?.path ?? "nil")
        exit(0)
    case "backup" where rest.count == 1:
        try Defaults.Domain(suite, location: .directory(location)).backup(to: URL(fileURLWithPath: rest[0]))
        exit(0)
    case "domains":
        try Defaults.Domain.names(location: .directory(location)).forEach(say)
        exit(0)
    case "exists":
        say(try Defaults.Domain(suite, location: .directory(location)).exists() ? "yes" : "no")
        exit(0)
    case "install-system-schema":
        // A one-key schema of the suite into the system directory `root`, as an administrator installs it.
        let schema = try PreferenceSchema(
            suiteName: suite, version: 1, entries: [.init(name: "k", type: .integer, defaultValue: 1, summary: "A key")])
        say("\(try Defaults.Domain(suite, layer: .system, systemDirectories: [location]).installSchema(schema))")
        exit(0)
    case "user-defaults":
        guard let foundation = UserDefaults(suiteName: suite) else { fail("UserDefaults refused the suite", status: 2) }
        foundation.set(3, forKey: "count")
        foundation.set(true, forKey: "flag")
        foundation.set(0.25, forKey: "ratio")
        foundation.set(Date(timeIntervalSinceReferenceDate: 100), forKey: "when")
        guard foundation.synchronize() else { fail("UserDefaults could not synchronize", status: 2) }
        exit(0)
    default:
        break
    }
} catch {
    fail("\(error)", status: 2)
}

do {
    let defaults = try Defaults(
        suiteName: suite, configuration: .init(location: .directory(location), arguments: [], busyTimeout: busyTimeout))
    switch (operation, rest.count) {
    case ("write", 2):
        try defaults.write(try JSONDecoder().decode(PreferenceValue.self, from: Data(rest[1].utf8)), forKey: rest[0])
    case ("write-and-exit", 2):
        try defaults.write(try JSONDecoder().decode(PreferenceValue.self, from: Data(rest[1].utf8)), forKey: rest[0])
        withExtendedLifetime(defaults) { exit(0) }
    case ("read", 1):
        if let value = try defaults.value(forKey: rest[0]) {
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
            try defaults.update(forKey: rest[0]) { $0 = .integer(($0?.integerValue ?? 0) + 1) }
        }
    case ("append", 3):
        // Appends "<prefix>-<i>" to the string list `key`, `count` times, through the typed update.
        let list = Defaults.Key(rest[0], default: [String]())
        for index in 0..<(Int(rest[2]) ?? 0) {
            try defaults.update(list) { $0.append("\(rest[1])-\(index)") }
        }
    case ("hold-write-lock", 1):
        // NB: the domain's file is made by its first commit: one without a file is made first (and left
        // empty), so that the lock held is the file's.
        if !FileManager.default.fileExists(atPath: URL(fileURLWithPath: root).appendingPathComponent(suite + ".sqlite3").path) {
            try defaults.write(.string("held"), forKey: "lock-holder")
            try defaults.write(nil, forKey: "lock-holder")
        }
        try defaults.transaction { domain in
            try domain.write(.string("held"), forKey: "lock-holder")
            say("locked")
            Thread.sleep(forTimeInterval: Double(rest[0]) ?? 1)
        }
    case ("migrate", 2):
        let ran = try defaults.migrate(rest[0]) { domain in
            try domain.write(.integer((try domain.value(forKey: rest[1])?.integerValue ?? 0) + 1), forKey: rest[1])
        }
        say(ran ? "ran" : "skipped")
    case ("write-data", 2):
        try defaults.write(.data(Data(repeating: 0xA5, count: Int(rest[1]) ?? 0)), forKey: rest[0])
    case ("set", 2):
        defaults.set(try JSONDecoder().decode(PreferenceValue.self, from: Data(rest[1].utf8)).anyValue, forKey: rest[0])
    case ("churn", 2):
        try churn(defaults, prefix: rest[0], count: Int(rest[1]) ?? 0)
    case ("churn", 4):
        try churn(
            defaults, prefix: rest[0], count: Int(rest[1]) ?? 0,
            pause: (every: max(1, Int(rest[2]) ?? 1), milliseconds: Int(rest[3]) ?? 0))
    case ("count-up", 2):
        for value in 1...max(1, Int(rest[1]) ?? 1) {
            try defaults.write(.integer(value), forKey: rest[0])
            say(String(value))
            usleep(useconds_t(2 + value * 7 % 19) * 1000)
        }
    case ("write-lines", 1):
        while let line = readLine() {
            try defaults.write(.string(line), forKey: rest[0])
            say(line)
        }
    case ("observe", 1):
        // Prints `key`'s value (as `read` does) at each change an observation delivers, the first at once;
        // ends when standard input does.
        let observation = defaults.observe(.key(rest[0])) { (value: PreferenceValue?) in
            say(value.map { String(decoding: try! JSONEncoder().encode($0), as: UTF8.self) } ?? "nil")
        }
        while readLine() != nil {}
        observation.cancel()
    case ("read-lines", 1):
        // Reads `key` once for each line of standard input, printing it as `read` does.
        while readLine() != nil {
            let value = try defaults.value(forKey: rest[0])
            say(value.map { String(decoding: try! JSONEncoder().encode($0), as: UTF8.self) } ?? "nil")
        }
    case ("write-lines", 2) where rest[1] == "raw":
        writeLinesRaw(key: rest[0])
    case ("chase", 2):
        try chase(defaults, key: rest[0], kind: rest[1])
    default:
        fail("unknown operation '\(operation)' with \(rest.count) arguments", status: 1)
    }
} catch {
    fail("\(error)", status: 2)
}

/// The `write-lines <key> raw` operation: as `write-lines`, through a plain SQLite connection to the
/// suite's existing file (no store, so no idle checkpoint after a write), syncing the log at each
/// commit as the `sqlite3` shell does.
func writeLinesRaw(key: String) -> Never {
    let path = URL(fileURLWithPath: root).appendingPathComponent(suite + ".sqlite3").path
    var database: OpaquePointer?
    guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK,
        sqlite3_exec(database, "PRAGMA busy_timeout = 5000; PRAGMA synchronous = FULL", nil, nil, nil) == SQLITE_OK
    else { fail("cannot open the database: \(String(cString: sqlite3_errmsg(database)))", status: 2) }
    var statement: OpaquePointer?
    let sql = "INSERT OR REPLACE INTO preferences (key, type, value) VALUES (?1, 'string', ?2)"
    guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK else {
        fail("cannot prepare the write: \(String(cString: sqlite3_errmsg(database)))", status: 2)
    }
    while let line = readLine() {
        sqlite3_bind_text(statement, 1, key, -1, csqlite_transient)
        sqlite3_bind_text(statement, 2, line, -1, csqlite_transient)
        guard sqlite3_step(statement) == SQLITE_DONE else {
            fail("the write failed: \(String(cString: sqlite3_errmsg(database)))", status: 2)
        }
        sqlite3_reset(statement)
        say(line)
    }
    sqlite3_finalize(statement)
    sqlite3_close(database)
    exit(0)
}

/// The `churn` operation: a deterministic mix of writes of varying size (so transactions span pages and
/// the WAL checkpoints now and then), removals of earlier keys, and atomic counter updates.
/// With `pause`, sleeps `milliseconds` after every `every` operations.
func churn(_ defaults: Defaults, prefix: String, count: Int, pause: (every: Int, milliseconds: Int)? = nil) throws {
    let counter = "\(prefix)-count"
    for index in 0..<count {
        if let pause, index > 0, index % pause.every == 0 { usleep(useconds_t(pause.milliseconds) * 1000) }
        switch index % 4 {
        case 3 where index >= 4:
            let key = "\(prefix)-\(index - 2)"
            say("do del \(key)")
            try defaults.write(nil, forKey: key)
            say("ok")
        case 2:
            say("do inc \(counter)")
            let value = try defaults.update(forKey: counter) { $0 = .integer(($0?.integerValue ?? 0) + 1) }
            say("ok \(value?.integerValue ?? -1)")
        default:
            let key = "\(prefix)-\(index)"
            let length = (index &* 7919) % 6000
            say("do set \(key) \(length)")
            try defaults.write(.string("\(key):" + String(repeating: "x", count: length)), forKey: key)
            say("ok")
        }
    }
}

/// The `chase` operation (see the top of this file).
func chase(_ defaults: Defaults, key: String, kind: String) throws {
    let writeNothing: () throws -> Void
    switch kind {
    case "same":
        try defaults.write(.string("unchanged"), forKey: "chase-same")
        writeNothing = { try defaults.write(.string("unchanged"), forKey: "chase-same") }
    case "absent":
        writeNothing = { try defaults.write(nil, forKey: "chase-absent") }
    case "empty":
        writeNothing = { try defaults.transaction { _ in } }
    case "migrate":
        try defaults.migrate("chase") { _ in }
        writeNothing = { try defaults.migrate("chase") { _ in } }
    default:
        fail("unknown kind '\(kind)'", status: 1)
    }
    var acknowledged = AcknowledgedValues()
    var (reads, stale, behind) = (0, 0, 0)
    while acknowledged.read() {
        try writeNothing()
        guard acknowledged.read() else { break }
        let known = acknowledged.latest
        let found = defaults.integer(forKey: key)
        reads += 1
        if found < known {
            stale += 1
            behind = max(behind, known - found)
        }
    }
    say("checked \(reads) stale \(stale) behind \(behind)")
}

/// The integers another process acknowledges on this process's standard input, one a line, read
/// without waiting.
struct AcknowledgedValues {
    /// The largest value read so far (0: none).
    private(set) var latest = 0
    private var pending: [UInt8] = []

    /// Takes in what standard input holds now; false once it has ended.
    mutating func read() -> Bool {
        var entry = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        while poll(&entry, 1, 0) > 0 {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = Foundation.read(STDIN_FILENO, &buffer, buffer.count)
            guard count > 0 else { return count < 0 && errno == EINTR }
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                latest = max(latest, Int(String(decoding: pending[..<newline], as: UTF8.self)) ?? 0)
                pending.removeSubrange(...newline)
            }
        }
        return true
    }
}

/// Confines this process to the `index`-th CPU (from 0) of those it may use now.
func pin(toCPU index: Int) {
    #if os(Linux)
        // NB: Glibc declares sched_getaffinity and sched_setaffinity only for _GNU_SOURCE, which Swift's Glibc
        // module is not built with; look them up by name instead (they are in every glibc since 2.3). A CPU
        // set is an array of words; on the little-endian machines Swift runs Linux on, CPU n is bit n % 8 of byte n / 8.
        typealias Affinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
        guard let get = dlsym(nil, "sched_getaffinity"), let set = dlsym(nil, "sched_setaffinity") else {
            fail("--cpu: sched_setaffinity is missing", status: 3)
        }
        var allowed = cpu_set_t()
        guard unsafeBitCast(get, to: Affinity.self)(0, MemoryLayout<cpu_set_t>.size, &allowed) == 0 else {
            fail("sched_getaffinity: \(String(cString: strerror(errno)))", status: 3)
        }
        let cpus = withUnsafeBytes(of: allowed) { bytes in
            (0..<bytes.count * 8).filter { bytes[$0 / 8] & (1 << ($0 % 8)) != 0 }
        }
        guard cpus.indices.contains(index) else { fail("--cpu \(index): only \(cpus.count) CPUs are usable", status: 3) }
        var only = cpu_set_t()
        withUnsafeMutableBytes(of: &only) { $0[cpus[index] / 8] = 1 << (cpus[index] % 8) }
        guard unsafeBitCast(set, to: Affinity.self)(0, MemoryLayout<cpu_set_t>.size, &only) == 0 else {
            fail("sched_setaffinity: \(String(cString: strerror(errno)))", status: 3)
        }
    #else
        // NB: elsewhere (macOS) a process cannot be confined to a CPU; the option is accepted and ignored.
        _ = index
    #endif
}
