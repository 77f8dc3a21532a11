import Foundation

/// The system-wide layers of the search list, both read-only, both found under
/// ``Configuration/systemDirectories`` (XDG's `$XDG_CONFIG_DIRS`): the managed domain, whose keys an
/// administrator forces, and the system domain, defaults below the user's own.
extension Defaults {
    /// The managed and system stores of `suiteName` under the configuration's system directories, each
    /// in the directories' order, leaving out `persistent` (a store opened at one of those places, as
    /// `prefs --managed` does, is not a layer above or below itself).
    ///
    /// Only existing files are opened, and nothing is created. A file that cannot be opened (corrupt,
    /// unreadable) is sent to the error handler and left out: the rest of the search list still works;
    /// a managed one is also returned as `managedFailure`, which then fails every write (see
    /// ``transaction(in:key:_:)``).
    static func systemLayers(
        of suiteName: String, configuration: Configuration, excluding persistent: DomainStore
    )
        -> (managed: [DomainStore], system: [DomainStore], managedFailure: DefaultsError?)
    {
        var managedFailure: DefaultsError?
        // NB: absent layers are the common case and must cost next to nothing at open: one lstat each,
        // paths joined as strings, no registry, no URL.
        let directories = configuration.systemDirectories.map(\.path)
        func existing(under subdirectory: String, isManaged: Bool) -> [DomainStore] {
            directories.compactMap { directory in
                let root = StoreRegistry.withoutTrailingSlash(directory) + "/" + subdirectory
                var status = stat()
                guard lstat(StoreRegistry.path(of: suiteName, inDirectory: root), &status) == 0 else { return nil }
                let registry = StoreRegistry(
                    root: URL(fileURLWithPath: root, isDirectory: true),
                    busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds)
                do {
                    return try registry.store(named: suiteName, create: false).flatMap { $0 === persistent ? nil : $0 }
                } catch {
                    let failure = DefaultsError.wrapping(error, suite: suiteName)
                    configuration.errorHandler(failure)
                    if isManaged, managedFailure == nil { managedFailure = failure }
                    return nil
                }
            }
        }
        let managed = existing(under: Location.managedSubdirectory, isManaged: true)
        let system = existing(under: Location.systemSubdirectory, isManaged: false)
        return (managed, system, managedFailure)
    }

    /// The value of `key` in the managed domain (the first of its files that holds it), or nil.
    func managedValue(_ key: String, failed: (any Error) throws -> Void) rethrows -> PreferenceValue? {
        for store in managed {
            if let value = try read(key, in: store, failed: failed) { return value }
        }
        return nil
    }

    /// Runs `body` in one write transaction on `store`: the one way this instance writes. On its own
    /// persistent domain, a key of the managed domain is refused with ``DefaultsError/forced(suite:key:)``
    /// (see ``DomainTransaction/set(_:forKey:)``).
    ///
    /// NB: fails closed: when a managed file exists but cannot be read, no key of it can be known to be
    /// free, so every write to the persistent domain fails with that file's error.
    func transaction<T>(in store: DomainStore, key: String? = nil, _ body: (inout DomainTransaction) throws -> T) throws -> T {
        if store === persistent, let managedFailure { throw managedFailure }
        return try store.transaction(key: key, forced: store === persistent ? managed : [], body)
    }
}
