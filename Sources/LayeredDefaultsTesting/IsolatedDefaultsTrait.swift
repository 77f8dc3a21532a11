import LayeredDefaults
import Testing

/// A Swift Testing trait that runs each test with a fresh isolated store, which is `Defaults.standard`
/// inside the test. Write it `.isolatedDefaults`.
///
/// ```swift
/// @Test(.isolatedDefaults) func savingTheTheme() throws {
///     try ThemePreferences().save(.dark)   // the default argument is `Defaults.standard`: this test's store
///     #expect(try Defaults.standard.persistentValue(forKey: "theme") == "dark")
/// }
///
/// @Suite(.isolatedDefaults(.inMemory, arguments: ["-fontSize", "20"]))
/// struct SettingsTests { ... }  // every test (and every case of a parameterized test) gets its own
/// ```
///
/// Each test case gets a store of a fresh domain, named ``IsolatedDefaults/suiteNamePrefix`` followed by a
/// UUID, kept where its ``IsolatedDefaults/Storage`` says, set up like
/// ``withIsolatedDefaults(_:prefix:arguments:printingErrors:_:)`` and removed afterwards, even when the
/// test throws. The argument domain is empty unless `arguments` are given. `Defaults.standard` is that
/// store through a task-local value: on the test's task and the child tasks it starts (`async let`, task
/// groups, `Task { }`), not on a detached task or another thread (there, as outside any scope, it is a
/// throwaway in-memory store, and using it fails the test). A store of the default location lives in the
/// test's location too. Tests running in parallel each see their own. The errors the store reports are
/// collected for ``IsolatedDefaults/reportedErrors``, not printed.
public struct IsolatedDefaultsTrait: TestTrait, SuiteTrait, TestScoping {
    /// Where the test's store keeps its domain.
    public let storage: IsolatedDefaults.Storage
    /// The launch arguments of the store's argument domain; empty unless given.
    public let arguments: [String]
    /// Whether the errors the store reports are also written to standard error; they are collected
    /// for ``IsolatedDefaults/reportedErrors`` either way.
    public let printsErrors: Bool

    /// A suite's trait applies to each of its tests, each with a store of its own.
    public var isRecursive: Bool { true }

    /// Runs `function` with a fresh isolated store as `Defaults.standard`, then removes the store.
    /// - Parameters:
    ///   - test: the test (or suite) being run.
    ///   - testCase: the test case being run, or nil for a suite.
    ///   - function: the test.
    /// - Throws: what the test throws, or an error creating or opening the store.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withIsolatedDefaults(storage, arguments: arguments, printingErrors: printsErrors) { _, _ in
            try await function()
        }
    }
}

extension Trait where Self == IsolatedDefaultsTrait {
    /// Each test runs with a fresh store in a temporary directory, removed afterwards, as
    /// `Defaults.standard`; its argument domain is empty.
    public static var isolatedDefaults: Self {
        isolatedDefaults(.temporaryDirectory)
    }

    /// Each test runs with a fresh store, kept where `storage` says and removed afterwards, as
    /// `Defaults.standard`.
    /// - Parameters:
    ///   - storage: where each test's domain lives: a temporary directory of its own (the default), memory
    ///     only, or a given directory (only the domain's files are removed).
    ///   - arguments: the launch arguments of the argument domain, e.g. `["-fontSize", "20"]`; none by default.
    ///   - printingErrors: also write each error the store reports to standard error; by default they
    ///     are only collected, for ``IsolatedDefaults/reportedErrors``.
    public static func isolatedDefaults(
        _ storage: IsolatedDefaults.Storage = .temporaryDirectory, arguments: [String] = [], printingErrors: Bool = false
    ) -> Self {
        IsolatedDefaultsTrait(storage: storage, arguments: arguments, printsErrors: printingErrors)
    }
}
