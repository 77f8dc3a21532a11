import Foundation
import PackageTestSupport
import Testing
@testable import LayeredDefaults

/// A fresh directory under the system's temporary directory, named with a UUID, removed afterwards.
func withTemporaryRoot<T>(_ body: (URL) throws -> T) throws -> T {
    let root = FileManager.default.temporaryDirectory
        .appendingPathComponent("LayeredDefaultsTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    defer {
        chmod(root.path, 0o700)  // a test may have made it read-only
        try? FileManager.default.removeItem(at: root)
    }
    return try body(root)
}

/// A store in `root` for `suite`, with no launch arguments.
func makeDefaults(
    _ suite: String = "test.suite", root: URL, arguments: [String] = [],
    errorHandler: @escaping @Sendable (DefaultsError) -> Void = Defaults.reportToStandardError
) throws -> Defaults {
    try Defaults(suiteName: suite, configuration: .init(location: .directory(root), arguments: arguments, errorHandler: errorHandler))
}

/// A store in memory, with no launch arguments.
func makeInMemoryDefaults(
    _ suite: String = "test.suite", arguments: [String] = [],
    errorHandler: @escaping @Sendable (DefaultsError) -> Void = Defaults.reportToStandardError
) throws -> Defaults {
    try Defaults(suiteName: suite, configuration: .init(location: .inMemory, arguments: arguments, errorHandler: errorHandler))
}

/// Collects the errors an instance reports instead of printing them.
final class ErrorCollector: Sendable {
    private let errors = Lock<[DefaultsError]>([])
    var all: [DefaultsError] { errors.withLock { $0 } }
    /// The error handler to configure a store with.
    func record(_ error: DefaultsError) { errors.withLock { $0.append(error) } }
}


/// The result of running a built executable of this package.
struct ProcessResult {
    let status: Int32
    let output: String
    let error: String
}


/// Runs the built executable `product` with `arguments` and waits for it to exit.
@discardableResult
func run(_ product: String, _ arguments: [String]) throws -> ProcessResult {
    let process = Process()
    process.executableURL = BuiltProducts.url(of: product)
    process.arguments = arguments
    let output = Pipe(), error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProcessResult(status: process.terminationStatus,
                         output: String(decoding: outputData, as: UTF8.self),
                         error: String(decoding: errorData, as: UTF8.self))
}

/// Runs the fixture against `suite` in `root`.
@discardableResult
func fixture(_ root: URL, _ suite: String, _ arguments: String...) throws -> ProcessResult {
    try run("defaults-fixture", [root.path, suite] + arguments)
}

/// The JSON form of a value, as the fixture reads and prints it.
func json(_ value: PreferenceValue) throws -> String {
    String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
}

/// The bytes of a file, to prove it was left untouched.
func contents(_ url: URL) -> Data? { try? Data(contentsOf: url) }

/// Every value stored in the database `file`, read through a new plain SQLite connection (not the
/// process's shared store nor its in-memory view), closed again before this returns.
///
/// NB: a plain connection, not a second `DomainStore`: a store's change signal keeps a descriptor of the
/// `-shm` file, and closing it would drop the POSIX locks the shared store's connection holds on it.
func freshValues(of file: URL) throws -> [String: PreferenceValue] {
    let connection = try Connection(path: file.path, busyTimeoutMilliseconds: 10_000)
    defer { connection.close() }
    return try PreferencesTable(connection: connection, suite: file.lastPathComponent).allValues().values
}
