import Foundation

/// The result of running a child process to its end.
public struct ProcessResult: Sendable {
    /// The exit status, or the signal number when `signaled`.
    public let status: Int32
    /// True when the process was ended by a signal.
    public let signaled: Bool
    /// What it wrote to standard output.
    public let output: String
    /// What it wrote to standard error.
    public let error: String

    /// True when the process exited normally with status 0.
    public var succeeded: Bool { !signaled && status == 0 }
    /// The lines written to standard error.
    public var errorLines: [String] { error.split(separator: "\n").map(String.init) }
}

/// Runs `executable` with `arguments` to its end, `input` on its standard input (nothing by default),
/// and returns what it wrote and how it ended; `environment` replaces this process's when given.
/// - Throws: ``ChildTimeout`` (after killing the child) when it has not exited after `timeout`.
@discardableResult
public func run(
    executable: URL, _ arguments: [String], environment: [String: String]? = nil,
    input: Data = Data(), timeout: Duration = .seconds(120)
) throws -> ProcessResult {
    let stdin = Pipe()
    let child = try ChildProcess(executable: executable, arguments, environment: environment, input: stdin.fileHandleForReading)
    // NB: written on a thread of its own: a child that writes before it reads must not find us blocked on a full pipe.
    let writer = stdin.fileHandleForWriting
    Thread.detachNewThread {
        writer.write(input)
        try? writer.close()
    }
    return try child.finish(before: .now + timeout)
}

/// Runs `product` (a built executable of this package) with `arguments` to its end, as
/// ``run(executable:_:environment:input:timeout:)``.
@discardableResult
public func run(
    _ product: String, _ arguments: [String], environment: [String: String]? = nil,
    input: Data = Data(), timeout: Duration = .seconds(120)
) throws -> ProcessResult {
    try run(executable: BuiltProducts.url(of: product), arguments, environment: environment, input: input, timeout: timeout)
}
