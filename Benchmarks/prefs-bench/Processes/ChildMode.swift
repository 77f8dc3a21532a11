import Foundation

/// The hidden roles of `prefs-bench --child <role> <peer> <suite> ...`, run in a new process by the
/// multi-process cases. Each opens the domain of one peer in the sandbox it inherited, does its part,
/// and answers on standard output, one line at a time.
///
/// | role | arguments | answers |
/// |---|---|---|
/// | `measure` | `<case> <peer> <size or -> <quick or full> <round>` (no suite) | the case's rows for that peer, as JSON |
/// | `profile` | see ``ProfileMode`` (no suite) | nothing: an operation repeated for a profiler |
/// | `cold-start` | `<key>` | nanoseconds from entering the role to the first value, then the value |
/// | `memory` | `<keys>` | peak RSS (KiB) before opening, after the first read, after reading every key (the dict floor: filled then) |
/// | `writer` | `<prefix> <count>` | `ready`; after a `go` line, writes `<prefix>.<i>` durably, then `done <failures>` |
/// | `count` | `<count> <prefix>...` | how many of `<prefix>.<i>` (i < count) the domain holds |
/// | `fresh-reader` | `<key>` | `ready`; then for each line, `ok` when `<key>` reads as that line, else `stale` |
/// | `observer` | `<key> <observe or none>` | `ready`; with `observe`, for each change of `<key>`, the time its handler ran (ns, `CLOCK_MONOTONIC`) and the value; idle until `quit` |
enum ChildMode {
    /// Runs the role in `arguments`.
    /// - Returns: the exit status: 0, 1 for an error (on standard error), 2 for a bad command line.
    static func run(_ arguments: [String]) -> Int32 {
        let start = monotonicNanoseconds()
        if arguments.first == "measure" || arguments.first == "profile" {
            do {
                if arguments.first == "measure" {
                    try Conductor.measure(Array(arguments.dropFirst()))
                } else {
                    try ProfileMode.run(Array(arguments.dropFirst()))
                }
                return 0
            } catch {
                FileHandle.standardError.write(Data("prefs-bench: \(error)\n".utf8))
                return 1
            }
        }
        guard arguments.count >= 3, let kind = PeerKind(rawValue: arguments[1]), let sandbox = Sandbox.current else {
            FileHandle.standardError.write(Data("prefs-bench: bad child command line \(arguments)\n".utf8))
            return 2
        }
        let (role, suite, rest) = (arguments[0], arguments[2], Array(arguments.dropFirst(3)))
        do {
            switch (role, rest.count) {
            case ("cold-start", 1):
                let peer = try kind.open(suite: suite, in: sandbox)
                let value = peer.string(forKey: rest[0])
                say("\(monotonicNanoseconds() - start) \(value ?? "nil")")
            case ("memory", 1):
                let keys = Int(rest[0]) ?? 0
                let baseline = peakResidentKiB()
                let peer = try kind.open(suite: suite, in: sandbox)
                consume(peer.string(forKey: Workload.stringKey(0))?.utf8.count ?? 0)
                let first = peakResidentKiB()
                // NB: the dictionary floor has no file to read from: it is filled here, with what a store
                // holds once it has read every key, and then read like the others.
                let reader = kind == .floor ? DictionaryFloor(fillingLike: keys) : peer
                var checksum = 0
                for index in 0..<(keys / 2) { checksum &+= reader.string(forKey: Workload.stringKey(index))?.utf8.count ?? 0 }
                for index in 0..<(keys - keys / 2) { checksum &+= reader.integer(forKey: Workload.integerKey(index)) }
                consume(checksum)
                say("\(baseline) \(first) \(peakResidentKiB())")
            case ("writer", 2):
                let peer = try kind.open(suite: suite, in: sandbox)
                say("ready")
                _ = readLine()
                var failures = 0
                for index in 0..<(Int(rest[1]) ?? 0) {
                    do {
                        try peer.write("\(rest[0])-\(index)", forKey: "\(rest[0]).\(index)")
                    } catch {
                        failures += 1
                        FileHandle.standardError.write(Data("prefs-bench: writer \(rest[0]): \(error)\n".utf8))
                    }
                }
                say("done \(failures)")
            case ("count", 2...):
                let peer = try kind.open(suite: suite, in: sandbox)
                let count = Int(rest[0]) ?? 0
                let found = rest.dropFirst().reduce(0) { sum, prefix in
                    sum + (0..<count).count { peer.string(forKey: "\(prefix).\($0)") != nil }
                }
                say("\(found)")
            case ("fresh-reader", 1):
                let peer = try kind.open(suite: suite, in: sandbox)
                consume(peer.string(forKey: rest[0])?.utf8.count ?? 0)
                say("ready")
                while let expected = readLine(), expected != "quit" {
                    say(peer.string(forKey: rest[0]) == expected ? "ok" : "stale")
                }
            case ("observer", 2):
                guard let ours = try kind.open(suite: suite, in: sandbox) as? OursPeer else {
                    throw PeerError.unsupported(kind, "observe")
                }
                let observation =
                    rest[1] == "observe"
                    ? ours.defaults.observe(.key(rest[0]), initial: false) { value in
                        say("\(monotonicNanoseconds()) \(value?.stringValue ?? "nil")")
                    } : nil
                say("ready")
                while let line = readLine(), line != "quit" {}
                observation?.cancel()
            default:
                FileHandle.standardError.write(Data("prefs-bench: bad child command line \(arguments)\n".utf8))
                return 2
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("prefs-bench: \(role) child (\(kind.rawValue)): \(error)\n".utf8))
            return 1
        }
    }

    /// Writes one line to standard output at once (the parent is waiting for it).
    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// The peak resident set size of this process so far (`VmHWM` of `/proc/self/status`), in KiB.
    static func peakResidentKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return 0 }
        return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") ?? 0
    }
}
