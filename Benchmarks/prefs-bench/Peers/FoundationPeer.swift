import Foundation

/// Foundation's `UserDefaults` as shipped with the toolchain (on Linux: swift-corelibs-foundation over
/// CoreFoundation's preferences, one property list per domain in `$XDG_CONFIG_HOME`).
///
/// Its durable write is `set` followed by `synchronize()`; its batch is `setPersistentDomain` followed
/// by `synchronize()`.
final class FoundationPeer: Peer {
    let kind = PeerKind.foundation
    /// The store under test.
    let defaults: UserDefaults
    /// The domain.
    let suite: String

    /// Opens the domain `suite`.
    init(suite: String) throws {
        guard let defaults = UserDefaults(suiteName: suite) else {
            throw PeerError.failed(.foundation, "UserDefaults(suiteName:) returned nil")
        }
        self.defaults = defaults
        self.suite = suite
    }

    /// Writes the domain's property list directly, before `UserDefaults` first reads it.
    static func populate(_ file: URL, with workload: Workload) throws {
        let data = try PropertyListSerialization.data(fromPropertyList: workload.propertyList, format: .binary, options: 0)
        try data.write(to: file)
    }

    func string(forKey key: String) -> String? { defaults.string(forKey: key) }

    func integer(forKey key: String) -> Int { defaults.integer(forKey: key) }

    func write(_ value: String, forKey key: String) throws {
        defaults.set(value, forKey: key)
        guard defaults.synchronize() else { throw PeerError.failed(kind, "synchronize() failed") }
    }

    func remove(forKey key: String) throws {
        defaults.removeObject(forKey: key)
        guard defaults.synchronize() else { throw PeerError.failed(kind, "synchronize() failed") }
    }

    func plainWrite(_ value: String, forKey key: String) throws {
        defaults.set(value, forKey: key)
    }

    func writeBatch(_ pairs: [(key: String, value: String)]) throws {
        var domain = defaults.persistentDomain(forName: suite) ?? [:]
        for (key, value) in pairs { domain[key] = value }
        defaults.setPersistentDomain(domain, forName: suite)
        guard defaults.synchronize() else { throw PeerError.failed(kind, "synchronize() failed") }
    }

    func register(_ values: [String: String]) throws {
        defaults.register(defaults: values)
    }
}
