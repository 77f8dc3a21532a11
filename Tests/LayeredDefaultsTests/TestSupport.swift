import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

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
