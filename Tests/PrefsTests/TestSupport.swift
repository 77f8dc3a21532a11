import Foundation
import LayeredDefaults
import PackageTestSupport

@testable import prefs

/// A console whose output and error streams are kept in memory, with a fixed input; a terminal
/// whose person answers `answer` when one is given.
final class CapturingConsole: Sendable {
    private let streams = Lock<(output: String, error: String)>(("", ""))
    private let input: Data
    private let answer: String?
    private let errorIsTerminal: Bool
    /// What happens while the person thinks, before each answer.
    private let whileAsking: @Sendable () -> Void

    init(
        input: Data = Data(), answer: String? = nil, errorIsTerminal: Bool = true,
        whileAsking: @escaping @Sendable () -> Void = {}
    ) {
        self.input = input
        self.answer = answer
        self.errorIsTerminal = errorIsTerminal
        self.whileAsking = whileAsking
    }

    var output: String { streams.withLock { $0.output } }
    var error: String { streams.withLock { $0.error } }
    /// The lines written to the error stream.
    var errorLines: [String] { error.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }

    var console: Console {
        Console(
            writeOutput: { text in self.streams.withLock { $0.output += text } },
            writeError: { text in self.streams.withLock { $0.error += text } },
            readInput: { [input] limit in input.count > limit ? input.prefix(limit + 1) : input },
            isInteractive: { [answer, errorIsTerminal] in answer != nil && errorIsTerminal },
            inputIsTerminal: { [answer] in answer != nil },
            readLine: { [answer, whileAsking] in
                whileAsking()
                return answer
            })
    }
}

/// One run of `prefs` in this process.
struct RunResult {
    let status: ExitStatus
    let output: String
    let error: String
    let errorLines: [String]
}

/// A temporary root for one test, named with a UUID and removed afterwards.
struct TestRoot {
    let url: URL

    /// Runs `prefs` with `arguments` against this root (through `LAYERED_DEFAULTS_HOME`, never the
    /// user's own preferences), its system-wide layers under ``systemDirectory`` (never `/etc`).
    @discardableResult
    func prefs(_ arguments: String..., input: Data = Data()) -> RunResult {
        prefs(arguments, input: input)
    }

    /// Runs `prefs` as ``prefs(_:input:)`` does, on a terminal where the person answers `answer` to a
    /// question (nil: not a terminal), after `whileAsking` has run.
    @discardableResult
    func prefs(
        _ arguments: [String], input: Data = Data(), answer: String? = nil, errorIsTerminal: Bool = true,
        whileAsking: @escaping @Sendable () -> Void = {}
    ) -> RunResult {
        let capture = CapturingConsole(input: input, answer: answer, errorIsTerminal: errorIsTerminal, whileAsking: whileAsking)
        let status = Prefs.run(
            arguments, environment: ["LAYERED_DEFAULTS_HOME": url.path, "XDG_CONFIG_DIRS": systemDirectory.path],
            console: capture.console)
        return RunResult(status: status, output: capture.output, error: capture.error, errorLines: capture.errorLines)
    }

    /// The values stored in `domain`, read through the library (not through `prefs`).
    func stored(_ domain: String) throws -> [String: PreferenceValue] {
        try Defaults(suiteName: domain, configuration: .init(location: .directory(url), arguments: [], systemDirectories: []))
            .persistentValues()
    }

    /// The `XDG_CONFIG_DIRS` of ``prefs(_:input:)``: a directory inside the root, absent until a test
    /// writes a system-wide layer.
    var systemDirectory: URL { url.appendingPathComponent("xdg", isDirectory: true) }

    /// The names of the entries of the root, sorted; empty when it does not exist.
    var entries: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }
}

/// Runs `body` with a ``TestRoot`` on a fresh temporary directory (see `withTemporaryRoot`).
func withTestRoot<T>(_ body: (TestRoot) throws -> T) throws -> T {
    try withTemporaryRoot { try body(TestRoot(url: $0)) }
}
