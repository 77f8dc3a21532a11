import Foundation

extension Defaults {
    /// A domain: its name, the layer whose files hold it and where they are, and what follows from them:
    /// its file, the modes its first commit gives it, the forced keys and the schema its writes obey.
    ///
    /// A domain is a value: making one opens and creates nothing. Its file is made by its first commit
    /// (through ``open(errorHandler:)``, ``restore(from:schema:)`` or ``repair()``), never by asking whether it
    /// exists, listing, opening, reading or explaining.
    ///
    /// ```swift
    /// let domain = try Defaults.Domain("com.example.app")
    /// if try domain.exists() {
    ///     try domain.backup(to: URL(fileURLWithPath: "app-backup.sqlite3"))
    /// }
    /// let administrators = try Defaults.Domain("com.example.app", layer: .managed)
    /// try administrators.open().set(16, forKey: "editor.fontSize")  // forced for every user
    /// ```
    public struct Domain: Sendable, Hashable, CustomStringConvertible {
        /// Whose files hold a domain.
        public enum Layer: Sendable, Hashable {
            /// The user's domains, under ``Domain/location``: what an app reads and writes.
            case user
            /// The system domains, under the first of ``Domain/systemDirectories``: defaults for every user
            /// of the machine, searched after the user's domains.
            case system
            /// The managed domains, under the first of ``Domain/systemDirectories``: values an administrator
            /// forces on every user, searched first, which no user's write may change.
            case managed
        }

        /// The domain's name: a suite name, or ``Defaults/globalDomain``.
        public let name: String
        /// The layer whose files hold the domain.
        public let layer: Layer
        /// Where the user's domains are: for ``Layer/user`` the domain's own place; for the system-wide
        /// layers, the writing user's, whose installed schema applies where no system-wide one is.
        public let location: Location
        /// The system directories (XDG's `$XDG_CONFIG_DIRS`): where a system-wide layer's domain is (the
        /// first of them), and whose managed and system domains and schemas a user's domain obeys.
        public let systemDirectories: [URL]

        /// A domain of `layer`.
        /// - Parameters:
        ///   - name: the domain's name, a valid suite name or ``Defaults/globalDomain``.
        ///   - layer: the layer whose files hold it; the default is the user's.
        ///   - location: the user's domains; the default resolves as for ``Defaults/init(suiteName:configuration:)``.
        ///   - systemDirectories: the system directories; the default is ``Location/systemDirectories(environment:)``.
        /// - Throws: ``DefaultsError/invalidSuiteName(_:)`` for a name that is not a valid suite name (it could
        ///   name a file outside the domain's directory); ``DefaultsError/noSuchDomain(suite:)`` for a
        ///   system-wide layer without a system directory.
        public init(
            _ name: String, layer: Layer = .user, location: Location = .default,
            systemDirectories: [URL] = Location.systemDirectories()
        ) throws(DefaultsError) {
            guard SuiteName.isValid(name) else { throw .invalidSuiteName(name) }
            guard layer == .user || !systemDirectories.isEmpty else { throw .noSuchDomain(suite: name) }
            self.name = name
            self.layer = layer
            self.location = location
            self.systemDirectories = systemDirectories
        }

        /// True when `name` is a valid suite name, one ``init(_:layer:location:systemDirectories:)``
        /// accepts: 1-128 ASCII letters, digits, `.`, `-` and `_`, not `.` or `..`, so that it names exactly
        /// one file in its layer's directory. Checks the name only; touches no file.
        public static func isValidName(_ name: String) -> Bool { SuiteName.isValid(name) }

        /// The directory that holds the files of the domain's layer: the location's root for the user's
        /// (nil in memory), `<dir>/layered-defaults` or `<dir>/layered-defaults/managed` in the first system
        /// directory for the system-wide layers.
        public var directory: URL? { Self.directory(of: layer, location: location, systemDirectories: systemDirectories) }

        /// The domain's database file, `<directory>/<name>.sqlite3`, whether or not it exists; nil in memory.
        public var file: URL? { directory?.appendingPathComponent(name + "." + Location.fileExtension) }

        /// The domain's files, whether or not they exist, in the order ``delete(unchangedFor:now:)`` deletes them: the
        /// `-wal`, `-shm` and `-journal` files SQLite keeps beside the database, then the database
        /// (``file``). Empty in memory.
        public var files: [URL] {
            guard let file else { return [] }
            return Location.companionSuffixes.map { URL(fileURLWithPath: file.path + $0, isDirectory: false) } + [file]
        }

        /// `user`, `system` or `managed`, then the domain's name.
        public var description: String { "\(layer) \(name)" }

        /// True when the domain has a file (an entry of any kind: opening one that is not a database
        /// reports it). Opens and creates nothing.
        /// - Throws: ``DefaultsError/permissionDenied(path:)`` naming the directory when this user may not
        ///   search it, or ``DefaultsError/fileSystemFailure(path:operation:code:)``: never "no" when that is
        ///   not known.
        public func exists() throws -> Bool {
            guard let file else { return false }
            return try Location.status(ofEntry: file.path) != nil
        }

        /// The names of the domains of `layer` that have a file: the entries `<name>.sqlite3` of its
        /// directory whose names are valid suite names, sorted. Opens and creates nothing; empty when the
        /// directory does not exist or the location is in memory.
        /// - Parameters: as ``init(_:layer:location:systemDirectories:)``.
        /// - Throws: ``DefaultsError/permissionDenied(path:)`` when this user may not list the directory, or
        ///   ``DefaultsError/fileSystemFailure(path:operation:code:)`` (a file in its place): never an empty
        ///   answer that is not true.
        public static func names(
            of layer: Layer = .user, location: Location = .default, systemDirectories: [URL] = Location.systemDirectories()
        ) throws -> [String] {
            guard let directory = directory(of: layer, location: location, systemDirectories: systemDirectories) else {
                return []
            }
            return try Location.domainNames(in: directory)
        }

        /// The names of the domains that have a schema installed: a file `<name>.json` in the user's schema
        /// directory (`<root>/schemas`) or in a system directory's (`<dir>/layered-defaults/schemas`), where
        /// ``installedSchema()`` looks; each name once, sorted. Opens and creates nothing. A file is listed by
        /// its name, not read: a malformed one is listed too (reading it reports it).
        /// - Parameters:
        ///   - location: the user's domains (``Location/inMemory``: only the system directories' schemas);
        ///     the default is ``Location/default``.
        ///   - systemDirectories: the system directories; the default is ``Location/systemDirectories(environment:)``.
        /// - Throws: ``DefaultsError/permissionDenied(path:)`` or ``DefaultsError/fileSystemFailure(path:operation:code:)``
        ///   when a schema directory that exists cannot be listed: never an empty answer that is not true.
        public static func namesWithInstalledSchema(
            location: Location = .default, systemDirectories: [URL] = Location.systemDirectories()
        ) throws(DefaultsError) -> [String] {
            let roots = (location.root().map { [$0] } ?? []) + systemDirectories.map(Location.systemRoot(in:))
            var names = Set<String>()
            for root in roots {
                names.formUnion(
                    try Defaults.schemaSuites(in: root.appendingPathComponent(Defaults.schemaDirectoryName, isDirectory: true)))
            }
            return names.sorted()
        }

        /// The configuration of a store of this domain: in its directory, no launch arguments; a user's
        /// domain searches the system directories' managed and system domains, a system-wide one searches
        /// none and makes files every user can read (directories 0755, files 0644), obeying the schema
        /// installed system-wide, else the one `location`'s user installed.
        /// - Parameter errorHandler: where the store reports what it cannot use.
        public func configuration(
            errorHandler: @escaping @Sendable (DefaultsError) -> Void = Defaults.reportToStandardError
        ) -> Configuration {
            var configuration = Configuration(
                location: layer == .user ? location : directory.map(Location.directory) ?? .inMemory, arguments: [],
                systemDirectories: layer == .user ? systemDirectories : [], errorHandler: errorHandler)
            if layer != .user {
                configuration.systemLayer = .init(userRoot: location.root(), systemDirectories: systemDirectories)
            }
            return configuration
        }

        /// A store of this domain (``configuration(errorHandler:)``). Opening creates nothing.
        /// - Throws: an error of opening the domain's file (``DefaultsError/corruptStore(path:reason:)``, ...).
        public func open(
            errorHandler: @escaping @Sendable (DefaultsError) -> Void = Defaults.reportToStandardError
        ) throws -> Defaults {
            try Defaults(suiteName: name, configuration: configuration(errorHandler: errorHandler))
        }

        /// The schema installed for this domain, the one its writes obey when no configuration gives one:
        /// for a user's domain the user's (`<root>/schemas/<name>.json`), else the first system directory's
        /// that has one; for a system-wide layer's, the system directories' first, then the user's. Nil
        /// when none is installed. A schema file is read strictly and never trusted when malformed.
        /// - Throws: ``DefaultsError/malformedSchema(path:reason:)`` when the first schema file found is
        ///   malformed, too large, or names another domain; ``DefaultsError/unsafePath(path:)`` for a
        ///   symbolic link or a file that is not regular; ``DefaultsError/permissionDenied(path:)``.
        public func installedSchema() throws(DefaultsError) -> PreferenceSchema? {
            try Defaults.schema(
                installedFor: name, rootPath: location.root().map { StoreRegistry.withoutTrailingSlash($0.path) },
                systemDirectories: systemDirectories, systemFirst: layer != .user)
        }

        /// Installs `schema` for this domain's layer, where `prefs` and the domain's stores find it: an app
        /// calls this at launch. A user's domain's schema is `<root>/schemas/<name>.json` (the directory mode
        /// 0700, the file 0600); a system-wide layer's is every user's, `<dir>/layered-defaults/schemas/<name>.json`
        /// in the first system directory (directories 0755, the file 0644), where both system-wide layers
        /// find it. A schema of the same or a higher version replaces the installed one at once (the file is
        /// replaced atomically: a reader sees the old or the new one); one of a lower version leaves a newer
        /// one in place.
        ///
        /// ```swift
        /// try Defaults.Domain(schema.suiteName).installSchema(schema)  // <root>/schemas/<suite>.json
        /// ```
        /// - Returns: what was done.
        /// - Throws: ``DefaultsError/malformedSchema(path:reason:)`` for the schema of another domain;
        ///   ``DefaultsError/permissionDenied(path:)`` (usually, in a system directory),
        ///   ``DefaultsError/fileSystemFailure(path:operation:code:)`` (e.g. the disk is full); the installed
        ///   schema is unchanged then.
        @discardableResult
        public func installSchema(_ schema: PreferenceSchema) throws(DefaultsError) -> SchemaInstallation {
            guard schema.suiteName == name else {
                throw .malformedSchema(path: schema.suiteName, reason: "it is the schema of another suite")
            }
            guard let schemaDirectory else { return .inMemory }
            return try Defaults.install(schema, in: schemaDirectory, shared: layer != .user)
        }

        /// Removes the schema installed for this domain's layer, as ``installSchema(_:)`` installed it: the
        /// domain then obeys no schema, unless another layer has one, or its app installs it again (at its
        /// next launch). The domain's values stay.
        /// - Returns: true when a schema file was removed, false when none was installed there (in memory:
        ///   never).
        /// - Throws: ``DefaultsError/unsafePath(path:)`` when a directory or another special file is in the
        ///   schema file's place (it is left alone); ``DefaultsError/permissionDenied(path:)`` or
        ///   ``DefaultsError/fileSystemFailure(path:operation:code:)`` when it cannot be removed. The installed
        ///   schema is unchanged then.
        @discardableResult
        public func uninstallSchema() throws(DefaultsError) -> Bool {
            guard let schemaDirectory else { return false }
            return try Defaults.uninstall(name, in: schemaDirectory, shared: layer != .user)
        }

        /// The directory ``installSchema(_:)`` installs in: `<root>/schemas` for a user's domain (nil in
        /// memory), `<dir>/layered-defaults/schemas` in the first system directory for a system-wide one.
        var schemaDirectory: URL? {
            let root = layer == .user ? location.root() : systemDirectories.first.map(Location.systemRoot(in:))
            return root?.appendingPathComponent(Defaults.schemaDirectoryName, isDirectory: true)
        }

        /// The directory that holds the files of `layer`'s domains (see ``directory``).
        /// - Parameters: as ``init(_:layer:location:systemDirectories:)``.
        public static func directory(of layer: Layer, location: Location, systemDirectories: [URL]) -> URL? {
            switch layer {
            case .user: location.root()
            case .system: systemDirectories.first.map(Location.systemRoot(in:))
            case .managed: systemDirectories.first.map(Location.managedRoot(in:))
            }
        }
    }
}

extension Defaults.Domain.Layer: CustomStringConvertible {
    /// `user`, `system` or `managed`.
    public var description: String {
        switch self {
        case .user: "user"
        case .system: "system"
        case .managed: "managed"
        }
    }
}
