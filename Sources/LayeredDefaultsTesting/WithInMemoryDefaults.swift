import LayeredDefaults

/// Runs `body` with a private in-memory store (`Location.inMemory`) of a fresh, randomly named domain:
/// nothing touches the disk, and everything is gone when the store is released. Inside `body` (on its
/// task and the child tasks it starts), `Defaults.standard` is that store, and a store of the default
/// location is in memory too. The errors the store reports are collected, not printed (unless
/// `printingErrors`): check them with ``IsolatedDefaults/reportedErrors``.
///
/// ```swift
/// @Test func resetRemovesTheKey() throws {
///     try withInMemoryDefaults { defaults, _ in
///         try defaults.write("dark", forKey: "theme")
///         try defaults.write(nil, forKey: "theme")
///         #expect(try defaults.persistentValues().isEmpty)
///     }
/// }
/// ```
/// - Parameters:
///   - prefix: the start of the suite name. The default is ``IsolatedDefaults/suiteNamePrefix``.
///   - arguments: the launch arguments of the store's argument domain. The default is none.
///   - printingErrors: also write each error the store reports to standard error. The default is false.
///   - body: receives the store and its suite name.
/// - Returns: what `body` returns.
/// - Throws: what `body` throws, or `DefaultsError.invalidSuiteName` when `prefix` makes an invalid name.
public func withInMemoryDefaults<T>(
    prefix: String = IsolatedDefaults.suiteNamePrefix, arguments: [String] = [], printingErrors: Bool = false,
    _ body: (_ defaults: Defaults, _ suiteName: String) throws -> T
) throws -> T {
    let suiteName = try IsolatedDefaults.makeSuiteName(prefix: prefix)
    let scope = try IsolatedScope(suiteName: suiteName, location: .inMemory, arguments: arguments, printingErrors: printingErrors)
    return try scope.run { try body($0, suiteName) }
}

/// Runs the asynchronous `body` with a private in-memory store of a fresh, randomly named domain (see
/// ``withInMemoryDefaults(prefix:arguments:printingErrors:_:)``).
///
/// ```swift
/// try await withInMemoryDefaults { defaults, _ in
///     try await SettingsModel(defaults: defaults).chooseDark()
/// }
/// ```
/// - Parameters:
///   - prefix: the start of the suite name. The default is ``IsolatedDefaults/suiteNamePrefix``.
///   - arguments: the launch arguments of the store's argument domain. The default is none.
///   - printingErrors: also write each error the store reports to standard error. The default is false.
///   - isolation: the caller's actor; `body` runs on it.
///   - body: receives the store and its suite name.
/// - Returns: what `body` returns.
/// - Throws: what `body` throws, or `DefaultsError.invalidSuiteName` when `prefix` makes an invalid name.
public func withInMemoryDefaults<T>(
    prefix: String = IsolatedDefaults.suiteNamePrefix, arguments: [String] = [], printingErrors: Bool = false,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (_ defaults: Defaults, _ suiteName: String) async throws -> T
) async throws -> T {
    let suiteName = try IsolatedDefaults.makeSuiteName(prefix: prefix)
    let scope = try IsolatedScope(suiteName: suiteName, location: .inMemory, arguments: arguments, printingErrors: printingErrors)
    return try await scope.run(isolation: isolation) { try await body($0, suiteName) }
}
