import Foundation

/// The domain methods of `UserDefaults`. They never throw: errors go to
/// ``Defaults/Configuration/errorHandler`` and leave the store unchanged.
extension Defaults {
    /// The name of the argument domain (volatile), for ``volatileDomain(forName:)``.
    public static let argumentDomain = "NSArgumentDomain"
    /// The name of the registration domain (volatile), for ``volatileDomain(forName:)``.
    public static let registrationDomain = "NSRegistrationDomain"

    // MARK: Registration

    /// Merges `defaults` into the registration domain (see ``register(_:)``). A `URL` value is
    /// registered as ``set(_:forKey:)-(URL?,_)`` stores it, so ``url(forKey:)`` reads it. If any other
    /// value is not a property list, nothing is registered and the error handler receives the error.
    public func register(defaults: [String: Any]) {
        let values = defaults.mapValues { value in (value as? URL).map { StoredURL.text(of: $0) } ?? value }
        _ = reportingErrors { register(try Self.values(of: values, suite: Self.registrationDomain)) }
    }

    // MARK: The merged view

    /// Every key of the search list with the value a read would find.
    ///
    /// A domain that cannot be read is sent to the error handler and left out.
    public func dictionaryRepresentation() -> [String: Any] {
        resolve(failed: report).mapValues(\.anyValue)
    }

    // MARK: Persistent domains

    /// The values stored in the persistent domain `domainName` (no other domain), or nil when it holds none.
    public func persistentDomain(forName domainName: String) -> [String: Any]? {
        reportingErrors {
            let values = try persistentValues(forName: domainName)
            return values.isEmpty ? nil : values.mapValues(\.anyValue)
        }
    }

    /// Replaces the whole persistent domain `domainName` with `domain`, in one transaction.
    public func setPersistentDomain(_ domain: [String: Any], forName domainName: String) {
        _ = reportingErrors { try replacePersistentValues(try Self.values(of: domain, suite: domainName), forName: domainName) }
    }

    /// Removes every value of the persistent domain `domainName` (see ``removePersistentValues(forName:)``).
    public func removePersistentDomain(forName domainName: String) {
        _ = reportingErrors { try removePersistentValues(forName: domainName) }
    }

    /// The names of the persistent domains at this instance's location (see ``domainNames()``).
    public func persistentDomainNames() -> [String] {
        reportingErrors { try domainNames() } ?? []
    }

    // MARK: Volatile domains

    /// The names of the volatile domains: the argument and registration domains and any set with
    /// ``setVolatileDomain(_:forName:)``.
    public var volatileDomainNames: [String] {
        state.withLock { [Self.argumentDomain, Self.registrationDomain] + $0.volatileDomains.keys.sorted() }
    }

    /// The volatile domain `domainName` (empty when there is none).
    public func volatileDomain(forName domainName: String) -> [String: Any] {
        state.withLock { state in
            switch domainName {
            case Self.argumentDomain: state.arguments
            case Self.registrationDomain: state.registration
            default: state.volatileDomains[domainName] ?? [:]
            }
        }.mapValues(\.anyValue)
    }

    /// Replaces the volatile domain `domainName`. Setting ``argumentDomain`` or ``registrationDomain``
    /// replaces that part of the search list; other volatile domains are not searched (as in Foundation).
    /// A value that is not a property list is sent to the error handler and nothing changes.
    public func setVolatileDomain(_ domain: [String: Any], forName domainName: String) {
        guard let values = reportingErrors({ try Self.values(of: domain, suite: domainName) }) else { return }
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
        setVolatileDomain([:], forName: domainName)
        state.withLock { _ = $0.volatileDomains.removeValue(forKey: domainName) }
    }

    // MARK: Suites

    /// Adds the persistent domain `suiteName` to the search list, after this domain and before the
    /// suites added earlier. It is read-only through this instance, and the change affects this instance
    /// only (Foundation on Linux changes the whole process's list). Adding this instance's own domain or
    /// the global domain does nothing. Errors (an invalid or corrupt suite) go to the error handler.
    public func addSuite(named suiteName: String) {
        guard suiteName != self.suiteName, suiteName != Self.globalDomain else { return }
        _ = reportingErrors {
            let store = try registry.store(named: suiteName)!
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

    // MARK: Odds and ends

    /// True when the managed domain (see ``Configuration/systemDirectories``) or the argument domain holds
    /// `key`: the value cannot be changed by a write for this process. A managed domain that cannot be
    /// read is sent to the error handler.
    public func objectIsForced(forKey key: String) -> Bool {
        state.withLock { $0.arguments[key] != nil } || managedValue(key, failed: report) != nil
    }

    /// True when `key` is forced (see ``objectIsForced(forKey:)``) and `domain` is this instance's domain.
    public func objectIsForced(forKey key: String, inDomain domain: String) -> Bool {
        domain == suiteName && objectIsForced(forKey: key)
    }

    /// Kept for familiarity: every write has already committed when it returns, and reads see other
    /// processes' writes without it. Returns true.
    @discardableResult
    public func synchronize() -> Bool { true }

    /// The property-list values of `domain`, converted for storage.
    /// - Throws: ``DefaultsError/notPropertyList(suite:key:type:)`` or ``DefaultsError/valueOutOfRange(suite:key:type:)``.
    static func values(of domain: [String: Any], suite: String) throws -> [String: PreferenceValue] {
        try domain.reduce(into: [:]) { result, pair in
            result[pair.key] = try PreferenceValue(any: pair.value, suite: suite, key: pair.key)
        }
    }
}
