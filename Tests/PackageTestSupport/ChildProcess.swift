import Foundation

@testable import LayeredDefaults

/// Why a child process could not be waited for.
public struct ChildTimeout: Error, CustomStringConvertible {
    /// The child: its executable and arguments.
    public let what: String
    /// Says what was waited for, and that the child was killed.
    public var description: String { "timed out waiting for \(what); the child was killed" }
}

/// A running child process, its standard output read line by line as it arrives and its standard
/// error read to its end on a thread of its own, every wait bounded by a deadline (on expiry the child
/// is killed and the wait throws ``ChildTimeout``).
///
/// NB: standard error is drained concurrently with standard output, so a child filling one pipe never
/// blocks while this process waits on the other.
public final class ChildProcess {
    /// The child's `Process`, e.g. for its termination reason once ``wait(before:)`` returned.
    public let process = Process()
    private let output = Pipe()
    private let errors: PipeReader
    private var pending = Data()
    private var atEnd = false

    /// Starts `executable` with `arguments`; `environment` replaces this process's when given. Its
    /// standard input is `input` when given, else the tests' own.
    public init(
        executable: URL, _ arguments: [String], environment: [String: String]? = nil,
        input: FileHandle? = nil
    ) throws {
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let input { process.standardInput = input }
        process.standardOutput = output
        let errorPipe = Pipe()
        process.standardError = errorPipe
        try process.run()
        errors = PipeReader(errorPipe.fileHandleForReading)
    }

    /// Starts `product` (a built executable of this package, see ``BuiltProducts``) with `arguments`.
    public convenience init(
        _ product: String, _ arguments: [String], environment: [String: String]? = nil,
        input: FileHandle? = nil
    ) throws {
        try self.init(executable: BuiltProducts.url(of: product), arguments, environment: environment, input: input)
    }

    /// This child's standard output, to give another child as its `input`; this one's lines are then
    /// that child's to read, not ours (``wait(before:)`` still gives the status).
    public var outputForAnotherChild: FileHandle { output.fileHandleForReading }

    /// The child's process identifier.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Everything the child wrote to standard error; complete once ``wait(before:)`` returned.
    public private(set) var errorText = ""

    /// The next complete line of standard output, or nil once the child closed it (exited).
    /// - Throws: ``ChildTimeout`` (after killing the child) when no line arrives before `deadline`.
    public func nextLine(before deadline: ContinuousClock.Instant) throws -> String? {
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
    public func remainingLines(before deadline: ContinuousClock.Instant) throws -> [String] {
        var lines: [String] = []
        while let line = try nextLine(before: deadline) { lines.append(line) }
        return lines
    }

    /// Sends `signal` to the child.
    public func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits for the child to exit, reading what is left of its output; returns its termination status
    /// (the signal's number when a signal ended it).
    /// - Throws: ``ChildTimeout`` (after killing the child) when it has not exited by `deadline`.
    @discardableResult
    public func wait(before deadline: ContinuousClock.Instant) throws -> Int32 {
        while !atEnd { try fill(before: deadline) }
        process.waitUntilExit()
        errorText = String(decoding: errors.wait(), as: UTF8.self)
        return process.terminationStatus
    }

    /// Waits for the child to exit (as ``wait(before:)``) and returns what it left unread on standard
    /// output, what it wrote to standard error and how it ended.
    public func finish(before deadline: ContinuousClock.Instant) throws -> ProcessResult {
        let status = try wait(before: deadline)
        defer { pending.removeAll() }
        return ProcessResult(
            status: status, signaled: process.terminationReason == .uncaughtSignal,
            output: String(decoding: pending, as: UTF8.self), error: errorText)
    }

    /// Reads whatever standard output has, waiting (poll, no sleep) until `deadline`.
    private func fill(before deadline: ContinuousClock.Instant) throws {
        let descriptor = output.fileHandleForReading.fileDescriptor
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&entry, 1, (deadline - .now).wholeMilliseconds)
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

/// Reads a pipe to its end on a thread of its own.
private final class PipeReader: Sendable {
    private let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) private var data = Data()  // NB: written before `done` is signalled, read after waiting for it.

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// What the pipe held, once its writer closed it.
    func wait() -> Data {
        done.wait()
        return data
    }
}
