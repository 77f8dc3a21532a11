/// A layer of domain files: the managed domain, the persistent domain, a suite, the global domain, the
/// system domain. Each of its domains is a ``DomainSlot``; the first that holds a key answers.
///
/// A class: the search list holds its layers as `any SearchLayer`, and a reference fits the existential's
/// inline buffer where the fields did not, so rebuilding the list and each step of a search copy a
/// reference instead of boxing (an allocation) or copying the fields out of a box.
final class StoreLayer: SearchLayer {
    let layer: Defaults.Layer
    /// The layer's domains, in search order (several for the managed and system layers: one under each
    /// system directory).
    let domains: [DomainSlot]
    /// True for the managed and system layers, which this process never writes: read from inside a
    /// transaction's body without waiting (see ``DomainStore/FromAnotherTransaction``).
    let isReadOnly: Bool
    /// The files of the layer that could not be opened when the list was made, with their errors: left
    /// out of the search (reported then), named by an explanation.
    let failures: [(path: String, error: DefaultsError)]

    init(
        layer: Defaults.Layer, domains: [DomainSlot], isReadOnly: Bool, failures: [(path: String, error: DefaultsError)] = []
    ) {
        self.layer = layer
        self.domains = domains
        self.isReadOnly = isReadOnly
        self.failures = failures
    }

    /// The first file of the layer that cannot be read: one left out when the list was made, or a domain
    /// searched as empty because its file could not be opened (the global domain).
    var unreadable: (origin: String?, error: DefaultsError)? {
        if let failure = failures.first { return (failure.path, failure.error) }
        for domain in domains { if let error = domain.substitutedFailure { return (domain.path, error) } }
        return nil
    }

    var forces: Bool { layer == .managed }

    /// No domain to read: a managed or system layer without files (those that could not be opened are
    /// left out too, and reported when the list was made).
    var isEmpty: Bool { domains.isEmpty }

    var watchedStores: [DomainStore] { domains.compactMap(\.watchedStore) }

    func answer(forKey key: String, as type: PreferenceSchema.ValueType?, remembered: Bool) -> LayerAnswer {
        var firstOrigin: String?
        var noFile = true
        for domain in domains {
            let answer: LayerAnswer?
            do {
                answer = try domain.withStore { store in
                    noFile = false
                    let answer = Self.answer(forKey: key, in: store, isReadOnly: isReadOnly, remembered: remembered)
                    // Only a miss searches on and may need it: a found value names its own file.
                    if case .missing = answer, firstOrigin == nil { firstOrigin = store.path }
                    return answer
                } withoutFile: {
                    // NB: a domain that may be written is refused from inside another domain's transaction
                    // whether or not it has a file, as every use of one is (see ``DomainStore/FromAnotherTransaction``).
                    if !isReadOnly, let held = StoreLock.suiteHeldByCurrentThread {
                        throw DefaultsError.otherSuiteInTransaction(suite: domain.name, transactionSuite: held)
                    }
                    return nil
                }
            } catch {
                return .failed(error, origin: domain.path, undecodable: false)
            }
            guard let answer else { continue }
            if case .missing = answer { continue }
            return answer
        }
        return .missing(origin: firstOrigin ?? domains.first?.path, noFile: noFile)
    }

    /// The answer of one store for `key` (see ``SearchLayer/answer(forKey:as:remembered:)``).
    static func answer(forKey key: String, in store: DomainStore, isReadOnly: Bool, remembered: Bool) -> LayerAnswer {
        do {
            guard
                let value = try store.value(
                    forKey: key, fromAnotherTransaction: isReadOnly ? .answeredWithoutWaiting : .refused,
                    keepingQueried: !remembered)
            else { return .missing(origin: store.path, noFile: false) }
            return .found(value, origin: store.path)
        } catch let error as DefaultsError where error.isUndecodableValue {
            return .failed(error, origin: store.path, undecodable: true)
        } catch {
            return .failed(error, origin: store.path, undecodable: false)
        }
    }

    func values(typedBy schema: PreferenceSchema?) -> LayerValues {
        var result = LayerValues()
        for domain in domains.reversed() {
            do {
                guard let store = try domain.store() else { continue }
                let (values, undecodable) = try store.allValues(
                    fromAnotherTransaction: isReadOnly ? .answeredWithoutWaiting : .refused)
                result.undecodable += undecodable
                result.values.lay(values)
            } catch {
                result.failure = result.failure ?? error
            }
        }
        return result
    }
}
