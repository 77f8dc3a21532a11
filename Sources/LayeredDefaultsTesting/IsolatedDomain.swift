import Foundation
import LayeredDefaults

/// One throwaway domain of an isolated scope: its suite name and where it lives, and how to remove what
/// it created.
struct IsolatedDomain {
    let suiteName: String
    /// The directory of the domain's files; nil for a domain in memory.
    let root: URL?
    /// True when the root is a fresh directory made for this domain alone (removed whole afterwards).
    let ownsRoot: Bool

    /// Makes a fresh suite name, and a fresh temporary root for ``IsolatedDefaults/Storage/temporaryDirectory``.
    /// - Throws: `DefaultsError.invalidSuiteName` when `prefix` makes an invalid suite name (nothing is
    ///   created then), or an error creating the directory.
    init(_ storage: IsolatedDefaults.Storage, prefix: String) throws {
        suiteName = try IsolatedDefaults.makeSuiteName(prefix: prefix)
        switch storage {
        case .temporaryDirectory:
            let fresh = FileManager.default.temporaryDirectory
                .appendingPathComponent("LayeredDefaultsTesting-root-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(
                at: fresh, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            root = fresh
            ownsRoot = true
        case .inMemory:
            root = nil
            ownsRoot = false
        case .directory(let given):
            root = given
            ownsRoot = false
        }
    }

    /// Opens the domain and runs `body` with it, as `Defaults.standard` too, its reported errors collected
    /// (``IsolatedDefaults/reportedErrors``). The store is released when this returns, so its connection
    /// is closed (unless `body` kept the store) before the files are removed.
    func run<T>(arguments: [String], printingErrors: Bool, _ body: (Defaults, String) throws -> T) throws -> T {
        let scope = try IsolatedScope(
            suiteName: suiteName, location: location, createsRoot: !ownsRoot, arguments: arguments,
            printingErrors: printingErrors)
        return try scope.run { try body($0, suiteName) }
    }

    /// The asynchronous form of ``run(arguments:printingErrors:_:)``.
    func run<T>(
        arguments: [String], printingErrors: Bool, isolation: isolated (any Actor)?,
        _ body: (Defaults, String) async throws -> T
    ) async throws -> T {
        let scope = try IsolatedScope(
            suiteName: suiteName, location: location, createsRoot: !ownsRoot, arguments: arguments,
            printingErrors: printingErrors)
        return try await scope.run(isolation: isolation) { try await body($0, suiteName) }
    }

    /// Where the store keeps its domains. A root of its own is never made again by the store: one the
    /// test kept past its scope makes nothing in `$TMPDIR` (reads create nothing, a write fails).
    private var location: Location { root.map { .directory($0) } ?? .inMemory }

    /// Removes what this domain created: the whole root when it made the root, else only the domain's
    /// own files (`<suite>.sqlite3` and its `-wal`, `-shm` and `-journal` files), through
    /// `Defaults.Domain.delete()`; nothing in memory.
    ///
    /// A domain whose store the test kept past its scope, or that another process still has open, keeps its
    /// files in the given directory: deleting them would leave that store reading and writing files that
    /// are gone. `LeftoverDomains` finds them later, by the suite-name prefix.
    func remove() {
        guard let root else { return }
        if ownsRoot {
            // NB: a store released a moment later on another thread closes and deletes its -wal and -shm
            // while removeItem walks the directory, which makes removeItem give up half-way; what is left
            // then is removed by the next attempt.
            for _ in 0..<5 where FileManager.default.fileExists(atPath: root.path) {
                try? FileManager.default.removeItem(at: root)
            }
            return
        }
        _ = try? Defaults.Domain(suiteName, location: location, systemDirectories: []).delete()
    }
}
