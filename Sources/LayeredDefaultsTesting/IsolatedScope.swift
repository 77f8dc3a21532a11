import LayeredDefaults

/// One isolated scope (`.isolatedDefaults`, `withIsolatedDefaults`): its store, which is `Defaults.standard`
/// inside it, and the errors that store reported to its error handler.
struct IsolatedScope: Sendable {
    /// The scope bound on the calling task, if any.
    @TaskLocal static var current: IsolatedScope?

    /// The scope's store.
    let defaults: Defaults
    /// What the store reported.
    let errors: ReportedErrorLog

    /// Opens the scope's store of `suiteName` at `location`, its errors collected (and printed only
    /// when `printingErrors`).
    /// - Throws: an error opening the store.
    init(suiteName: String, location: Location, createsRoot: Bool, arguments: [String], printingErrors: Bool) throws {
        let errors = ReportedErrorLog(printing: printingErrors)
        self.errors = errors
        var configuration = Defaults.Configuration(
            location: location, arguments: arguments, systemDirectories: [], errorHandler: errors.record)
        configuration.createsRoot = createsRoot
        defaults = try Defaults(suiteName: suiteName, configuration: configuration)
    }

    /// Runs `body` with this scope bound: as `Defaults.standard`, and as ``current``.
    func run<T>(_ body: (Defaults) throws -> T) rethrows -> T {
        try Self.$current.withValue(self) { try body(defaults) }
    }

    /// The asynchronous form of ``run(_:)``.
    func run<T>(isolation: isolated (any Actor)?, _ body: (Defaults) async throws -> T) async rethrows -> T {
        try await Self.$current.withValue(self, operation: { try await body(defaults) }, isolation: isolation)
    }
}

/// The errors an isolated scope's store reported to its error handler, oldest first, and those of every
/// other store that reported one, with the default handler, on the scope's task or a child task of it.
final class ReportedErrorLog: Sendable {
    private let collected = Lock<[DefaultsError]>([])
    /// Whether each error is also written to standard error, as a store does by default.
    let printing: Bool

    init(printing: Bool) { self.printing = printing }

    /// Every error reported so far, oldest first.
    var all: [DefaultsError] { collected.withLock { $0 } }

    /// The scope's store's error handler.
    @Sendable func record(_ error: DefaultsError) {
        collected.withLock { $0.append(error) }
        if printing { Defaults.writeToStandardError(error) }
    }
}

extension IsolatedDefaults {
    /// The errors the store of the current isolated scope (`.isolatedDefaults`, `withIsolatedDefaults`)
    /// reported to its error handler so far, oldest first: what its calls that do not throw (typed-key
    /// subscripts, the `UserDefaults`-shaped methods) ran into. Any other store whose error handler is
    /// the default (`Defaults.reportToStandardError`), e.g. one opened with a schema of its own, reports
    /// here too while it is used on the scope's task or a child task of it. They are not printed unless the scope was
    /// asked to (`printingErrors: true`).
    ///
    /// ```swift
    /// @Test(.isolatedDefaults) func aStoredValueOfAnotherTypeReadsAsTheDefault() throws {
    ///     try Defaults.standard.write("wide", forKey: "tabWidth")
    ///     #expect(Defaults.standard[.tabWidth] == 4)
    ///     #expect(IsolatedDefaults.reportedErrors == [.mismatchedValue(suite: Defaults.standard.suiteName, key: "tabWidth", type: "Int")])
    /// }
    /// ```
    ///
    /// Read on the scope's task or a child task of it. Outside a scope it is empty, and reading it fails
    /// the running test: an expectation about it there could never fail.
    public static var reportedErrors: [DefaultsError] {
        guard let scope = IsolatedScope.current else {
            reportTestFailureAtRunningTest(
                "`IsolatedDefaults.reportedErrors` was read outside an isolated scope; "
                    + "read it inside `.isolatedDefaults` or `withIsolatedDefaults`")
            return []
        }
        return scope.errors.all
    }
}
