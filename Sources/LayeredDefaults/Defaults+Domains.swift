import Foundation

/// Domains: registration, the merged view, persistent and volatile domains, suites.
extension Defaults {
    // MARK: Registration

    /// Merges `defaults` into the registration domain, the last place a read looks. Never persisted.
    ///
    /// Unlike Foundation, the registration domain belongs to this instance, not to the process, so
    /// parallel tests cannot see each other's registrations. If any value is not a property list,
    /// nothing is registered and ``errorHandler`` receives the error.
    public func register(defaults: [String: Any]) {
        reportingErrors {
            let values = try defaults.reduce(into: [String: PreferenceValue]()) { result, pair in
                result[pair.key] = try PreferenceValue(any: pair.value, suite: Self.registrationDomain, key: pair.key)
            }
            register(values)
        }
    }

    /// Merges typed values into the registration domain (see ``register(defaults:)``).
    public func register(_ values: [String: PreferenceValue]) {
        state.withLock { $0.registration.merge(values) { _, new in new } }
        postChange()
    }

    // MARK: The merged view

    /// Every key of the search list with the value a read would find.
    ///
    /// A domain that cannot be read is reported to ``errorHandler`` and left out.
    public func dictionaryRepresentation() -> [String: Any] {
        resolvedValues().mapValues(\.anyValue)
    }

    /// Every key of the search list with the value ``value(forKey:)`` would find.
    public func resolvedValues() -> [String: PreferenceValue] {
        let (arguments, stores, registration) = state.withLock { ($0.arguments, $0.stores, $0.registration) }
        var merged = registration
        for store in stores.reversed() {
            do {
                let (values, undecodable) = try store.allValues()
                undecodable.forEach(report)
                merged.merge(values) { _, new in new }
            } catch {
                report(error)
            }
        }
        return merged.merging(arguments) { _, new in new }
    }

    // MARK: Persistent domains

    /// The values stored in the persistent domain `domainName` (no other domain), or nil when it holds
    /// none. Errors go to ``errorHandler``.
    public func persistentDomain(forName domainName: String) -> [String: Any]? {
        do {
            let values = try persistentValues(forName: domainName)
            return values.isEmpty ? nil : values.mapValues(\.anyValue)
        } catch {
            report(error)
            return nil
        }
    }

    /// The values stored in the persistent domain `domainName`, empty when it does not exist (no file
    /// is created to answer).
    /// - Throws: ``DefaultsError/invalidSuiteName(_:)``, ``DefaultsError/corruptStore(path:reason:)`` or
    ///   another error of opening or reading the domain. Rows that cannot be decoded are reported to
    ///   ``errorHandler`` and left out (and untouched).
    public func persistentValues(forName domainName: String? = nil) throws -> [String: PreferenceValue] {
        guard let store = try store(named: domainName ?? suiteName, create: false) else { return [:] }
        let (values, undecodable) = try store.allValues()
        undecodable.forEach(report)
        return values
    }

    /// Replaces the whole persistent domain `domainName` with `domain`, in one transaction.
    /// Errors go to ``errorHandler``; on error nothing changes.
    public func setPersistentDomain(_ domain: [String: Any], forName domainName: String) {
        reportingErrors {
            let values = try domain.reduce(into: [String: PreferenceValue]()) { result, pair in
                result[pair.key] = try PreferenceValue(any: pair.value, suite: domainName, key: pair.key)
            }
            try replacePersistentValues(values, forName: domainName)
        }
    }

    /// Replaces the whole persistent domain `domainName` (this one by default) with `values`, in one
    /// transaction: the batch write.
    /// - Throws: ``DefaultsError/invalidSuiteName(_:)``, ``DefaultsError/invalidKey(suite:)`` or a
    ///   storage error; nothing changes then.
    public func replacePersistentValues(_ values: [String: PreferenceValue], forName domainName: String? = nil) throws {
        let store = try store(named: domainName ?? suiteName, create: true)!
        try store.transaction { domain in
            try domain.removeAll()
            for (key, value) in values { try domain.set(value, forKey: key) }
        }
        postChange()
    }

    /// Removes every value of the persistent domain `domainName`, in one transaction. Errors go to
    /// ``errorHandler``.
    ///
    /// The file stays (empty), because deleting a SQLite file that another process has open would
    /// silently lose that process's later writes; `prefs prune` deletes the files of unused domains.
    public func removePersistentDomain(forName domainName: String) {
        reportingErrors {
            guard let store = try store(named: domainName, create: false) else { return }
            try store.transaction { try $0.removeAll() }
            postChange()
        }
    }

    /// The names of the persistent domains at this instance's location: one per database file.
    public func persistentDomainNames() -> [String] {
        provider.domainNames()
    }

    func store(named name: String, create: Bool) throws -> SuiteStore? {
        name == suiteName ? persistent : try provider.store(named: name, create: create)
    }

    // MARK: Volatile domains

    /// The names of the volatile domains: the argument and registration domains and any set with
    /// ``setVolatileDomain(_:forName:)``.
    public var volatileDomainNames: [String] {
        state.withLock { [Self.argumentDomain, Self.registrationDomain] + $0.volatileDomains.keys.sorted() }
    }

    /// The volatile domain `domainName` (empty when there is none).
    public func volatileDomain(forName domainName: String) -> [String: Any] {
        volatileValues(forName: domainName).mapValues(\.anyValue)
    }

    /// The typed values of the volatile domain `domainName`.
    public func volatileValues(forName domainName: String) -> [String: PreferenceValue] {
        state.withLock { state in
            switch domainName {
            case Self.argumentDomain: state.arguments
            case Self.registrationDomain: state.registration
            default: state.volatileDomains[domainName] ?? [:]
            }
        }
    }

    /// Replaces the volatile domain `domainName`. Setting ``argumentDomain`` or ``registrationDomain``
    /// replaces that part of the search list; other volatile domains are not searched (as in Foundation).
    /// A value that is not a property list is reported to ``errorHandler`` and nothing changes.
    public func setVolatileDomain(_ domain: [String: Any], forName domainName: String) {
        reportingErrors {
            let values = try domain.reduce(into: [String: PreferenceValue]()) { result, pair in
                result[pair.key] = try PreferenceValue(any: pair.value, suite: domainName, key: pair.key)
            }
            setVolatileValues(values, forName: domainName)
        }
    }

    /// Replaces the volatile domain `domainName` with typed values (see ``setVolatileDomain(_:forName:)``).
    public func setVolatileValues(_ values: [String: PreferenceValue], forName domainName: String) {
        state.withLock { state in
            switch domainName {
            case Self.argumentDomain:
                state.arguments = values
                hasArguments.store(!values.isEmpty, ordering: .releasing)
            case Self.registrationDomain: state.registration = values
            default: state.volatileDomains[domainName] = values
            }
        }
        postChange()
    }

    /// Empties the volatile domain `domainName`.
    public func removeVolatileDomain(forName domainName: String) {
        setVolatileValues([:], forName: domainName)
        state.withLock { _ = $0.volatileDomains.removeValue(forKey: domainName) }
    }

    // MARK: Suites

    /// Adds the persistent domain `suiteName` to the search list, after this domain and before the
    /// suites added earlier. It is read-only through this instance, and the change affects this instance
    /// only (Foundation on Linux changes the whole process's list). Adding this instance's own domain or
    /// the global domain does nothing. Errors (an invalid or corrupt suite) go to ``errorHandler``.
    public func addSuite(named suiteName: String) {
        guard suiteName != self.suiteName, suiteName != Self.globalDomain else { return }
        reportingErrors {
            let store = try provider.store(named: suiteName)!
            state.withLock { state in
                state.suites.removeAll { $0 === store }
                state.suites.insert(store, at: 0)
                state.rebuildStores(persistent: persistent)
            }
            postChange()
        }
    }

    /// Removes the suite `suiteName` from this instance's search list.
    public func removeSuite(named suiteName: String) {
        state.withLock { state in
            state.suites.removeAll { $0.name == suiteName }
            state.rebuildStores(persistent: persistent)
        }
        postChange()
    }

    /// The names of the added suites, most recently added first.
    public var suiteNames: [String] {
        state.withLock { $0.suites.map(\.name) }
    }

    // MARK: Odds and ends

    /// True when the argument domain holds `key`: the value cannot be changed by a write for this process.
    public func objectIsForced(forKey key: String) -> Bool {
        state.withLock { $0.arguments[key] != nil }
    }

    /// True when `key` is forced (see ``objectIsForced(forKey:)``) and `domain` is this instance's domain.
    public func objectIsForced(forKey key: String, inDomain domain: String) -> Bool {
        domain == suiteName && objectIsForced(forKey: key)
    }

    /// Kept for familiarity: every write has already committed when it returns, and reads see other
    /// processes' writes without it. Returns true.
    @discardableResult
    public func synchronize() -> Bool { true }
}
