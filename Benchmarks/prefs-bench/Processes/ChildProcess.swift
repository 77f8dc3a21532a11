import Foundation

/// A copy of this executable in a hidden child role (see ``ChildMode``), with pipes to its standard
/// input and output; its standard error is the benchmark's.
final class ChildProcess {
    /// The path of this executable.
    static let executablePath: String =
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffered: [UInt8] = []
    private let role: String

    /// An error of a child process.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts `prefs-bench --child <arguments>`.
    /// - Throws: when the process cannot be started.
    init(_ arguments: [String]) throws {
        role = arguments.first ?? "child"
        process.executableURL = URL(fileURLWithPath: Self.executablePath)
        process.arguments = ["--child"] + arguments
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    /// The child's process id.
    var processIdentifier: Int32 { process.processIdentifier }

    /// Writes one line to the child's standard input.
    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Reads one line of the child's standard output (without the newline), waiting for it.
    /// - Throws: ``Failure`` when the child closed its output first (it failed; its error went to
    ///   standard error).
    func readLine() throws -> String {
        let descriptor = output.fileHandleForReading.fileDescriptor
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw Failure(description: "the \(role) child process ended without answering") }
            buffered += chunk[..<count]
        }
    }

    /// Reads the child's standard output until it closes it.
    func readToEnd() throws -> Data {
        try? input.fileHandleForWriting.close()
        var data = Data(buffered)
        buffered.removeAll()
        data.append(try output.fileHandleForReading.readToEnd() ?? Data())
        return data
    }

    /// Closes the child's standard input and waits for it to exit.
    /// - Throws: ``Failure`` when it did not exit with status 0.
    func finish() throws {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw Failure(description: "the \(role) child process failed (status \(process.terminationStatus))")
        }
    }
}
