import Foundation
import Synchronization

/// A preferences store that reads like Foundation's `UserDefaults`, persisting each domain in its own
/// SQLite file.
///
/// A read searches, first match wins: the argument domain (`-key value` launch arguments), this
/// instance's persistent domain (its suite name), the suites added with ``addSuite(named:)`` (most
/// recent first), the global domain (``globalDomain``), and the registration domain
/// (``register(defaults:)``, never persisted). Writes go to the persistent domain and have committed
/// when they return.
///
/// ```swift
/// let defaults = try Defaults(suiteName: "com.example.app")
/// defaults.register(defaults: ["fontSize": 12])
/// defaults.set(14, forKey: "fontSize")
/// defaults.integer(forKey: "fontSize")  // 14, also in the next process
/// ```
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
    /// The name of the global domain, shared by every app of the user.
    public static let globalDomain = "NSGlobalDomain"
    /// The name of the argument domain (volatile), for ``volatileDomain(forName:)``.
    public static let argumentDomain = "NSArgumentDomain"
    /// The name of the registration domain (volatile), for ``volatileDomain(forName:)``.
    public static let registrationDomain = "NSRegistrationDomain"
    /// Posted (object: the instance) after every change made through an instance: a write, a removal,
    /// a domain replaced or removed, a registration, a volatile domain or suite change.
    public static let didChangeNotification = Notification.Name("LayeredDefaultsDidChangeNotification")

    /// The name of this instance's persistent domain.
    public let suiteName: String
    /// Where this instance's domains live.
    public let location: Location

    let provider: StoreProvider
    let persistent: SuiteStore
    let state: Lock<SearchState>
    /// Whether the argument domain (``SearchState/arguments``) holds any key; stored while holding
    /// `state` whenever the arguments change, so a hot read skips that lock when there are none.
    let hasArguments: Atomic<Bool>

    /// The volatile parts of the search list, and the stores it searches.
    struct SearchState {
        var arguments: [String: PreferenceValue]
        var registration: [String: PreferenceValue] = [:]
        var volatileDomains: [String: [String: PreferenceValue]] = [:]
        /// Added suites, most recently added first.
        var suites: [SuiteStore] = []
        var global: SuiteStore?
        /// The persistent stores in search order: this domain, the suites, the global domain.
        var stores: [SuiteStore] = []
        var errorHandler: @Sendable (DefaultsError) -> Void = Defaults.reportToStandardError
        /// Counts the changes made through this instance, for observers.
        var changeCount = 0

        mutating func rebuildStores(persistent: SuiteStore) {
            stores = [persistent] + suites + (global.map { [$0] } ?? [])
            var seen = Set<ObjectIdentifier>()
            stores = stores.filter { seen.insert(ObjectIdentifier($0)).inserted }
        }
    }

    /// Opens the persistent domain `suiteName` at `location`.
    ///
    /// The domain's file is `<root>/<suiteName>.sqlite3`, created (mode 0600, its directory 0700) when
    /// missing. Nothing is written to an existing file that is not one of ours.
    /// - Parameters:
    ///   - suiteName: the persistent domain: 1-128 letters, digits, `.`, `-` or `_`.
    ///   - location: where domains live; the default reads `LAYERED_DEFAULTS_HOME`, then
    ///     `XDG_CONFIG_HOME`, then uses `~/.config/layered-defaults`.
    ///   - arguments: the launch arguments parsed into the argument domain.
    ///   - busyTimeout: how long a write waits for another process's lock, in seconds. The default is 5.
    /// - Throws: ``DefaultsError/invalidSuiteName(_:)`` (nothing touched), ``DefaultsError/corruptStore(path:reason:)``,
    ///   ``DefaultsError/foreignDatabase(path:)``, ``DefaultsError/unsupportedSchemaVersion(path:found:supported:)``,
    ///   ``DefaultsError/unsafePath(path:)``, or a storage error.
    public convenience init(
        suiteName: String, location: Location = .default, arguments: [String] = CommandLine.arguments,
        busyTimeout: Duration = .seconds(5)
    ) throws {
        let milliseconds = Int32(clamping: busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000)
        let provider = StoreProvider(location: location, busyTimeoutMilliseconds: milliseconds)
        let persistent = try provider.store(named: suiteName)!
        self.init(suiteName: suiteName, location: location, provider: provider, persistent: persistent, arguments: arguments)
    }

    private init(suiteName: String, location: Location, provider: StoreProvider, persistent: SuiteStore, arguments: [String]) {
        self.suiteName = suiteName
        self.location = location
        self.provider = provider
        self.persistent = persistent
        var state = SearchState(arguments: ArgumentDomain.parse(arguments))
        let global: SuiteStore
        do {
            global = try provider.store(named: Self.globalDomain)!
        } catch {
            global = .inMemory(name: Self.globalDomain, unavailable: error as? DefaultsError)
            state.errorHandler(error as? DefaultsError ?? .readOnly(suite: Self.globalDomain, key: nil))
        }
        state.global = global
        state.rebuildStores(persistent: persistent)
        self.hasArguments = Atomic(!state.arguments.isEmpty)
        self.state = Lock(state)
    }

    /// The store of the running app: its persistent domain is `LAYERED_DEFAULTS_APP_ID` when set, else
    /// the bundle identifier, else the process name, at the ``Location/default`` location, with `CommandLine.arguments` as the argument domain.
    ///
    /// If that domain cannot be opened (e.g. its file is corrupt), the error goes to standard error,
    /// reads find nothing in it, and every write fails with that error: nothing is silently dropped.
    public static let standard: Defaults = {
        let name = SuiteName.applicationIdentifier()
        do {
            return try Defaults(suiteName: name)
        } catch {
            let failure = error as? DefaultsError ?? .readOnly(suite: name, key: nil)
            reportToStandardError(failure)
            let provider = StoreProvider(location: .default, busyTimeoutMilliseconds: 5000)
            return Defaults(suiteName: name, location: .default, provider: provider,
                            persistent: .inMemory(name: name, unavailable: failure), arguments: CommandLine.arguments)
        }
    }()

    // MARK: Errors

    /// Receives the errors of the non-throwing, `UserDefaults`-shaped methods (`set`, `removeObject`,
    /// reads that fail). The default writes one line to standard error naming the suite and the key,
    /// never the value. Use the throwing methods (``write(_:forKey:)``, ``transaction(_:)``) to handle
    /// errors where they happen.
    public var errorHandler: @Sendable (DefaultsError) -> Void {
        get { state.withLock { $0.errorHandler } }
        set { state.withLock { $0.errorHandler = newValue } }
    }

    /// The default ``errorHandler``: one line on standard error.
    public static let reportToStandardError: @Sendable (DefaultsError) -> Void = { error in
        FileHandle.standardError.write(Data("LayeredDefaults: \(error)\n".utf8))
    }

    func report(_ error: any Error) {
        let handler = errorHandler
        handler(error as? DefaultsError ?? .storageFailure(suite: suiteName, key: nil, SQLiteError(code: .init(rawValue: -1), message: "\(type(of: error))")))
    }

    func postChange() {
        state.withLock { $0.changeCount += 1 }
        NotificationCenter.default.post(name: Self.didChangeNotification, object: self)
        ObservationCenter.shared.changed()
    }

    // MARK: The search

    /// The value of `key` found by the search list (argument domain, persistent domain, added suites,
    /// global domain, registration domain), or nil when no domain holds it.
    ///
    /// A domain that cannot be read is reported to ``errorHandler`` and skipped.
    public func value(forKey key: String) -> PreferenceValue? {
        // NB: the hot path. A key of the persistent domain costs one lock, the store's (the argument domain
        // costs one more only when it holds keys); the search list is copied only on a miss.
        if hasArguments.load(ordering: .acquiring), let forced = state.withLock({ $0.arguments[key] }) { return forced }
        do {
            if let value = try persistent.value(forKey: key) { return value }
        } catch {
            report(error)
        }
        let (stores, registered) = state.withLock { state in (state.stores, state.registration[key]) }
        for store in stores where store !== persistent {
            do {
                if let value = try store.value(forKey: key) { return value }
            } catch {
                report(error)
            }
        }
        return registered
    }

    /// The value stored for `key` in this instance's persistent domain only, or nil when it holds none.
    ///
    /// Tells "never set" from a stored `false` or `0`: registered defaults, arguments and other domains
    /// are not consulted.
    public func persistentValue(forKey key: String) -> PreferenceValue? {
        do {
            return try persistent.value(forKey: key)
        } catch {
            report(error)
            return nil
        }
    }

    /// True when this instance's persistent domain holds a value for `key`.
    public func hasPersistentValue(forKey key: String) -> Bool {
        persistentValue(forKey: key) != nil
    }
}
