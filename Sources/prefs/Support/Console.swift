import Foundation
import LayeredDefaults
import Synchronization

/// Where a command's output goes: standard output, standard error and standard input, or buffers in tests.
struct Console: Sendable {
    /// Writes text to the output, unchanged.
    let writeOutput: @Sendable (String) -> Void
    /// Writes text to the error stream, unchanged.
    let writeError: @Sendable (String) -> Void
    /// Reads the whole input (for `import <domain> -`), or its first `limit` bytes and one more.
    let readInput: @Sendable (_ limit: Int) throws -> Data
    /// The `errno` of the first write to the output that failed, nil while every one succeeded.
    var outputFailure: @Sendable () -> Int32? = { nil }
    /// True when a person can answer a question: standard input and standard error are terminals.
    var isInteractive: @Sendable () -> Bool = { false }
    /// True when standard input is a terminal (a person typed the command), whatever standard error is.
    var inputIsTerminal: @Sendable () -> Bool = { false }
    /// Reads one line of the input, without its newline; nil at its end.
    var readLine: @Sendable () -> String? = { nil }

    /// The process's standard streams, unbuffered. After a write to one of them failed, later writes to
    /// it are dropped; the output's failure is kept for ``outputFailure``, the error stream's ignored
    /// (there is nowhere left to report it).
    static let standard: Console = {
        let output = Stream(STDOUT_FILENO)
        let error = Stream(STDERR_FILENO)
        return Console(
            writeOutput: output.write, writeError: error.write,
            readInput: { try DocumentInput.read(from: STDIN_FILENO, limit: $0) }, outputFailure: { output.failure },
            isInteractive: { isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1 },
            inputIsTerminal: { isatty(STDIN_FILENO) == 1 },
            readLine: { Swift.readLine(strippingNewline: true) })
    }()

    /// Puts `/dev/null` in the place of a standard descriptor that is closed, so no file the process
    /// opens later takes its number and receives what is written to that stream.
    ///
    /// NB: `/dev/null` is opened for the other direction (read-only for the output and error streams,
    /// write-only for the input), so using the stream still fails with `EBADF`, as on a closed one.
    static func reserveStandardDescriptors() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 {
            _ = open("/dev/null", descriptor == STDIN_FILENO ? O_WRONLY : O_RDONLY)
        }
    }

    /// Writes `line` and a newline to the output.
    func print(_ line: String) { writeOutput(line + "\n") }

    /// Writes `line` and a newline to the error stream, every control character in it escaped
    /// (``Output/escapingControlCharacters(_:keeping:)``): an error names a key, which may hold anything,
    /// and its line stays one line that a terminal only shows.
    func printError(_ line: String) { writeError(Output.escapingControlCharacters(line) + "\n") }

    /// Writes the line of `error` to the error stream (``PrefsError/line(json:)``), if it has one.
    func report(_ error: PrefsError, json: Bool) {
        if let line = error.line(json: json) { printError(line) }
    }

    /// Writes a warning, a problem that does not stop the command, to the error stream:
    /// `prefs: warning: <message>`, or with `json` `{"warning":"<message>"}`.
    func warn(_ message: String, json: Bool) {
        struct Report: Encodable { let warning: String }
        let line = json ? try? Output.jsonLine(Report(warning: message)) : nil
        printError(line ?? "prefs: warning: \(message)")
    }

    /// A standard output or error stream that remembers its first failed write.
    private final class Stream: Sendable {
        private let descriptor: Int32
        private let firstFailure = Lock<Int32?>(nil)

        /// The stream on `descriptor` (`STDOUT_FILENO` or `STDERR_FILENO`).
        init(_ descriptor: Int32) { self.descriptor = descriptor }

        /// The `errno` of the first write that failed, if any.
        var failure: Int32? { firstFailure.withLock { $0 } }

        /// Writes `text`, unless a write failed before.
        func write(_ text: String) {
            firstFailure.withLock { failure in
                guard failure == nil else { return }
                failure = FileActs.writeAll(Data(text.utf8), to: descriptor)
            }
        }
    }
}
