import Foundation

/// The command line of `prefs-soak`.
struct SoakOptions {
    static let usage = """
        usage: prefs-soak [--seconds N] [--processes N] [--keys N] [--root DIR] [--seed N] [--simulate-loss]
                          [--simulate-stale]

          --seconds N        how long the children run (default 60)
          --processes N      how many child processes (default 3)
          --keys N           keys owned by each child (default 200)
          --root DIR         the store directory (default: a new temporary directory, removed afterwards)
          --seed N           the random seed (default: random; printed)
          --simulate-loss    remove one acknowledged key before verifying, to prove the check can fail
          --simulate-stale   the first child publishes progress it never wrote, to prove the stale check can fail
        """

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    var seconds = 60.0
    var processes = 3
    var keys = 200
    var root: URL?
    var seed = UInt64.random(in: 0...UInt64.max)
    var simulateLoss = false
    var simulateStale = false
    /// Set in child mode: the child's index.
    var child: Int?

    /// The suite every process writes.
    static let suite = "soak"
    /// The shared counters, incremented atomically by every child.
    static let counters = 4

    /// In a quiet spell, the child that writes (the others read); nil outside one. Quiet spells are the last
    /// 20 ms of every 100 ms of the system's monotonic clock, which all processes share; each writes in turn.
    static func quietSpellWriter(among children: Int) -> Int? {
        let milliseconds = DispatchTime.now().uptimeNanoseconds / 1_000_000
        return milliseconds % 100 < 80 ? nil : Int(milliseconds / 100 % UInt64(children))
    }

    init(arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ option: String) throws -> String {
            guard let value = rest.popFirst() else { throw UsageError(description: "\(option) needs a value") }
            return value
        }
        while let option = rest.popFirst() {
            switch option {
            case "--seconds": seconds = try Double(value(option)).orThrow(option)
            case "--processes": processes = try Int(value(option)).orThrow(option)
            case "--keys": keys = try Int(value(option)).orThrow(option)
            case "--root": root = URL(fileURLWithPath: try value(option), isDirectory: true)
            case "--seed": seed = try UInt64(value(option)).orThrow(option)
            case "--simulate-loss": simulateLoss = true
            case "--simulate-stale": simulateStale = true
            case "--child": child = try Int(value(option)).orThrow(option)
            case "--help", "-h": throw UsageError(description: "help")
            default: throw UsageError(description: "unknown option '\(option)'")
            }
        }
        guard seconds > 0, (1...64).contains(processes), (2...100_000).contains(keys) else {
            throw UsageError(description: "--seconds must be positive, --processes 1-64, --keys 2-100000")
        }
    }

    /// The arguments that start child `index` with these options.
    func childArguments(_ index: Int, root: URL) -> [String] {
        [
            "--child", String(index), "--root", root.path, "--seconds", String(seconds), "--keys", String(keys),
            "--processes", String(processes), "--seed", String(seed &+ UInt64(index)),
        ] + (simulateStale ? ["--simulate-stale"] : [])
    }
}

extension Optional {
    func orThrow(_ option: String) throws -> Wrapped {
        guard let self else { throw SoakOptions.UsageError(description: "\(option) has an invalid value") }
        return self
    }
}
