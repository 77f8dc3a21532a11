import Foundation
import LayeredDefaults

extension Context {
    /// The schema installed for `domain` (``Defaults/Domain/installedSchema()``): the one its writes obey.
    /// Nil when none is installed.
    /// - Throws: the library's error when the schema file is malformed or cannot be read.
    func schema(of domain: String) throws(DefaultsError) -> PreferenceSchema? {
        try self.domain(domain).installedSchema()
    }

    /// The schema of `domain` for a command that works without one (`read`, `write`): the one its store
    /// obeys (``Defaults/schema``). A schema file that cannot be used is reported once the command has
    /// finished, and the command goes on as for a domain without a schema (as the store does).
    func trustedSchema(of domain: String) -> PreferenceSchema? {
        do {
            return try store(domain).schema
        } catch let error as DefaultsError {
            warnings.record(error)
            return nil
        } catch {
            return nil
        }
    }

    /// The schema of `domain` for a command that needs one (`keys`, `describe`).
    /// - Throws: ``PrefsError/notFound(_:)`` when none is installed, or the library's error when it is
    ///   malformed.
    func requiredSchema(of domain: String) throws -> PreferenceSchema {
        guard let schema = try schema(of: domain) else {
            throw PrefsError.notFound(
                "Domain \(domain) has no schema: its app installs one (Domain.installSchema), or `prefs install-schema <file>`")
        }
        return schema
    }
}
