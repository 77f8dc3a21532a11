import Foundation

/// The changes of the search list after an instance was created, for `LayeredDefaultsCompatibility`
/// (Foundation's volatile domains, `addSuite(named:)`, `objectIsForced(forKey:)`): `package`, because
/// the core's own API sets the search list in ``Configuration`` and registers with ``register(_:)``.
extension Defaults {
    /// A volatile domain: the argument domain, the registration domain, or one set by name (kept, never
    /// searched, as in Foundation).
    package enum VolatileDomain: Sendable {
        /// The argument domain, searched after the managed domain.
        case arguments
        /// The registration domain, searched last.
        case registration
        /// A volatile domain set by name: kept, never searched.
        case named(String)
    }

    /// The names of the volatile domains set by name, sorted.
    package var namedVolatileDomains: [String] {
        searchList.layers.withLock { $0.volatileDomains.keys.sorted() }
    }

    /// The values of `domain` (empty when there is none).
    package func volatileValues(of domain: VolatileDomain) -> [String: PreferenceValue] {
        searchList.layers.withLock { state in
            switch domain {
            case .arguments: state.arguments
            case .registration: state.registration
            case .named(let name): state.volatileDomains[name] ?? [:]
            }
        }
    }

    /// Replaces the values of `domain`, or with nil empties it (a domain set by name is then forgotten);
    /// replacing the argument or registration domain changes what reads find.
    package func replaceVolatileValues(_ values: [String: PreferenceValue]?, of domain: VolatileDomain) {
        searchList.change { state in
            switch domain {
            case .arguments: state.arguments = values ?? [:]
            case .registration: state.registration = values ?? [:]
            case .named(let name): state.volatileDomains[name] = values
            }
        }
        postChange()
    }

    /// Puts the persistent domain `suiteName` first among the searched suites (moving it there when it
    /// is already searched). This instance's own domain and the global domain are left where they are.
    /// - Throws: ``DefaultsError/invalidSuiteName(_:)``, or an error of opening the domain.
    package func insertSearchedSuite(named suiteName: String) throws {
        guard suiteName != self.suiteName, suiteName != Self.globalDomain else { return }
        let suite = DomainSlot(name: suiteName, registry: registry)
        _ = try suite.store()
        searchList.change { state in
            state.suites.removeAll { $0.name == suiteName }
            state.suites.insert(suite, at: 0)
        }
        postChange()
    }

    /// Takes the suite `suiteName` out of the searched suites.
    package func removeSearchedSuite(named suiteName: String) {
        searchList.change { state in state.suites.removeAll { $0.name == suiteName } }
        postChange()
    }

    /// True when the argument domain or the managed domain holds `key`; a managed domain that cannot be
    /// read is sent to the error handler.
    package func isForcedForThisProcess(_ key: String) -> Bool {
        searchList.layers.withLock { $0.arguments[key] != nil } || searchList.managedValue(key, failed: report) != nil
    }
}
