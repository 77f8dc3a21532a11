import Foundation

extension Defaults {
    /// How a ``Defaults`` instance is set up when it is created (``Defaults/configuration`` keeps it as
    /// given; `LayeredDefaultsCompatibility`'s `addSuite(named:)` and volatile domains change the search
    /// list later).
    ///
    /// ```swift
    /// let defaults = try Defaults(
    ///     suiteName: "com.example.notes",
    ///     configuration: .init(location: .directory(settingsDirectory), arguments: []))
    /// ```
    public struct Configuration: Sendable {
        /// Where the persistent domains live. The default is ``Location/default``.
        public var location: Location
        /// The launch arguments parsed into the argument domain: `-key value` pairs, as Foundation reads
        /// them (a value starting with `(`, `{`, `<` or `"` is old-style property-list text when it
        /// parses). The default is `CommandLine.arguments`; tests usually pass `[]`.
        public var arguments: [String]
        /// Persistent domains searched after this instance's own, before the global domain, first
        /// listed first (after any added later with `LayeredDefaultsCompatibility`'s `addSuite(named:)`).
        /// Read-only through this instance. The default is none.
        public var suites: [String]
        /// How long a write waits for another process's lock before failing with
        /// ``DefaultsError/busy(suite:key:)``. The default is 5 seconds; a negative duration means no
        /// wait, and one beyond about 24 days is cut to that.
        public var busyTimeout: Duration
        /// The system-wide configuration directories, most important first: each may hold a managed
        /// domain, `<dir>/layered-defaults/managed/<suite>.sqlite3`, searched before everything else and
        /// forcing its keys, and a system domain, `<dir>/layered-defaults/<suite>.sqlite3`, searched after
        /// the global domain. Both are read-only through ``Defaults``; a missing file is no layer, and
        /// nothing is created there. Which files exist is decided when the instance is created. The
        /// default is `$XDG_CONFIG_DIRS` (`/etc/xdg` when unset); tests pass `[]` or a temporary directory.
        public var systemDirectories: [URL] {
            didSet { systemDirectoryPaths = Self.paths(of: systemDirectories) }
        }
        /// ``systemDirectories``' paths, each without a trailing slash: an instance joins the paths of its
        /// system layers and schema files to them, where a `URL`'s path would be made at every open.
        private(set) var systemDirectoryPaths: [String]
        /// Receives the errors of calls that do not throw: the subscript of typed keys and the
        /// `UserDefaults`-shaped methods. The default, ``Defaults/reportToStandardError``, writes one
        /// line to standard error naming the suite and the key, never the value. A handler may read
        /// through ``Defaults``; an error met by those reads is not reported (it would call the handler
        /// again, without end).
        public var errorHandler: @Sendable (DefaultsError) -> Void
        /// Whether every change made through the instance posts `Defaults.didChangeNotification` (of `LayeredDefaultsCompatibility`) to
        /// `NotificationCenter.default`. The default is false: posting costs every write a good part of its
        /// time even when nobody observes (docs/PERFORMANCE.md). Turn it on for code written
        /// against `UserDefaults.didChangeNotification`; ``Defaults/observe(_:initial:handler:)`` and
        /// ``Defaults/changes(of:initial:bufferingPolicy:)`` need no notification and also see other processes' writes.
        public var postsChangeNotifications: Bool
        /// The schema of the instance's own domain: the rule of every write to it, whose defaults every
        /// read sees (see ``PreferenceSchema``). Its suite must be the instance's. The default is nil:
        /// the schema installed for the domain applies, when there is one (``Defaults/Domain/installedSchema()``),
        /// read when first needed and looked at again at each write.
        public var schema: PreferenceSchema?
        /// Whether the instance's own domain keeps a history of its keys' changes, and its bound (see
        /// ``Defaults/History``, ``Defaults/history(forKey:)``). The default is nil: this writer asks for
        /// none, and a domain no writer keeps history for, whose schema marks no key, stores none; where
        /// the domain's file holds a history, or the schema marks a key, this writer records with the
        /// standard bound (``Defaults/History/standard``).
        public var history: History?
        /// The folder through which the instance's persistent domain syncs with the user's other devices,
        /// and this device's id (see <doc:Sync>): only keys ``schema`` marks as syncing travel. The default
        /// is nil: the domain does not sync, and nothing of sync runs.
        public var sync: SyncFolder?
        /// Whether opening an instance that syncs merges the sync folder; false for a domain's one-off
        /// ``Domain/syncStatus(through:errorHandler:)``, which only reads, and
        /// ``Domain/mergeSyncFolder(_:errorHandler:)``, which reports what it merged.
        var mergesSyncFolderAtOpen = true
        /// Whether opening an instance that syncs makes this device's id when the root keeps none (see
        /// ``SyncFolder/deviceID``); false for ``Domain/syncStatus(through:errorHandler:)``, which only
        /// reads: the instance then has no device id, and does not sync, until something makes one.
        var makesSyncDeviceID = true
        /// Whether a first commit makes the root directory (and its parents) when missing; false for a
        /// root that belongs to someone else, made and removed by them (the testing library's temporary
        /// roots): a store kept past its removal then makes nothing again, its first write fails.
        package var createsRoot = true
        /// Set for a store of a system-wide layer (the system or managed domains, written by an
        /// administrator): the files its first commit makes are read by every user, directories 0755 and
        /// files 0644 (SQLite gives the `-wal` and `-shm` the file's mode), where a user's are 0700 and
        /// 0600; and it obeys the schema installed system-wide, else the one the writing user installed.
        var systemLayer: SystemLayer?

        /// Where the schemas of a system-wide layer's store are found (see ``systemLayer``).
        struct SystemLayer: Sendable {
            /// The writing user's root, whose installed schemas apply where no system-wide one is.
            var userRoot: URL?
            /// The system directories, whose installed schemas apply first.
            var systemDirectories: [URL]
        }

        /// A configuration; every parameter has the default its property documents.
        public init(
            location: Location = .default,
            arguments: [String] = CommandLine.arguments,
            suites: [String] = [],
            busyTimeout: Duration = .seconds(5),
            postsChangeNotifications: Bool = false,
            systemDirectories: [URL] = Location.systemDirectories(),
            schema: PreferenceSchema? = nil,
            errorHandler: @escaping @Sendable (DefaultsError) -> Void = Defaults.reportToStandardError
        ) {
            self.schema = schema
            self.location = location
            self.arguments = arguments
            self.suites = suites
            self.busyTimeout = busyTimeout
            self.postsChangeNotifications = postsChangeNotifications
            self.systemDirectories = systemDirectories
            self.systemDirectoryPaths = Self.paths(of: systemDirectories)
            self.errorHandler = errorHandler
        }

        private static func paths(of directories: [URL]) -> [String] {
            directories.map { StoreRegistry.withoutTrailingSlash($0.path) }
        }

        /// ``busyTimeout`` in whole milliseconds, as SQLite takes it: clamped, never trapping.
        var busyTimeoutMilliseconds: Int32 { busyTimeout.wholeMilliseconds }

        /// The registry of the stores under ``location`` (resolved now), whose writes wait ``busyTimeout``.
        func storeRegistry() -> StoreRegistry {
            StoreRegistry(
                root: location.root(), busyTimeoutMilliseconds: busyTimeoutMilliseconds, createsRoot: createsRoot,
                sharesFiles: systemLayer != nil)
        }
    }

    /// The default ``Configuration/errorHandler``: one line on standard error, a control character in it
    /// (a key, or a file's name, may hold one) escaped (`\U001b`), so no terminal acts on it.
    ///
    /// In a test process that links `LayeredDefaultsTesting`, an error reported inside an isolated scope
    /// (`.isolatedDefaults`, `withIsolatedDefaults`) goes to that scope's `IsolatedDefaults.reportedErrors`
    /// instead, whichever store reported it.
    public static let reportToStandardError: @Sendable (DefaultsError) -> Void = { error in
        if let route = defaultErrorRoute.value, let collector = route() {
            collector(error)
        } else {
            writeToStandardError(error)
        }
    }

    /// Writes ``standardErrorLine(of:)`` of `error` to standard error, whatever route is installed: the
    /// testing library's collector prints through it when asked to, so it never reaches itself again.
    package static func writeToStandardError(_ error: DefaultsError) {
        FileHandle.standardError.write(Data(standardErrorLine(of: error).utf8))
    }

    /// Consulted by ``reportToStandardError``, once installed: the handler that takes the error instead
    /// of standard error (the calling task's isolated scope's collector), or nil to print it.
    private static let defaultErrorRoute = InstalledHook<@Sendable () -> (@Sendable (DefaultsError) -> Void)?>()

    /// Installs `route`, which ``reportToStandardError`` asks, at each error, for the handler to report
    /// it to instead of standard error. A later call replaces it.
    package static func installDefaultErrorRoute(
        _ route: @escaping @Sendable () -> (@Sendable (DefaultsError) -> Void)?
    ) {
        defaultErrorRoute.install(route)
    }

    /// The line ``reportToStandardError`` writes for `error`.
    static func standardErrorLine(of error: DefaultsError) -> String {
        "LayeredDefaults: \(PropertyListText.escapingControlCharacters(in: "\(error)"))\n"
    }
}
