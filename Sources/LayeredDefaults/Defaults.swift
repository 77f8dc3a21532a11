import Foundation
import Synchronization

/// A preferences store in the spirit of Foundation's `UserDefaults`, persisting each domain in its own
/// SQLite file.
///
/// A read searches, first match wins: the managed domain (an administrator's forced values, under
/// ``Configuration/systemDirectories``), the argument domain (`-key value` launch arguments), this
/// instance's persistent domain (its suite name), the suites of its ``Configuration/suites`` (in order,
/// after any added later through `LayeredDefaultsCompatibility`'s `addSuite(named:)`), the global domain (``globalDomain``), the
/// system domain (under ``Configuration/systemDirectories``), and the registration domain (``register(_:)``,
/// never persisted). See <doc:SearchOrder>. Writes go to the persistent domain and have committed when
/// they return.
///
/// ```swift
/// let defaults = try Defaults(suiteName: "com.example.notes")
/// defaults.register(["fontSize": 12])
/// try defaults.write(14, forKey: "fontSize")
/// try defaults.value(forKey: "fontSize")  // 14, also in the next process
/// ```
///
/// Methods that can fail throw; the subscript of typed keys never throws and sends its errors to
/// ``Configuration/errorHandler``, as the `UserDefaults`-shaped methods of `LayeredDefaultsCompatibility`
/// do (see <doc:MigratingFromUserDefaults>).
///
/// `Defaults` is `Sendable`: use one instance from any thread. Instances of the same suite and location
/// in one process share one connection and one in-memory view, so each sees the other's writes at once.
///
/// Keys are compared as Swift compares strings: the same text in two Unicode forms ("é" as one scalar,
/// or "e" followed by a combining accent) is one key, in this process, in the file and in the next
/// process. A domain's file stores each key in Normalization Form C. A file written by an earlier
/// version may hold a key in another form, or one key in two rows: either form finds it, the row in
/// NFC wins, reading never changes the file, and removing the key removes every row of it.
public final class Defaults: Sendable {
    /// The name of the global domain, shared by every app of the user and searched after the suites.
    public static let globalDomain = "NSGlobalDomain"

    /// The name of this instance's persistent domain.
    public let suiteName: String
    /// How this instance was set up.
    public let configuration: Configuration

    let registry: StoreRegistry
    let persistent: DomainStore
    let state: Lock<SearchState>
    /// Whether the argument domain (``SearchState/arguments``) holds any key; stored while holding
    /// `state` whenever the arguments change, so a hot read skips that lock when there are none.
    let hasArguments: Atomic<Bool>
    /// Counts the changes made through this instance; incremented after each (see ``postChange()``), so a
    /// reader that loaded it before a search, or an observer, knows whether anything changed since.
    let changeGeneration = Atomic<Int>(0)
    /// What searches found past the persistent domain (see ``FallThroughCache``).
    let fallThrough = Lock(FallThroughCache())
    /// The managed domain: this suite's files under ``Configuration/systemDirectories`` that existed
    /// when the instance was created, in search order; empty (the common case) when there are none.
    let managed: [DomainStore]
    /// Why a managed file that exists could not be opened, if one could not: every write then fails.
    let managedFailure: DefaultsError?
    /// Held by the one thread that opens the global domain (see ``withSearchList(_:)``).
    let globalOpening = Lock(())
    /// The typed keys whose value did not convert and was reported (see ``typedValue(_:for:)``).
    let mismatchesReported = Lock<Set<String>>([])

    /// The volatile parts of the search list, and the stores it searches.
    struct SearchState {
        var arguments: [String: PreferenceValue]
        var registration: [String: PreferenceValue] = [:]
        /// Volatile domains set by name (`setVolatileDomain(_:forName:)`): kept, never searched.
        var volatileDomains: [String: [String: PreferenceValue]] = [:]
        /// Searched suites, in search order.
        var suites: [DomainStore] = []
        /// The global domain, opened by the first call that searches past the persistent domain (see
        /// ``Defaults/withSearchList(_:)``): nil until then.
        var global: DomainStore?
        /// The system domain: this suite's files under ``Configuration/systemDirectories``, in search order.
        var system: [DomainStore] = []
        /// The persistent stores in search order: this domain, the suites, the global domain (once opened),
        /// the system domain.
        var stores: [DomainStore] = []

        mutating func rebuildStores(persistent: DomainStore) {
            var seen = Set<ObjectIdentifier>()
            stores = ([persistent] + suites + (global.map { [$0] } ?? []) + system).filter {
                seen.insert(ObjectIdentifier($0)).inserted
            }
        }
    }

    /// Opens the persistent domain `suiteName`, set up by `configuration`.
    ///
    /// The domain's file is `<root>/<suiteName>.sqlite3`, created (mode 0600, its directory 0700) when
    /// missing. Nothing is written to an existing file that is not one of ours.
    /// - Parameters:
    ///   - suiteName: the persistent domain: 1-128 letters, digits, `.`, `-` or `_`.
    ///   - configuration: where domains live, the launch arguments, the searched suites, the busy
    ///     timeout and the error handler.
    /// - Throws: ``DefaultsError/invalidSuiteName(_:)`` (nothing touched), ``DefaultsError/corruptStore(path:reason:)``,
    ///   ``DefaultsError/foreignDatabase(path:)``, ``DefaultsError/unsupportedSchemaVersion(path:found:supported:)``,
    ///   ``DefaultsError/unsafePath(path:)``, or a storage error, for this domain or one of the suites.
    public convenience init(suiteName: String, configuration: Configuration = Configuration()) throws {
        let registry = StoreRegistry(configuration: configuration)
        let persistent = try registry.store(named: suiteName)!
        let suites = try configuration.suites.map { try registry.store(named: $0)! }
        self.init(suiteName: suiteName, configuration: configuration, registry: registry, persistent: persistent, suites: suites)
    }

    init(suiteName: String, configuration: Configuration, registry: StoreRegistry, persistent: DomainStore, suites: [DomainStore])
    {
        self.suiteName = suiteName
        self.configuration = configuration
        self.registry = registry
        self.persistent = persistent
        let layers = Self.systemLayers(of: suiteName, configuration: configuration, excluding: persistent)
        var state = SearchState(
            arguments: ArgumentDomain.parse(configuration.arguments), suites: suites, system: layers.system)
        self.managed = layers.managed
        self.managedFailure = layers.managedFailure
        state.rebuildStores(persistent: persistent)
        self.hasArguments = Atomic(!state.arguments.isEmpty)
        self.state = Lock(state)
    }

    /// What `body` reads from the search state, under its lock, once the search list is complete: the
    /// first call opens the global domain (an instance whose reads all find their key in its own domain
    /// never pays for it). A global domain that cannot be opened is reported to the error handler once
    /// and searched as an empty domain that refuses writes.
    func withSearchList<T>(_ body: (SearchState) -> T) -> T {
        if let result = state.withLock({ $0.global == nil ? nil : body($0) }) { return result }
        openGlobalDomain()
        return state.withLock { body($0) }
    }

    /// Puts the global domain in the search list, unless it is already: the one thread that does opens
    /// it, holding ``globalOpening`` (others wait for it), and never holds ``state`` while opening.
    ///
    /// NB: a failure is reported once the global domain is in place and no lock is held: an error handler
    /// that reads this instance (a logger asking a "verbose" key) must not wait for its own caller.
    private func openGlobalDomain() {
        let failure: DefaultsError? = globalOpening.withLock { _ in
            guard state.withLock({ $0.global == nil }) else { return nil }
            let global: DomainStore
            var failure: DefaultsError?
            do {
                global = try registry.store(named: Self.globalDomain)!
            } catch {
                failure = DefaultsError.wrapping(error, suite: Self.globalDomain)
                global = .inMemory(name: Self.globalDomain, unavailable: failure)
            }
            state.withLock { state in
                state.global = global
                state.rebuildStores(persistent: persistent)
            }
            return failure
        }
        if let failure { configuration.errorHandler(failure) }
    }

    /// The name of the notification ``Configuration/postsChangeNotifications`` posts:
    /// `Defaults.didChangeNotification` of `LayeredDefaultsCompatibility`.
    package static let changeNotificationName = Notification.Name("LayeredDefaultsDidChangeNotification")

    // MARK: Errors

    /// Sends `error` to the configuration's error handler.
    package func report(_ error: any Error) {
        configuration.errorHandler(DefaultsError.wrapping(error, suite: suiteName))
    }

    /// Runs `body`, sending what it throws to the error handler: the non-throwing calls' one error policy.
    package func reportingErrors<T>(_ body: () throws -> T?) -> T? {
        do {
            return try body()
        } catch {
            report(error)
            return nil
        }
    }

    /// After a change that may alter any key's value: a registration, a suite, a whole domain.
    func postChange() { postChange(changedKeys: nil as [String]?) }

    /// After a change of `changedKeys` (nil: of any key), so observers of other keys are not evaluated.
    func postChange<Keys: Sequence<String>>(changedKeys: Keys?) {
        changeGeneration.add(1, ordering: .releasing)
        if configuration.postsChangeNotifications {
            NotificationCenter.default.post(name: Self.changeNotificationName, object: self)
        }
        ObservationCenter.shared.changed(keys: changedKeys)
    }

    // MARK: Reading

    /// The value of `key` found by the search list (managed domain, argument domain, persistent domain,
    /// suites, global domain, system domain, registration domain), or nil when no domain holds it.
    ///
    /// Called from inside the body of a ``transaction(_:)`` on this domain, it sees that transaction's
    /// changes (the body runs on the calling thread, which holds the domain's write lock); a key the
    /// domain does not hold is searched for in the other domains, and the first one that can be written
    /// (a suite, the global domain) throws ``DefaultsError/otherSuiteInTransaction(suite:transactionSuite:)``.
    /// - Throws: ``DefaultsError`` when a domain that must be searched cannot be read.
    public func value(forKey key: String) throws -> PreferenceValue? {
        try search(key) { throw $0 }
    }

    /// The value stored for `key` in this instance's persistent domain only, or nil when it holds none.
    ///
    /// Tells "never set" from a stored `false` or `0`: registered defaults, arguments and other domains
    /// are not consulted.
    /// - Throws: ``DefaultsError`` when the domain cannot be read.
    public func persistentValue(forKey key: String) throws -> PreferenceValue? {
        try read(key, in: persistent) { throw $0 }
    }

    /// The search for `key`; `failed` decides what a domain that cannot be read does: throw (the
    /// throwing API), or report it and search on (the API that does not throw).
    func search(_ key: String, failed: (any Error) throws -> Void) rethrows -> PreferenceValue? {
        // NB: the hot path. A key of the persistent domain costs one lock, the store's (the argument domain
        // costs one more only when it holds keys, the managed domain only when it exists); the search list
        // is copied only on a miss.
        if !managed.isEmpty, let forced = try managedValue(key, failed: failed) { return forced }
        if hasArguments.load(ordering: .acquiring), let forced = state.withLock({ $0.arguments[key] }) { return forced }
        if let value = try read(key, in: persistent, failed: failed) { return value }
        let generation = changeGeneration.load(ordering: .acquiring)
        // NB: not from inside a transaction's body: there, the search must reach the stores, so that what a
        // body may read does not depend on what is remembered (another writable store refuses it).
        if !StoreLock.isAnyHeldByCurrentThread,
            let known = fallThrough.withLock({ $0.value(forKey: key, generation: generation) })
        {
            return known
        }
        let (stores, system, registered) = withSearchList { state in (state.stores, state.system, state.registration[key]) }
        let basis = FallThroughCache.Basis(generation: generation, stores: stores.dropFirst().map { ($0, $0.fingerprint) })
        var found = registered
        var complete = true
        for store in stores.dropFirst() {
            let isSystem = !system.isEmpty && system.contains { $0 === store }
            if let value = try read(key, in: store, asReadOnlyLayer: isSystem, failed: failed, skipped: { complete = false }) {
                found = value
                break
            }
        }
        // NB: a search that skipped a domain it could not read, or read an undecodable row, is not
        // remembered: the next read tries (and reports) again.
        if complete { fallThrough.withLock { $0.remember(found, forKey: key, basis: basis) } }
        return found
    }

    /// The value of `key` in `store`. A row that cannot be decoded reads as missing and is reported
    /// (it is left untouched); any other failure goes to `failed`. Either way `skipped` runs first.
    /// `asReadOnlyLayer` (the managed and system domains): from inside a transaction's body, read
    /// without waiting instead of refused (see ``DomainStore/FromAnotherTransaction``).
    func read(
        _ key: String, in store: DomainStore, asReadOnlyLayer: Bool = false, failed: (any Error) throws -> Void,
        skipped: () -> Void = {}
    ) rethrows -> PreferenceValue? {
        do {
            return try store.value(forKey: key, fromAnotherTransaction: asReadOnlyLayer ? .answeredWithoutWaiting : .refused)
        } catch let error as DefaultsError where error.isUndecodableValue {
            skipped()
            report(error)
        } catch {
            skipped()
            try failed(error)
        }
        return nil
    }

    /// The value of `key` found by the search list; a domain that cannot be read is reported and skipped.
    package func lookup(_ key: String) -> PreferenceValue? {
        search(key, failed: report)
    }
}
