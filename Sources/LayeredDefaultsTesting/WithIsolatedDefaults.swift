import Foundation
import LayeredDefaults

/// Runs `body` with a store of a fresh, randomly named persistent domain on disk, and removes that
/// domain afterwards, even when `body` throws.
///
/// The suite name is `prefix` followed by a UUID. Without `root`, the domain lives in a fresh
/// temporary directory of its own (so even the global domain is private to the test), and the whole
/// directory is removed afterwards. With `root`, only the domain's own files are removed
/// (`<suite>.sqlite3` and its `-wal`, `-shm` and `-journal` files): other domains and files in that
/// directory, including the shared global domain `NSGlobalDomain.sqlite3` (created by the first read
/// that searches past a domain), are left alone.
///
/// ```swift
/// @Test func savingTheTheme() throws {
///     try withIsolatedDefaults { defaults, suiteName in
///         try ThemePreferences(defaults: defaults).save(.dark)
///         #expect(try defaults.persistentValues() == ["theme": "dark"])
///     }
/// }
/// ```
///
/// Inside `body` (on its task and the child tasks it starts), `Defaults.standard` is that store, so code
/// that reaches for `standard` (or a default argument `defaults: Defaults = .standard`) uses it too, and
/// a store of the default location lives in its directory. This is the base-class-free helper for
/// XCTest: outside it, using `Defaults.standard` or `Location.default` in a test fails the test.
///
/// The errors the store reports to its error handler are collected, not printed (unless
/// `printingErrors`): check them with ``IsolatedDefaults/reportedErrors``.
///
/// Do not keep the store after `body` returns: its files are gone.
/// - Parameters:
///   - root: the directory to create the domain in; the default is a fresh temporary directory.
///   - prefix: the start of the suite name. The default is ``IsolatedDefaults/suiteNamePrefix``.
///   - arguments: the launch arguments of the store's argument domain. The default is none (never the
///     test runner's own `CommandLine.arguments`).
///   - printingErrors: also write each error the store reports to standard error. The default is false.
///   - body: receives the store and its suite name.
/// - Returns: what `body` returns.
/// - Throws: what `body` throws; `DefaultsError.invalidSuiteName` when `prefix` makes an invalid suite
///   name; or an error creating the directory or opening the store.
public func withIsolatedDefaults<T>(
    in root: URL? = nil, prefix: String = IsolatedDefaults.suiteNamePrefix, arguments: [String] = [],
    printingErrors: Bool = false, _ body: (_ defaults: Defaults, _ suiteName: String) throws -> T
) throws -> T {
    let domain = try IsolatedDomain(prefix: prefix, root: root)
    defer { domain.remove() }
    return try domain.run(arguments: arguments, printingErrors: printingErrors, body)
}

/// Runs the asynchronous `body` with a store of a fresh, randomly named persistent domain on disk, and
/// removes that domain afterwards, even when `body` throws (see
/// ``withIsolatedDefaults(in:prefix:arguments:printingErrors:_:)``).
///
/// ```swift
/// @Test func savingTheThemeFromTheModel() async throws {
///     try await withIsolatedDefaults { defaults, _ in
///         let model = await SettingsModel(defaults: defaults)
///         try await model.chooseDark()
///         #expect(try defaults.value(forKey: "theme") == "dark")
///     }
/// }
/// ```
/// - Parameters:
///   - root: the directory to create the domain in; the default is a fresh temporary directory.
///   - prefix: the start of the suite name. The default is ``IsolatedDefaults/suiteNamePrefix``.
///   - arguments: the launch arguments of the store's argument domain. The default is none.
///   - printingErrors: also write each error the store reports to standard error. The default is false.
///   - isolation: the caller's actor; `body` runs on it.
///   - body: receives the store and its suite name.
/// - Returns: what `body` returns.
/// - Throws: what `body` throws; `DefaultsError.invalidSuiteName` when `prefix` makes an invalid suite
///   name; or an error creating the directory or opening the store.
public func withIsolatedDefaults<T>(
    in root: URL? = nil, prefix: String = IsolatedDefaults.suiteNamePrefix, arguments: [String] = [],
    printingErrors: Bool = false, isolation: isolated (any Actor)? = #isolation,
    _ body: (_ defaults: Defaults, _ suiteName: String) async throws -> T
) async throws -> T {
    let domain = try IsolatedDomain(prefix: prefix, root: root)
    defer { domain.remove() }
    return try await domain.run(arguments: arguments, printingErrors: printingErrors, isolation: isolation, body)
}
