import LayeredDefaults

/// The guard on `Defaults.standard` in a test process: outside an isolated scope, `standard` is never the
/// real store but a throwaway in-memory one, and using it fails the running test (``ForgottenScope``).
///
/// It is installed when the process loads (by the C target `LayeredDefaultsTestingLoader`, see
/// ``installTestProcessGuards()``), so every test process that links `LayeredDefaultsTesting` is guarded,
/// even a test that never calls it. A test process that does not link this library is not guarded.
enum StandardGuard {
    /// The store `Defaults.standard` is: inside an isolated scope (``IsolatedScope/current``, a task-local
    /// value) the scope's own store; outside one a fresh in-memory store, after reporting the use.
    @Sendable static func replacement() -> Defaults? {
        if let scope = IsolatedScope.current { return scope.defaults }
        ForgottenScope.report(.standard)
        // NB: a fresh domain each time, of no file: the write goes nowhere the user or the next test sees.
        do {
            return try Defaults(
                suiteName: IsolatedDefaults.makeSuiteName(prefix: IsolatedDefaults.suiteNamePrefix),
                configuration: .init(location: .inMemory, arguments: [], systemDirectories: []))
        } catch {
            // NB: nil would mean the real store; an in-memory store of a valid name cannot fail to open.
            fatalError("LayeredDefaultsTesting could not open an in-memory store in place of Defaults.standard: \(error)")
        }
    }
}
