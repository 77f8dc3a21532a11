import Foundation
import LayeredDefaults

extension Context {
    /// The schema installed for `domain` (``Defaults/installedSchema(suiteName:location:systemDirectories:)``):
    /// for the user's domains the root's (`<root>/schemas`), else the system directories'; for `--system`
    /// and `--managed`, the system directories' only. Nil when none is installed.
    /// - Throws: the library's error when the schema file is malformed or cannot be read.
    func schema(of domain: String) throws(DefaultsError) -> PreferenceSchema? {
        try Defaults.installedSchema(
            suiteName: domain, location: layer == .user ? .directory(root) : .inMemory,
            systemDirectories: Location.systemDirectories(environment: environment))
    }

    /// The schema of `domain` for a command that works without one (`read`, `write`): the one its store
    /// obeys (``Defaults/schema``; a system-wide layer's is the library's choice too). A schema file that
    /// cannot be used is reported once the command has finished, and the command goes on as for a domain
    /// without a schema (as the store does).
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

    /// The schema a store of `domain` obeys, for a store that cannot find it on its own: one in memory (a
    /// trial of a change, the layers below the user's domain) or of a system-wide layer. It is
    /// ``trustedSchema(of:)``, or, when none can be used, one that declares no key and allows every key:
    /// no rule, as for the domain's own store, which then finds none either.
    ///
    /// NB: never nil: a store given no schema looks for the installed files itself, and one in memory
    /// would skip the user's (it has no root) and obey a system directory's instead.
    func rule(of domain: String) -> PreferenceSchema {
        if let schema = trustedSchema(of: domain) { return schema }
        // NB: a valid suite name, no key, nothing refused: it cannot fail.
        return try! PreferenceSchema(suiteName: domain, version: 1, entries: [], allowsUndeclaredKeys: true)
    }

    /// The schema of `domain` for a command that needs one (`keys`, `describe`).
    /// - Throws: ``PrefsError/notFound(_:)`` when none is installed, or the library's error when it is
    ///   malformed.
    func requiredSchema(of domain: String) throws -> PreferenceSchema {
        guard let schema = try schema(of: domain) else {
            throw PrefsError.notFound(
                "Domain \(domain) has no schema: its app installs one (Defaults.installSchema), or `prefs install-schema <file>`")
        }
        return schema
    }
}
