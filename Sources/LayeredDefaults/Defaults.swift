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
    /// This device's id when the persistent domain syncs (``Configuration/sync``), else nil.
    let syncDevice: String?
    /// What merges the sync folder while the instance is observed, when the persistent domain syncs.
    let syncWatch: SyncFolderWatch?
    /// The search list: its layers, their change count, the resolved answers, and the search.
    let searchList: SearchList

    /// This instance's persistent domain.
    var persistent: DomainSlot { searchList.persistent }

    /// The persistent domain's store, its file made now when missing: a seam for tests of the store.
    var persistentStoreForTesting: DomainStore { try! persistent.madeStore() }

    /// Opens the persistent domain `suiteName`, set up by `configuration`.
    ///
    /// The domain's file is `<root>/<suiteName>.sqlite3`, made (mode 0600, its directory 0700) by the
    /// domain's first commit: opening, reading and observing create nothing. Nothing is written to an
    /// existing file that is not one of ours.
    /// - Parameters:
    ///   - suiteName: the persistent domain: 1-128 letters, digits, `.`, `-` or `_`.
    ///   - configuration: where domains live, the launch arguments, the searched suites, the busy
    ///     timeout and the error handler.
    /// - Throws: ``DefaultsError/invalidSuiteName(_:)`` (nothing touched), ``DefaultsError/corruptStore(path:reason:)``,
    ///   ``DefaultsError/foreignDatabase(path:)``, ``DefaultsError/unsupportedSchemaVersion(path:found:supported:)``,
    ///   ``DefaultsError/unsafePath(path:)``, or a storage error, for this domain or one of the suites;
    ///   ``DefaultsError/invalidSchema(suite:key:reason:)`` when ``Configuration/schema`` is another suite's;
    ///   ``DefaultsError/syncNotPossible(suite:reason:)`` when ``Configuration/sync`` names no usable device
    ///   id, or is set for a domain of a system-wide layer (``Domain/Layer/system``, ``Domain/Layer/managed``),
    ///   whose values never travel.
    ///   With ``Configuration/sync`` set, the sync folder is merged now (see ``mergeSyncFolder()``); what that
    ///   merge meets goes to the error handler and does not fail the opening.
    public convenience init(suiteName: String, configuration: Configuration = Configuration()) throws {
        if let schema = configuration.schema, schema.suiteName != suiteName {
            throw DefaultsError.invalidSchema(
                suite: schema.suiteName, key: nil, reason: "it is given to an instance of suite '\(suiteName)'")
        }
        let registry = configuration.storeRegistry()
        // NB: looked for now, so that a file that cannot be opened fails the opening; nothing is created.
        // NB: its write policy is set once the sync device is known, below (before any write).
        let persistent = DomainSlot(name: suiteName, registry: registry)
        _ = try persistent.store()
        let suites = try configuration.suites.map { name in
            let suite = DomainSlot(name: name, registry: registry)
            _ = try suite.store()
            return suite
        }
        // NB: only a user's own domain syncs: a forced or system-wide value never travels, and nothing
        // that arrives becomes one.
        if configuration.sync != nil, configuration.systemLayer != nil {
            throw DefaultsError.syncNotPossible(suite: suiteName, reason: "a domain of a system-wide layer never syncs")
        }
        let syncDevice = try configuration.sync?.resolvedDeviceID(
            suite: suiteName, root: registry.root, making: configuration.makesSyncDeviceID)
        if let policy = WritePolicy.of(history: configuration.history, syncDevice: syncDevice) { persistent.adopt(policy) }
        self.init(
            suiteName: suiteName, configuration: configuration, registry: registry, persistent: persistent, suites: suites,
            syncDevice: syncDevice)
        if syncDevice != nil, configuration.mergesSyncFolderAtOpen { mergeSyncFolderAtOpen() }
    }

    init(
        suiteName: String, configuration: Configuration, registry: StoreRegistry, persistent: DomainSlot, suites: [DomainSlot],
        syncDevice: String? = nil
    ) {
        self.syncDevice = syncDevice
        if let syncDevice, let sync = configuration.sync {
            self.syncWatch = SyncFolderWatch(
                directory: sync.folder.appendingPathComponent(suiteName, isDirectory: true), suite: suiteName,
                ownFileName: syncDevice + "." + SyncFile.fileExtension)
        } else {
            self.syncWatch = nil
        }
        self.suiteName = suiteName
        self.configuration = configuration
        self.registry = registry
        self.searchList = SearchList(
            suiteName: suiteName, configuration: configuration, registry: registry, persistent: persistent, suites: suites)
    }

    /// The name of the notification ``Configuration/postsChangeNotifications`` posts:
    /// `Defaults.didChangeNotification` of `LayeredDefaultsCompatibility`.
    package static let changeNotificationName = Notification.Name("LayeredDefaultsDidChangeNotification")

    // MARK: Errors

    /// Sends `error` to the configuration's error handler.
    package func report(_ error: any Error) { searchList.report(error) }

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

    /// After a change of `changedKeys` (nil: of any key), so observers of other keys are not evaluated;
    /// `commit` is the instance's own commit that made it, if one (the answers of other keys stay known).
    func postChange<Keys: Sequence<String>>(changedKeys: Keys?, commit: DomainStore.Commit? = nil) {
        searchList.recordChange(of: changedKeys, commit: commit)
        if configuration.postsChangeNotifications {
            NotificationCenter.default.post(name: Self.changeNotificationName, object: self)
        }
        ObservationCenter.shared.changed(keys: changedKeys)
    }

    // MARK: Reading

    /// The value of `key` found by the search list (managed domain, argument domain, persistent domain,
    /// suites, global domain, system domain, registration domain, and last the schema's default), or nil
    /// when no domain holds it and the schema gives it no default. A value the schema does not accept
    /// reads as its default (reported once to the error handler); an argument is read as the schema's type.
    ///
    /// Called from inside the body of a ``transaction(_:)`` on this domain, it sees that transaction's
    /// changes (the body runs on the calling thread, which holds the domain's write lock); a key the
    /// domain does not hold is searched for in the other domains, and the first one that can be written
    /// (a suite, the global domain) throws ``DefaultsError/otherSuiteInTransaction(suite:transactionSuite:)``.
    /// - Throws: ``DefaultsError`` when a domain that must be searched cannot be read.
    public func value(forKey key: String) throws -> PreferenceValue? {
        try searchList.search(key) { throw $0 }
    }

    /// The value stored for `key` in this instance's persistent domain only, or nil when it holds none.
    ///
    /// Tells "never set" from a stored `false` or `0`: registered defaults, arguments and other domains
    /// are not consulted.
    /// - Throws: ``DefaultsError`` when the domain cannot be read.
    public func persistentValue(forKey key: String) throws -> PreferenceValue? {
        guard let store = try persistent.store() else { return nil }
        return try searchList.storedValue(key, in: store) { throw $0 }
    }

    /// The value of `key` found by the search list; a domain that cannot be read is reported and skipped.
    package func lookup(_ key: String) -> PreferenceValue? {
        searchList.search(key, failed: report)
    }

    /// The schema that applies to this instance's domain: ``Configuration/schema``, else the one
    /// installed for it as last read (read now if it never was), or nil when none applies. A write looks at
    /// the installed files again first, so a newer one installed meanwhile applies to it.
    public var schema: PreferenceSchema? { searchList.schema.forReading }
}
