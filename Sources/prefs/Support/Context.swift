import Foundation
import LayeredDefaults

/// What a command runs against: the layer and location of its domains, the console and the output mode.
/// Every domain is the library's ``Defaults/Domain``: its files, their modes and the rules of its writes
/// are the library's, and nothing here chooses them.
struct Context: Sendable {
    /// The layer whose domains a command works on: `--system`, `--managed`, else the user's.
    let layer: Defaults.Domain.Layer
    /// The user's domains: `--root`, else the library's default location.
    let location: Location
    /// The system directories (`$XDG_CONFIG_DIRS`).
    let systemDirectories: [URL]

    /// The layer the flags `--system` and `--managed` name.
    /// - Throws: ``PrefsError/usage(_:)`` when both are given.
    static func layer(of invocation: Invocation) throws(PrefsError) -> Defaults.Domain.Layer {
        switch (invocation.has(.system), invocation.has(.managed)) {
        case (true, true): throw .usage("--system and --managed cannot be given together")
        case (true, false): return .system
        case (false, true): return .managed
        case (false, false): return .user
        }
    }
    /// The process's environment, as given to ``init(root:layer:environment:console:json:)``.
    let environment: [String: String]
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

        func record(_ error: DefaultsError) {
            reported.withLock { if !$0.contains(error) { $0.append(error) } }
        }
    }

    /// Resolves the user's location: `--root`, else the library's default location (`LAYERED_DEFAULTS_HOME`,
    /// then `XDG_CONFIG_HOME`, then `~/.config/layered-defaults`).
    /// - Throws: ``PrefsError/usage(_:)`` for an empty `--root`, or `--root` with a system-wide layer.
    init(
        root option: String?, layer: Defaults.Domain.Layer = .user, environment: [String: String], console: Console,
        json: Bool
    ) throws(PrefsError) {
        self.layer = layer
        systemDirectories = Location.systemDirectories(environment: environment)
        if let option {
            guard layer == .user else { throw .usage("--root cannot be given with --system or --managed") }
            guard !option.isEmpty else { throw .usage("--root needs a directory") }
            location = .directory(URL(fileURLWithPath: option, isDirectory: true).standardizedFileURL)
        } else {
            // NB: `Location.default` always resolves to a directory.
            location = .directory(Location.default.root(environment: environment)!.standardizedFileURL)
        }
        self.environment = environment
        self.console = console
        self.json = json
    }

    /// The arguments that name the global domain, as in macOS `defaults`: what ``domainName(_:)`` accepts
    /// and the help and the man page list.
    static let globalDomainNames = ["-g", "-globalDomain", Defaults.globalDomain]

    /// The domain named by a command-line argument: one of ``globalDomainNames`` names the global
    /// domain; any other name must be a valid suite name.
    /// - Throws: ``PrefsError/usage(_:)`` for an invalid name, before anything is touched.
    static func domainName(_ argument: String) throws(PrefsError) -> String {
        if globalDomainNames.contains(argument) { return Defaults.globalDomain }
        guard Defaults.Domain.isValidName(argument) else { throw PrefsError(DefaultsError.invalidSuiteName(argument)) }
        return argument
    }

    /// Names, in a warning on standard error, the forced keys a whole-domain change kept (their values
    /// never shown): with `--json` a JSON object, as every warning.
    func reportKept(_ kept: [String], in domain: String) {
        guard !kept.isEmpty else { return }
        console.warn(
            "kept \(kept.map { "'\($0)'" }.joined(separator: ", ")) in domain '\(domain)': forced by the managed domain, which no write may change",
            json: json)
    }

    /// The domain `name` (a valid name) of the command's layer.
    func domain(_ name: String) throws(DefaultsError) -> Defaults.Domain {
        try Defaults.Domain(name, layer: layer, location: location, systemDirectories: systemDirectories)
    }

    /// The directory of the command's layer's domains, as messages name it.
    var directory: URL {
        // NB: a directory location, and at least one system directory: it always resolves.
        Defaults.Domain.directory(of: layer, location: location, systemDirectories: systemDirectories)!
    }

    /// The store of `domain` when its file exists, else nil; nothing is created for a missing domain.
    /// - Throws: the library's error when the file cannot be opened (corrupt, foreign, unsafe).
    func existingDefaults(_ domain: String) throws -> Defaults? {
        try self.domain(domain).exists() ? try store(domain) : nil
    }

    /// Runs `change` on the store of `domain`. What may be stored is the store's rule, checked in its write
    /// path (the schema, forced keys, storability), and its file is made by its first commit: a change the
    /// rules refuse makes nothing.
    /// - Returns: what `change` returns.
    /// - Throws: what `change` throws (nothing is changed or created then), or an error opening the store.
    func changing<T>(_ domain: String, _ change: (Defaults) throws -> T) throws -> T {
        try change(try store(domain))
    }

    /// The store of `domain` (which creates nothing), its errors collected as warnings.
    func store(_ domain: String) throws -> Defaults {
        let warnings = warnings
        return try self.domain(domain).open(errorHandler: { warnings.record($0) })
    }

    /// The store the app of `domain` opens: the user's domain of that name and the layers its search
    /// holds (the managed and system domains, the global domain, the schema), whatever the command's
    /// layer. What an app reads, and whether a key is forced for it, is asked of this store.
    func appStore(_ domain: String) throws -> Defaults {
        let warnings = warnings
        return try Defaults.Domain(domain, location: location, systemDirectories: systemDirectories)
            .open(errorHandler: { warnings.record($0) })
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

    /// The names of the command's layer's domains that have a file (``Defaults/Domain/names(of:location:systemDirectories:)``):
    /// listing opens and creates nothing.
    /// - Throws: the library's error when the directory cannot be listed.
    func domainNames() throws -> [String] {
        try Defaults.Domain.names(of: layer, location: location, systemDirectories: systemDirectories)
    }
}
