import Foundation

/// Where a command's output goes: standard output, standard error and standard input, or buffers in tests.
struct Console: Sendable {
    /// Writes text to the output, unchanged.
    let writeOutput: @Sendable (String) -> Void
    /// Writes text to the error stream, unchanged.
    let writeError: @Sendable (String) -> Void
    /// Reads the whole input (for `import <domain> -`).
    let readInput: @Sendable () -> Data

    /// The process's standard streams, unbuffered.
    static let standard = Console(
        writeOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
        writeError: { FileHandle.standardError.write(Data($0.utf8)) },
        readInput: { FileHandle.standardInput.readDataToEndOfFile() })

    /// Writes `line` and a newline to the output.
    func print(_ line: String) { writeOutput(line + "\n") }

    /// Writes `line` and a newline to the error stream.
    func printError(_ line: String) { writeError(line + "\n") }
}
