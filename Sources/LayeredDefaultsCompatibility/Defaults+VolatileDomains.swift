import Foundation
import LayeredDefaults

/// The volatile domains of `UserDefaults`: the argument and registration domains, and any set by name.
extension Defaults {
    /// The name of the argument domain (volatile), for ``volatileDomain(forName:)``.
    public static let argumentDomain = "NSArgumentDomain"
    /// The name of the registration domain (volatile), for ``volatileDomain(forName:)``.
    public static let registrationDomain = "NSRegistrationDomain"

    /// The names of the volatile domains: the argument and registration domains and any set with
    /// ``setVolatileDomain(_:forName:)``.
    public var volatileDomainNames: [String] {
        [Self.argumentDomain, Self.registrationDomain] + namedVolatileDomains
    }

    /// The volatile domain `domainName` (empty when there is none).
    public func volatileDomain(forName domainName: String) -> [String: Any] {
        volatileValues(of: Self.volatileDomain(named: domainName)).mapValues(\.anyValue)
    }

    /// Replaces the volatile domain `domainName`. Setting ``argumentDomain`` or ``registrationDomain``
    /// replaces that part of the search list; other volatile domains are not searched (as in Foundation).
    /// A value that is not a property list is sent to the error handler and nothing changes.
    public func setVolatileDomain(_ domain: [String: Any], forName domainName: String) {
        guard let values = reportingErrors({ try Self.values(of: domain, suite: domainName) }) else { return }
        replaceVolatileValues(values, of: Self.volatileDomain(named: domainName))
    }

    /// Empties the volatile domain `domainName`.
    public func removeVolatileDomain(forName domainName: String) {
        replaceVolatileValues(nil, of: Self.volatileDomain(named: domainName))
    }

    /// The volatile domain that Foundation's name `name` stands for.
    private static func volatileDomain(named name: String) -> VolatileDomain {
        switch name {
        case argumentDomain: .arguments
        case registrationDomain: .registration
        default: .named(name)
        }
    }
}
