import Foundation

/// Writing: every write goes to the persistent domain and has committed when it returns.
extension Defaults {
    /// Stores `value` for `key` in the persistent domain, committed when this returns; nil removes the key.
    ///
    /// ```swift
    /// try defaults.write("dark", forKey: "theme")
    /// try defaults.write(nil, forKey: "theme")  // a registered default shows through again
    /// ```
    /// - Throws: ``DefaultsError/invalidKey(suite:)``, ``DefaultsError/nestingTooDeep(suite:key:limit:)``,
    ///   ``DefaultsError/forced(suite:key:)``, ``DefaultsError/readOnly(suite:key:)``, ``DefaultsError/busy(suite:key:)``,
    ///   ``DefaultsError/diskFull(suite:key:)`` or another storage error. When it throws, nothing changed,
    ///   on disk or in memory.
    public func write(_ value: PreferenceValue?, forKey key: String) throws {
        try write(value, forKey: key, declared: nil)
    }

    /// ``write(_:forKey:)`` of a key the app declared as `declared` (a typed key's schema entry, which
    /// applies where the domain's schema does not declare the key).
    func write(_ value: PreferenceValue?, forKey key: String, declared: PreferenceSchema.Entry?) throws {
        var commit: DomainStore.Commit?
        // A value is one upsert, which commits on its own; a removal may delete several rows (a key
        // stored in other Unicode forms), in one transaction.
        // NB: a synced key's change also stamps its clock: two statements, in one transaction.
        _ = try writing(in: persistent, key: key, asOneStatement: value != nil && syncDevice == nil, committed: { commit = $0 }) {
            try $0.write(value, forKey: key, declared: declared)
        }
        postChange(changedKeys: CollectionOfOne(key), commit: commit)
        if syncDevice != nil { exportSyncFileAfterWrite(changedKeys: [key]) }
    }

    /// Runs `body` in one write transaction on the persistent domain, committed when this returns.
    ///
    /// The body sees the latest committed state; other threads and processes wait for it (up to the
    /// busy timeout) and see all of its changes or none. If it throws, nothing changes. Reads through
    /// this instance from inside the body see the body's own changes; a write through it (instead of
    /// through `domain`) throws ``DefaultsError/nestedTransaction(suite:)``. A body reaches only its own
    /// domain: a read or write of another suite (a read through this instance that falls through to one
    /// too), or another instance's transaction, throws ``DefaultsError/otherSuiteInTransaction(suite:transactionSuite:)``
    /// at once, never waits. (The managed and system domains, which cannot be written, may be read.)
    ///
    /// ```swift
    /// try defaults.transaction { domain in
    ///     try domain.write(domain.value(forKey: "name"), forKey: "displayName")
    ///     try domain.write(nil, forKey: "name")
    /// }
    /// ```
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws, or a storage error (see ``write(_:forKey:)``).
    @discardableResult
    public func transaction<T>(_ body: (inout DomainTransaction) throws -> T) throws -> T {
        var changes: [(key: String, value: PreferenceValue?)]?
        var commit: DomainStore.Commit?
        let result = try writing(in: persistent, committed: { commit = $0 }) { domain in
            let result = try body(&domain)
            changes = domain.removedAll ? nil : domain.changes
            return result
        }
        postChange(changedKeys: changes?.lazy.map(\.key), commit: commit)
        if syncDevice != nil { exportSyncFileAfterWrite(changedKeys: changes?.map(\.key)) }
        return result
    }

    /// Atomically changes the value of `key` in place, in one write transaction, so concurrent updates from
    /// threads and processes are never lost: the same shape as a typed key's ``update(_:_:)``. `UserDefaults`
    /// has no equivalent.
    ///
    /// ```swift
    /// try defaults.update(forKey: "launchCount") { $0 = .integer(($0?.integerValue ?? 0) + 1) }
    /// ```
    /// - Parameters:
    ///   - key: the key to update, in the persistent domain.
    ///   - transform: changes the stored value (nil when none) in place; nil removes the key.
    /// - Returns: the new value.
    /// - Throws: what `transform` throws, or a storage error; nothing changes then.
    @discardableResult
    public func update(forKey key: String, _ transform: (inout PreferenceValue?) throws -> Void) throws -> PreferenceValue? {
        try update(forKey: key, declared: nil) { value in
            var value = value
            try transform(&value)
            return value
        }
    }

    /// ``update(forKey:_:)`` of a key the app declared as `declared` (see ``write(_:forKey:declared:)``).
    @discardableResult
    func update(
        forKey key: String, declared: PreferenceSchema.Entry?, _ transform: (PreferenceValue?) throws -> PreferenceValue?
    ) throws -> PreferenceValue? {
        var commit: DomainStore.Commit?
        let value = try writing(in: persistent, key: key, committed: { commit = $0 }) { domain in
            let value = try transform(domain.value(forKey: key))
            try domain.write(value, forKey: key, declared: declared)
            return value
        }
        postChange(changedKeys: CollectionOfOne(key), commit: commit)
        if syncDevice != nil { exportSyncFileAfterWrite(changedKeys: [key]) }
        return value
    }

    /// Runs `body` in one write transaction on `store`: the one way any API of this instance changes the
    /// rows of any domain, under that domain's ``WriteRules``: the keys of its managed domain (under this
    /// instance's system directories) are forced, and its schema (``Configuration/schema`` for this
    /// instance's own domain, else the installed one) is checked. What this instance adds to its own
    /// domain's writes (its history, its sync device) is that slot's ``WritePolicy``.
    func writing<T>(
        in domain: DomainSlot, key: String? = nil, asOneStatement: Bool = false,
        committed: (DomainStore.Commit) -> Void = { _ in }, _ body: (inout DomainTransaction) throws -> T
    ) throws -> T {
        let rules =
            domain !== persistent
            ? try Self.writeRules(
                of: domain.name, excluding: try domain.store(), root: registry.root, configuration: configuration)
            : searchList.forcesNothing
                ? WriteRules(forcedKeys: [], schema: searchList.schema.forWriting)
                : try Self.rules(
                    forcedBy: (searchList.managed, searchList.managedFailure), dropIns: searchList.managedDropIns,
                    schema: searchList.schema.forWriting)
        return try domain.writeTransaction(
            key: key, rules: rules, committed: committed, asOneStatement: asOneStatement, body)
    }

    /// The rules of a write to the domain `name` at `root` (nil in memory) that is not the persistent
    /// domain of an instance: its managed domain's forced keys and its schema (`configuration`'s when it is
    /// that suite's, else the installed one). `excluding` is
    /// the domain's store, when it has one (a store of a managed file is not its own managed layer).
    ///
    /// NB: fails closed: when a managed file exists but cannot be read, no key of it can be known to be
    /// free, so every write to that domain fails with that file's error. The forced keys are read
    /// before the transaction begins, so that no store's lock is taken while this one is held.
    static func writeRules(
        of name: String, excluding store: DomainStore?, root: URL?, configuration: Configuration
    ) throws -> WriteRules {
        let rootPath = root.map { StoreRegistry.withoutTrailingSlash($0.path) }
        let schema = ApplicableSchema(
            suiteName: name, configuration: configuration,
            configured: configuration.schema.flatMap { $0.suiteName == name ? $0 : nil }, rootPath: rootPath)
        return try rules(
            forcedBy: managedLayer(of: name, configuration: configuration, excluding: store),
            dropIns: managedDropIns(
                of: name, in: configuration.systemDirectoryPaths, configuration: configuration, root: rootPath),
            schema: schema.forWriting)
    }

    /// The rules of a domain whose managed layer is `managed` (its stores, and the failure of one that
    /// cannot be read), with the managed drop-in folders `dropIns`, under `schema`.
    private static func rules(
        forcedBy managed: (stores: [DomainStore], failure: DefaultsError?), dropIns: [DropInFolder], schema: PreferenceSchema?
    ) throws -> WriteRules {
        WriteRules(forcedKeys: try forcedKeys(of: managed, dropIns: dropIns, schema: schema), schema: schema)
    }
}
