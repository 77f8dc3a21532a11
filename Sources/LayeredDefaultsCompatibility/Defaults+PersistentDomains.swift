import Foundation
import LayeredDefaults

/// The whole-domain methods of `UserDefaults`, over the core's `resolvedValues()`,
/// `persistentValues(forName:)`, `replacePersistentValues(_:forName:)` (`[:]` empties it)
/// and `domainNames()`. They never throw: errors go to the configuration's error handler and leave the
/// store unchanged.
extension Defaults {
    /// Every key of the search list with the value a read would find.
    ///
    /// A domain that cannot be read is sent to the error handler and left out.
    public func dictionaryRepresentation() -> [String: Any] {
        resolve(failed: report).mapValues(\.anyValue)
    }

    /// The values stored in the persistent domain `domainName` (no other domain), or nil when it holds none.
    public func persistentDomain(forName domainName: String) -> [String: Any]? {
        reportingErrors {
            let values = try persistentValues(forName: domainName)
            return values.isEmpty ? nil : values.mapValues(\.anyValue)
        }
    }

    /// Replaces the whole persistent domain `domainName` with `domain`, in one transaction. A value that
    /// is not a property list is sent to the error handler and nothing changes.
    public func setPersistentDomain(_ domain: [String: Any], forName domainName: String) {
        _ = reportingErrors { try replacePersistentValues(try Self.values(of: domain, suite: domainName), forName: domainName) }
    }

    /// Removes every value of the persistent domain `domainName`; the file stays, empty.
    public func removePersistentDomain(forName domainName: String) {
        _ = reportingErrors { try replacePersistentValues([:], forName: domainName) }
    }

    /// The names of the persistent domains at this instance's location.
    public func persistentDomainNames() -> [String] {
        reportingErrors { try domainNames() } ?? []
    }
}
