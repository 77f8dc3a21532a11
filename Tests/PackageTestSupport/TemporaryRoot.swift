import Foundation

/// Runs `body` with a fresh directory under the system's temporary directory, named with a UUID, and
/// removes it afterwards, whether `body` succeeded or not (its permissions restored first: a test may
/// have made parts of it read-only).
public func withTemporaryRoot<T>(_ body: (URL) throws -> T) throws -> T {
    let root = try makeTemporaryRoot()
    defer { removeTemporaryRoot(root) }
    return try body(root)
}

/// The `async` form of ``withTemporaryRoot(_:)``.
public func withTemporaryRoot<T>(isolation: isolated (any Actor)? = #isolation, _ body: (URL) async throws -> T) async throws -> T
{
    let root = try makeTemporaryRoot()
    defer { removeTemporaryRoot(root) }
    return try await body(root)
}

/// The form of ``withTemporaryRoot(_:)`` that makes the directory in `base` instead of the system's
/// temporary directory: for a test whose child process, of another user, must reach it.
public func withTemporaryRoot<T>(under base: URL, _ body: (URL) throws -> T) throws -> T {
    let root = try makeTemporaryRoot(under: base)
    defer { removeTemporaryRoot(root) }
    return try body(root)
}

private func makeTemporaryRoot(under base: URL = FileManager.default.temporaryDirectory) throws -> URL {
    let root =
        base
        .appendingPathComponent("LayeredDefaultsPackageTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    return root
}

private func removeTemporaryRoot(_ root: URL) {
    chmod(root.path, 0o700)
    if let enumerator = FileManager.default.enumerator(atPath: root.path) {
        for case let relative as String in enumerator {
            let path = root.appendingPathComponent(relative).path
            var status = stat()
            if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { chmod(path, 0o700) }
        }
    }
    // NB: a store released a moment later by another thread (a detached test thread's last reference)
    // closes and deletes its -wal and -shm while removeItem walks the directory, which makes removeItem
    // give up half-way; what is left then is removed by the next attempt.
    for _ in 0..<5 where FileManager.default.fileExists(atPath: root.path) {
        try? FileManager.default.removeItem(at: root)
    }
}
