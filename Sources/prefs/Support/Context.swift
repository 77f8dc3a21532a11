import Foundation
import LayeredDefaults

/// What a command runs against: the store's root directory, the console and the output mode.
struct Context: Sendable {
    /// The directory holding the domains' files.
    let root: URL
    /// Where output goes.
    let console: Console
    /// True with `--json`: output is JSON instead of property-list text.
    let json: Bool
    /// The problems the library reported without failing (e.g. a row that could not be decoded).
    let warnings = Warnings()

    /// Collects the errors a ``Defaults`` instance reports through its error handler; the entry point
    /// prints them once the command has finished.
    final class Warnings: Sendable {
        private let reported = Lock<[DefaultsError]>([])

        /// Every error reported so far, each once, in the order reported.
        var all: [DefaultsError] { reported.withLock { $0 } }

        fileprivate func record(_ error: DefaultsError) {
            reported.withLock { if !$0.contains(error) { $0.append(error) } }
        }
    }

    /// Resolves the root: `--root`, else the library's default location (`LAYERED_DEFAULTS_HOME`, then
    /// `XDG_CONFIG_HOME`, then `~/.config/layered-defaults`).
    /// - Throws: ``PrefsError/usage(_:)`` for an empty `--root`.
    init(root option: String?, environment: [String: String], console: Console, json: Bool) throws(PrefsError) {
        if let option {
            guard !option.isEmpty else { throw .usage("--root needs a directory") }
            root = URL(fileURLWithPath: option, isDirectory: true).standardizedFileURL
        } else {
            // NB: `Location.default` always resolves to a directory.
            root = Location.default.root(environment: environment)!.standardizedFileURL
        }
        self.console = console
        self.json = json
    }

    /// The domain named by a command-line argument: `-g`, `-globalDomain` and `NSGlobalDomain` name the
    /// global domain, as in macOS `defaults`; any other name must be a valid suite name.
    /// - Throws: ``PrefsError/usage(_:)`` for an invalid name, before anything is touched.
    static func domainName(_ argument: String) throws(PrefsError) -> String {
        if ["-g", "-globalDomain", Defaults.globalDomain].contains(argument) { return Defaults.globalDomain }
        guard SuiteName.isValid(argument) else { throw PrefsError(DefaultsError.invalidSuiteName(argument)) }
        return argument
    }

    /// Refuses values that no write could store, before any store is opened, so nothing is created:
    /// those nested deeper than ``PreferenceValue/maximumNestingDepth``.
    /// - Throws: ``PrefsError/usage(_:)`` with the library's ``DefaultsError/nestingTooDeep(suite:key:limit:)``.
    static func checkStorable(_ values: [String: PreferenceValue], in domain: String) throws(PrefsError) {
        for key in values.keys.sorted() where values[key]!.exceedsNestingLimit {
            throw PrefsError(DefaultsError.nestingTooDeep(suite: domain, key: key, limit: PreferenceValue.maximumNestingDepth))
        }
    }

    /// The database file of `domain` (a valid name) under the root.
    func file(of domain: String) -> URL {
        root.appendingPathComponent(domain + "." + Location.fileExtension)
    }

    /// True when `domain` has a file (of any kind: opening a non-file reports it as unreadable).
    /// - Throws: the library's error when the root cannot be searched (``Location/domainExists(_:in:)``).
    func domainExists(_ domain: String) throws -> Bool {
        try Location.domainExists(domain, in: root)
    }

    /// The store of `domain` when its file exists, else nil; nothing is created for a missing domain.
    ///
    /// NB: opening any domain creates the global domain's (empty) file when it is missing: that is how
    /// ``Defaults`` opens its search list.
    /// - Throws: the library's error when the file cannot be opened (corrupt, foreign, unsafe).
    func existingDefaults(_ domain: String) throws -> Defaults? {
        try domainExists(domain) ? try defaults(domain) : nil
    }

    /// The store of `domain`, its file created when missing.
    /// - Throws: the library's error when the file cannot be opened or created.
    func defaults(_ domain: String) throws -> Defaults {
        let warnings = warnings
        return try Defaults(
            suiteName: domain,
            configuration: .init(location: .directory(root), arguments: [], errorHandler: { warnings.record($0) }))
    }

    /// Every value stored in `domain`, nil when the domain has no file.
    ///
    /// - Throws: the library's error when the domain cannot be read, or its
    ///   ``DefaultsError/undecodableValue(suite:key:type:)`` when `key` is given and its row could not be
    ///   decoded (so it does not look merely missing).
    func storedValues(of domain: String, reading key: String? = nil) throws -> [String: PreferenceValue]? {
        guard let defaults = try existingDefaults(domain) else { return nil }
        let values = try defaults.persistentValues()
        if let key, values[key] == nil {
            for error in warnings.all {
                if case .undecodableValue(domain, key, _) = error { throw error }
            }
        }
        return values
    }

    /// The names of the domains under the root (``Location/domainNames(in:)``): listing opens and creates
    /// nothing, unlike `Defaults.persistentDomainNames()`, which needs an open store.
    /// - Throws: the library's error when the root cannot be listed.
    func domainNames() throws -> [String] {
        try Location.domainNames(in: root)
    }
}
