import Foundation
import PackageTestSupport

/// The result of running a built executable of this package to its end.
struct ProcessResult: Sendable {
    /// The exit status, or the signal number when `signaled`.
    let status: Int32
    /// True when the process was ended by a signal.
    let signaled: Bool
    let output: String
    let error: String

    /// True when the process exited normally with status 0.
    var succeeded: Bool { !signaled && status == 0 }
    /// The lines written to standard error.
    var errorLines: [String] { error.split(separator: "\n").map(String.init) }
}

/// Runs the package's built executables as child processes against one root directory.
///
/// The child's environment is this process's with `LAYERED_DEFAULTS_HOME` set to the root, so even a
/// child run without `--root` never touches the user's own preferences.
struct Launcher: Sendable {
    /// The directory of the domains.
    let root: URL


    /// A process for `product` with `arguments`, its environment pointing at the root.
    func process(_ product: String, _ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = BuiltProducts.url(of: product)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LAYERED_DEFAULTS_HOME"] = root.path
        process.environment = environment
        return process
    }

    /// Runs `product` and waits for it to exit.
    /// - Parameter input: what the child reads on standard input (nothing by default).
    @discardableResult
    func run(_ product: String, _ arguments: [String], input: Data = Data()) throws -> ProcessResult {
        try finish(process(product, arguments), input: input)
    }

    /// Runs `script` with `/bin/sh -c` and waits for it to exit: for what only a shell sets up around
    /// `prefs` (a closed or full standard stream, a pipe, a file-size limit, an argument that is not
    /// UTF-8). `$PREFS` is the built `prefs`, `$1`... are `arguments`.
    @discardableResult
    func shell(_ script: String, _ arguments: String...) throws -> ProcessResult {
        let process = process("prefs", [])
        process.environment?["PREFS"] = process.executableURL?.path
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, "sh"] + arguments
        return try finish(process, input: Data())
    }

    /// Starts `process`, writes `input` to it and waits for it to exit.
    private func finish(_ process: Process, input: Data) throws -> ProcessResult {
        let output = Pipe(), error = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = stdin
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        // NB: stderr is read on another thread, so a child filling one pipe never blocks on the other.
        let errorData = ErrorReader(error.fileHandleForReading)
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ProcessResult(status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
                             output: String(decoding: outputData, as: UTF8.self),
                             error: String(decoding: errorData.wait(), as: UTF8.self))
    }

    /// Runs `prefs` against the root.
    @discardableResult
    func prefs(_ arguments: String..., input: Data = Data()) throws -> ProcessResult {
        try run("prefs", arguments, input: input)
    }

    /// Runs `theme-demo` on `suite` (the root comes from `LAYERED_DEFAULTS_HOME`).
    @discardableResult
    func themeDemo(suite: String, _ arguments: String...) throws -> ProcessResult {
        try run("theme-demo", ["--suite", suite] + arguments)
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class ErrorReader: Sendable {
    private let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) private var data = Data()  // NB: written before `done` is signalled, read after waiting for it.

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}

/// A fresh root directory for one test, named with a UUID, removed afterwards (whether the test passed or not).
func withTemporaryRoot<T>(_ body: (URL) throws -> T) throws -> T {
    let root = FileManager.default.temporaryDirectory
        .appendingPathComponent("LayeredDefaultsIntegration-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    return try body(root)
}

/// A suite name of its own for one test: `it.<test>.<UUID>`.
func uniqueSuite(_ test: String) -> String {
    "it.\(test).\(UUID().uuidString)"
}
