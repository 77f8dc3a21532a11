import Foundation
import LayeredDefaults
import Synchronization

/// LayeredDefaults, through the core's API a program uses: `value(forKey:)`, `write(_:forKey:)`
/// (committed when it returns), `transaction` for a batch, `register(_:)`.
///
/// NB: the core's names, not `LayeredDefaultsCompatibility`'s `string(forKey:)`: a call into that other
/// module is not inlined, and costs a hot read about 100 instructions more (measured with callgrind).
final class OursPeer: Peer {
    let kind = PeerKind.ours
    /// The store under test.
    let defaults: Defaults
    private let errors = ErrorCounter()

    /// Counts the errors the non-throwing setters report, so that a failed write fails the case.
    private final class ErrorCounter: Sendable {
        let count = Atomic<Int>(0)
        let last = Lock<String?>(nil)
    }

    /// Opens the domain `suite` in `directory`, with no launch arguments, keeping `history` (none by default).
    init(suite: String, directory: URL, history: Defaults.History? = nil) throws {
        let errors = errors
        var configuration = Defaults.Configuration(
            location: .directory(directory), arguments: [],
            errorHandler: { error in
                errors.count.add(1, ordering: .relaxed)
                errors.last.withLock { $0 = "\(error)" }
            })
        configuration.history = history
        defaults = try Defaults(suiteName: suite, configuration: configuration)
    }

    /// Replaces the domain with the pairs of `workload`, in one transaction.
    func populate(_ workload: Workload) throws {
        var values: [String: PreferenceValue] = [:]
        for (key, value) in workload.strings { values[key] = .string(value) }
        for (key, value) in workload.integers { values[key] = .integer(value) }
        try defaults.replacePersistentValues(values)
    }

    func string(forKey key: String) -> String? { (try? defaults.value(forKey: key))?.stringValue }

    func integer(forKey key: String) -> Int { (try? defaults.value(forKey: key))?.integerValue ?? 0 }

    func write(_ value: String, forKey key: String) throws {
        try defaults.write(.string(value), forKey: key)
        try checkErrors()
    }

    func remove(forKey key: String) throws {
        try defaults.write(nil, forKey: key)
        try checkErrors()
    }

    func writeBatch(_ pairs: [(key: String, value: String)]) throws {
        try defaults.transaction { domain in
            for (key, value) in pairs { try domain.write(.string(value), forKey: key) }
        }
    }

    func register(_ values: [String: String]) throws {
        defaults.register(values.mapValues { .string($0) })
        try checkErrors()
    }

    private func checkErrors() throws {
        guard errors.count.load(ordering: .relaxed) > 0 else { return }
        errors.count.store(0, ordering: .relaxed)
        throw PeerError.failed(kind, errors.last.withLock { $0 } ?? "error")
    }
}
