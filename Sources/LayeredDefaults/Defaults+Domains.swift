import Foundation

/// Domains: registration, the merged view, persistent domains, searched suites.
extension Defaults {
    // MARK: Registration

    /// Merges `values` into the registration domain, the last place a read looks. Never persisted.
    ///
    /// Unlike Foundation, the registration domain belongs to this instance, not to the process, so
    /// parallel tests cannot see each other's registrations.
    public func register(_ values: [String: PreferenceValue]) {
        searchList.change { $0.registration.merge(values) { _, new in new } }
        postChange()
    }

    // MARK: The merged view

    /// Every key of the search list with the value ``value(forKey:)`` would find.
    ///
    /// Rows that cannot be decoded are sent to the error handler and left out (and untouched).
    /// - Throws: ``DefaultsError`` when a searched domain cannot be read.
    public func resolvedValues() throws -> [String: PreferenceValue] {
        try resolve { throw $0 }
    }

    /// The merged view; `failed` decides what a domain that cannot be read does (see ``SearchList/search(_:failed:)``).
    package func resolve(failed: (any Error) throws -> Void) rethrows -> [String: PreferenceValue] {
        try searchList.resolve(failed: failed)
    }

    // MARK: Persistent domains

    /// The values stored in the persistent domain `domainName` (this one by default), empty when it
    /// does not exist (no file is created to answer).
    /// - Throws: ``DefaultsError/invalidSuiteName(_:)``, ``DefaultsError/corruptStore(path:reason:)`` or
    ///   another error of opening or reading the domain. Rows that cannot be decoded are sent to the
    ///   error handler and left out (and untouched).
    public func persistentValues(forName domainName: String? = nil) throws -> [String: PreferenceValue] {
        guard let store = try domain(named: domainName ?? suiteName).store() else { return [:] }
        let (values, undecodable) = try store.allValues()
        undecodable.forEach(report)
        return values
    }

    /// Replaces the whole persistent domain `domainName` (this one by default) with `values`, in one
    /// transaction: the batch write, and with `[:]` the removal of every value (a domain without a file
    /// then stays so).
    ///
    /// A key the domain's managed domain forces keeps its row (the user's own value, which the forced
    /// one shadows), as no write may change it: `values` may hold that key only with that same value. An
    /// emptied domain keeps its file, because deleting a SQLite file that another process has open would
    /// silently lose that process's later writes; `prefs prune` deletes the files of unused domains.
    /// - Returns: the forced keys whose rows were kept, sorted (usually none).
    /// - Throws: ``DefaultsError/invalidSuiteName(_:)``, ``DefaultsError/invalidKey(suite:)``,
    ///   ``DefaultsError/forced(suite:key:)`` for a forced key whose value `values` would change, what the
    ///   domain's schema refuses, or a storage error; nothing changes (and nothing is created) then.
    @discardableResult
    public func replacePersistentValues(
        _ values: [String: PreferenceValue], forName domainName: String? = nil
    ) throws
        -> [String]
    {
        let kept = try writing(in: domain(named: domainName ?? suiteName)) { try $0.replaceAll(with: values) }
        postChange()
        return kept
    }

    /// The names of the persistent domains at this instance's location: one per database file, sorted.
    /// - Throws: a storage error when the location's directory exists but cannot be listed.
    public func domainNames() throws -> [String] {
        try registry.domainNames()
    }

    /// The domain `name` at this instance's location: its persistent domain, or another's.
    func domain(named name: String) -> DomainSlot {
        name == suiteName ? persistent : DomainSlot(name: name, registry: registry)
    }

    // MARK: Suites

    /// The names of the searched suites, in search order: ``Configuration/suites``, after any added
    /// later with `addSuite(named:)` of `LayeredDefaultsCompatibility`.
    public var suiteNames: [String] {
        searchList.layers.withLock { $0.suites.map(\.name) }
    }
}
