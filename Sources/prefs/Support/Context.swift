import Foundation
import LayeredDefaults

/// What a command runs against: the store's root directory, the console and the output mode.
struct Context: Sendable {
    /// The directory holding the domains' files.
    let root: URL
    /// Which domains the root holds: the user's, or a system-wide layer.
    let layer: Layer
    /// The system-wide configuration directories the opened stores search (none when writing a
    /// system-wide layer itself).
    let systemDirectories: [URL]

    /// The domains a command works on.
    enum Layer: Sendable {
        /// The user's domains (`--root`, else the library's default location).
        case user
        /// The system domains (`--system`): `layered-defaults` in the first of `$XDG_CONFIG_DIRS`.
        case system
        /// The managed domains (`--managed`): `layered-defaults/managed` in the first of `$XDG_CONFIG_DIRS`.
        case managed

        /// The layer the flags `--system` and `--managed` name.
        /// - Throws: ``PrefsError/usage(_:)`` when both are given.
        init(_ invocation: Invocation) throws(PrefsError) {
            switch (invocation.has(.system), invocation.has(.managed)) {
            case (true, true): throw .usage("--system and --managed cannot be given together")
            case (true, false): self = .system
            case (false, true): self = .managed
            case (false, false): self = .user
            }
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

    /// Resolves the root: for a system-wide `layer`, its directory in the first of `XDG_CONFIG_DIRS`;
    /// else `--root`, else the library's default location (`LAYERED_DEFAULTS_HOME`, then
    /// `XDG_CONFIG_HOME`, then `~/.config/layered-defaults`).
    /// - Throws: ``PrefsError/usage(_:)`` for an empty `--root`, or `--root` with a system-wide layer.
    init(
        root option: String?, layer: Layer = .user, environment: [String: String], console: Console, json: Bool
    ) throws(PrefsError) {
        let directories = Location.systemDirectories(environment: environment)
        self.layer = layer
        systemDirectories = layer == .user ? directories : []
        if layer != .user {
            guard option == nil else { throw .usage("--root cannot be given with --system or --managed") }
            root =
                (layer == .system ? Location.systemRoot(in: directories[0]) : Location.managedRoot(in: directories[0]))
                .standardizedFileURL
        } else if let option {
            guard !option.isEmpty else { throw .usage("--root needs a directory") }
            root = URL(fileURLWithPath: option, isDirectory: true).standardizedFileURL
        } else {
            // NB: `Location.default` always resolves to a directory.
            root = Location.default.root(environment: environment)!.standardizedFileURL
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
        guard SuiteName.isValid(argument) else { throw PrefsError(DefaultsError.invalidSuiteName(argument)) }
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
    /// - Throws: the library's error when the file cannot be opened (corrupt, foreign, unsafe).
    func existingDefaults(_ domain: String) throws -> Defaults? {
        try domainExists(domain) ? try store(domain) : nil
    }

    /// Runs `change` on the store of `domain`. What may be stored is the store's rule, checked in its write
    /// path (the schema, forced keys, storability), and its file is made by its first commit: a change the
    /// rules refuse makes nothing.
    /// - Returns: what `change` returns.
    /// - Throws: what `change` throws (nothing is changed or created then), or an error opening the store.
    func changing<T>(_ domain: String, _ change: (Defaults) throws -> T) throws -> T {
        try change(try store(domain))
    }

    /// A store of `domain` with no file of its own (in memory) and the domain's other layers: the managed
    /// and system domains under the system directories and the domain's schema. Its reads are what the
    /// app reads for a key the user's domain does not hold (but for the user's global domain, which it
    /// does not search); it creates nothing.
    func layersBelow(_ domain: String) throws -> Defaults {
        let warnings = warnings
        return try Defaults(
            suiteName: domain,
            configuration: .init(
                location: .inMemory, arguments: [], systemDirectories: Location.systemDirectories(environment: environment),
                schema: rule(of: domain), errorHandler: { warnings.record($0) }))
    }

    /// The store of `domain` under the root, searching no other domain's file until it is read past; when
    /// the domain's file keeps history, its writes record with the standard bound, as its app's do.
    func store(_ domain: String) throws -> Defaults {
        let defaults = try Defaults(suiteName: domain, configuration: configuration(of: domain))
        guard try defaults.keepsHistory else { return defaults }
        var configuration = configuration(of: domain)
        configuration.history = .standard
        return try Defaults(suiteName: domain, configuration: configuration)
    }

    /// The configuration of the stores of `domain`: under the root, no launch arguments, the warnings
    /// collected; a system-wide layer's store is the library's (its files' modes, the schema it obeys).
    func configuration(of domain: String) -> Defaults.Configuration {
        let warnings = warnings
        var configuration = Defaults.Configuration(
            location: .directory(root), arguments: [], systemDirectories: systemDirectories,
            errorHandler: { warnings.record($0) })
        if layer != .user {
            configuration.systemLayer = .init(
                userRoot: Location.default.root(environment: environment),
                systemDirectories: Location.systemDirectories(environment: environment))
        }
        return configuration
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
