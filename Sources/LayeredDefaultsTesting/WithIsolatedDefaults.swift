import LayeredDefaults

/// Runs `body` with a store of a fresh, randomly named domain, kept where `storage` says, and removes
/// that domain afterwards, even when `body` throws.
///
/// The suite name is `prefix` followed by a UUID. By default the domain lives in a fresh temporary
/// directory of its own (so even the global domain is private to the test), removed whole afterwards;
/// ``IsolatedDefaults/Storage/inMemory`` touches no file, and ``IsolatedDefaults/Storage/directory(_:)``
/// removes only the domain's own files from the given directory.
///
/// ```swift
/// @Test func savingTheTheme() throws {
///     try withIsolatedDefaults { defaults, suiteName in
///         try ThemePreferences(defaults: defaults).save(.dark)
///         #expect(try defaults.persistentValues() == ["theme": "dark"])
///     }
///     try withIsolatedDefaults(.inMemory) { defaults, _ in
///         try defaults.write("dark", forKey: "theme")
///         #expect(try defaults.persistentValue(forKey: "theme") == "dark")
///     }
/// }
/// ```
///
/// Inside `body` (on its task and the child tasks it starts), `Defaults.standard` is that store, so code
/// that reaches for `standard` (or a default argument `defaults: Defaults = .standard`) uses it too, and
/// a store of the default location lives in its location. This is the base-class-free helper for
/// XCTest: outside it, using `Defaults.standard` or `Location.default` in a test fails the test.
///
/// The errors the store reports to its error handler are collected, not printed (unless
/// `printingErrors`): check them with ``IsolatedDefaults/reportedErrors``.
///
/// Do not keep the store after `body` returns: its domain is gone.
/// - Parameters:
///   - storage: where the domain lives. The default is a fresh temporary directory.
///   - prefix: the start of the suite name. The default is ``IsolatedDefaults/suiteNamePrefix``.
///   - arguments: the launch arguments of the store's argument domain. The default is none (never the
///     test runner's own `CommandLine.arguments`).
///   - printingErrors: also write each error the store reports to standard error. The default is false.
///   - body: receives the store and its suite name.
/// - Returns: what `body` returns.
/// - Throws: what `body` throws; `DefaultsError.invalidSuiteName` when `prefix` makes an invalid suite
///   name (before anything is created); or an error creating the directory or opening the store.
public func withIsolatedDefaults<T>(
    _ storage: IsolatedDefaults.Storage = .temporaryDirectory, prefix: String = IsolatedDefaults.suiteNamePrefix,
    arguments: [String] = [], printingErrors: Bool = false, _ body: (_ defaults: Defaults, _ suiteName: String) throws -> T
) throws -> T {
    let domain = try IsolatedDomain(storage, prefix: prefix)
    defer { domain.remove() }
    return try domain.run(arguments: arguments, printingErrors: printingErrors, body)
}

/// Runs the asynchronous `body` with a store of a fresh, randomly named domain, kept where `storage`
/// says, and removes that domain afterwards, even when `body` throws (see
/// ``withIsolatedDefaults(_:prefix:arguments:printingErrors:_:)``).
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
///   - storage: where the domain lives. The default is a fresh temporary directory.
///   - prefix: the start of the suite name. The default is ``IsolatedDefaults/suiteNamePrefix``.
///   - arguments: the launch arguments of the store's argument domain. The default is none.
///   - printingErrors: also write each error the store reports to standard error. The default is false.
///   - isolation: the caller's actor; `body` runs on it.
///   - body: receives the store and its suite name.
/// - Returns: what `body` returns.
/// - Throws: what `body` throws; `DefaultsError.invalidSuiteName` when `prefix` makes an invalid suite
///   name (before anything is created); or an error creating the directory or opening the store.
public func withIsolatedDefaults<T>(
    _ storage: IsolatedDefaults.Storage = .temporaryDirectory, prefix: String = IsolatedDefaults.suiteNamePrefix,
    arguments: [String] = [], printingErrors: Bool = false, isolation: isolated (any Actor)? = #isolation,
    _ body: (_ defaults: Defaults, _ suiteName: String) async throws -> T
) async throws -> T {
    let domain = try IsolatedDomain(storage, prefix: prefix)
    defer { domain.remove() }
    return try await domain.run(arguments: arguments, printingErrors: printingErrors, isolation: isolation, body)
}
