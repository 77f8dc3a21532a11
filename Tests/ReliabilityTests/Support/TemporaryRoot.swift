import Foundation

/// A fresh directory under the system's temporary directory, named with a UUID, removed afterwards
/// (its permissions restored first: a test may have made parts of it read-only).
func withTemporaryRoot<T>(_ body: (URL) throws -> T) throws -> T {
    let root = try makeTemporaryRoot()
    defer { removeTemporaryRoot(root) }
    return try body(root)
}

/// The `async` form of ``withTemporaryRoot(_:)``.
func withTemporaryRoot<T>(_ body: (URL) async throws -> T) async throws -> T {
    let root = try makeTemporaryRoot()
    defer { removeTemporaryRoot(root) }
    return try await body(root)
}

private func makeTemporaryRoot() throws -> URL {
    let root = FileManager.default.temporaryDirectory
        .appendingPathComponent("ReliabilityTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    return root
}

private func removeTemporaryRoot(_ root: URL) {
    if let enumerator = FileManager.default.enumerator(atPath: root.path) {
        chmod(root.path, 0o700)
        for case let relative as String in enumerator {
            let path = root.appendingPathComponent(relative).path
            var status = stat()
            if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { chmod(path, 0o700) }
        }
    }
    chmod(root.path, 0o700)
    // NB: a store released a moment later by another thread (a detached test thread's last reference)
    // closes and deletes its -wal and -shm while removeItem walks the directory, which makes removeItem
    // give up half-way; what is left then is removed by the next attempt.
    for _ in 0..<5 where FileManager.default.fileExists(atPath: root.path) {
        try? FileManager.default.removeItem(at: root)
    }
}

/// The arguments that make the fixture drop to an unprivileged user when the tests run as root (root
/// ignores file permissions, so a read-only test would prove nothing), and the user it drops to.
enum Unprivileged {
    /// The user and group `nobody` (65534) on Linux.
    static let id: uid_t = 65534
    /// True when the tests run as root and children must drop privileges.
    static var isNeeded: Bool { geteuid() == 0 }
    /// The fixture's leading options.
    static var fixtureOptions: [String] { isNeeded ? ["--as-user", String(id)] : [] }

    /// Hands `directory` and everything in it to the unprivileged user (when running as root).
    static func handOver(_ directory: URL) {
        guard isNeeded else { return }
        chown(directory.path, id, id)
        for case let relative as String in FileManager.default.enumerator(atPath: directory.path) ?? .init() {
            lchown(directory.appendingPathComponent(relative).path, id, id)
        }
    }
}
