extension Defaults {
    /// The store of the running app: its persistent domain is `LAYERED_DEFAULTS_APP_ID` when set, else
    /// the bundle identifier, else the process name, with the default ``Configuration``.
    ///
    /// If that domain cannot be opened (e.g. its file is corrupt), the error goes to standard error,
    /// reads find nothing in it, and every write fails with that error: nothing is silently dropped.
    ///
    /// In a test process that links `LayeredDefaultsTesting`: inside `@Test(.isolatedDefaults)`,
    /// `withIsolatedDefaults`, this is that scope's own store; outside them it
    /// is a throwaway in-memory store, and using it while a test runs fails that test, so a test never
    /// reads or writes the user's real preferences (see the `LayeredDefaultsTesting` documentation).
    public static var standard: Defaults {
        // The hot path of an app that reaches for `standard` on every read: one atomic load (no guard
        // in an app) before the shared store.
        if let replacement = standardGuard.value?() { return replacement }
        return live
    }

    /// The real ``standard`` store, opened on first use.
    private static let live: Defaults = {
        let name = SuiteName.applicationIdentifier()
        let configuration = Configuration()
        do {
            return try Defaults(suiteName: name, configuration: configuration)
        } catch {
            let failure = DefaultsError.wrapping(error, suite: name)
            configuration.errorHandler(failure)
            return Defaults(
                suiteName: name, configuration: configuration, registry: configuration.storeRegistry(),
                persistent: DomainSlot(.inMemory(name: name, unavailable: failure)), suites: [])
        }
    }()

    // MARK: Test support hooks

    // `package`, not public: the hooks are for `LayeredDefaultsTesting` (a target of this package), so
    // an app cannot swap its own `standard` store, and the public API has no test-only members.

    /// Consulted by ``standard``, once installed: returns the store to use instead of the real one (a
    /// test scope's own store; outside one, a throwaway after reporting the use to the running test), or
    /// nil to use the real one.
    private static let standardGuard = InstalledHook<@Sendable () -> Defaults?>()

    /// Installs `guard`, which ``standard`` consults before opening the real store: it returns a
    /// replacement, or nil for the real store. A later call replaces it.
    package static func installStandardGuard(_ guard: @escaping @Sendable () -> Defaults?) {
        standardGuard.install(`guard`)
    }
}
