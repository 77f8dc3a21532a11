import Foundation
import PackageTestSupport
import Testing


/// Why a child process could not be waited for.
struct ChildTimeout: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what); the child was killed" }
}

/// A running executable of this package, its standard output read line by line as it arrives, every
/// wait bounded by a deadline (on expiry the child is killed and the wait throws ``ChildTimeout``).
final class ChildProcess {
    let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private var pending = Data()
    private var atEnd = false
    private(set) var errorText = ""

    /// Starts `product` (a built executable of this package) with `arguments`, reading `input` (by
    /// default, the standard input of the tests).
    init(_ product: String, _ arguments: [String], input: FileHandle? = nil) throws {
        process.executableURL = BuiltProducts.url(of: product)
        process.arguments = arguments
        if let input { process.standardInput = input }
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    /// Starts the fixture on `suite` in `root`, with `options` (e.g. ``Unprivileged/fixtureOptions``) first.
    static func fixture(_ root: URL, _ suite: String, _ arguments: [String], options: [String] = [],
                        input: FileHandle? = nil) throws -> ChildProcess {
        try ChildProcess("defaults-fixture", options + [root.path, suite] + arguments, input: input)
    }

    /// This child's standard output, to give another child as its `input`; this one's lines are then
    /// that child's to read, not ours (``wait(before:)`` still gives the status).
    var outputForAnotherChild: FileHandle { output.fileHandleForReading }

    var processIdentifier: Int32 { process.processIdentifier }

    /// The next complete line of standard output, or nil once the child closed it (exited).
    /// - Throws: ``ChildTimeout`` (after killing the child) when no line arrives before `deadline`.
    func nextLine(before deadline: ContinuousClock.Instant) throws -> String? {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                return line
            }
            if atEnd { return nil }  // NB: a partial last line (no newline) was never acknowledged.
            try fill(before: deadline)
        }
    }

    /// Every remaining complete line of standard output, up to the child closing it.
    func remainingLines(before deadline: ContinuousClock.Instant) throws -> [String] {
        var lines: [String] = []
        while let line = try nextLine(before: deadline) { lines.append(line) }
        return lines
    }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits for the child to exit, reading what is left of its output; returns its termination status.
    /// - Throws: ``ChildTimeout`` (after killing the child) when it has not exited by `deadline`.
    @discardableResult
    func wait(before deadline: ContinuousClock.Instant) throws -> Int32 {
        while !atEnd { try fill(before: deadline) }
        process.waitUntilExit()
        errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return process.terminationStatus
    }

    /// Reads whatever standard output has, waiting (poll, no sleep) until `deadline`.
    private func fill(before deadline: ContinuousClock.Instant) throws {
        let descriptor = output.fileHandleForReading.fileDescriptor
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let remaining = deadline - .now
        let milliseconds = max(0, Int32(clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000))
        let ready = poll(&entry, 1, milliseconds)
        if ready == 0 || (ready < 0 && errno != EINTR) {
            send(SIGKILL)
            process.waitUntilExit()
            throw ChildTimeout(what: "\(process.executableURL?.lastPathComponent ?? "child") \(process.arguments ?? [])")
        }
        guard ready > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = read(descriptor, &buffer, buffer.count)
        if count > 0 {
            pending.append(contentsOf: buffer[0..<count])
        } else if count == 0 || errno != EINTR {
            atEnd = true
        }
    }
}

/// Runs the fixture to completion (bounded by `timeout`) and returns its status, output and error text.
@discardableResult
func runFixture(_ root: URL, _ suite: String, _ arguments: [String], options: [String] = [],
                timeout: Duration = .seconds(20)) throws -> (status: Int32, output: String, error: String) {
    let child = try ChildProcess.fixture(root, suite, arguments, options: options)
    let deadline = ContinuousClock.now + timeout
    let lines = try child.remainingLines(before: deadline)
    let status = try child.wait(before: deadline)
    return (status, lines.map { $0 + "\n" }.joined(), child.errorText)
}

/// Runs the `/bin/sh` `script`, its `$1`... being `arguments`, in a mount namespace of its own (`unshare
/// --mount`), which disappears with it: what it mounts only it and its children see. Returns its exit
/// status and standard error.
///
/// NB: that needs root on Linux, so elsewhere the test is cancelled; so it is when the script exits 99,
/// its way of saying that it cannot mount here.
func runInOwnMountNamespace(_ script: String, _ arguments: [String]) throws -> (status: Int32, error: String) {
    guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else {
        try Test.cancel("mounting needs root and unshare")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
    process.arguments = ["--mount", "/bin/sh", "-c", script, "sh"] + arguments
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    if process.terminationStatus == 99 { try Test.cancel("cannot mount here: \(errorText)") }
    return (process.terminationStatus, errorText)
}
