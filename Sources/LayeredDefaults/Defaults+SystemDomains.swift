import Foundation

/// The system-wide layers of the search list, both read-only, both found under
/// ``Configuration/systemDirectories`` (XDG's `$XDG_CONFIG_DIRS`): the managed domain, whose keys an
/// administrator forces, and the system domain, defaults below the user's own.
extension Defaults {
    /// The managed and system stores of `suiteName` under the configuration's system directories, each
    /// in the directories' order, leaving out `persistent` (a store opened at one of those places, as
    /// `prefs --managed` does, is not a layer above or below itself), and their drop-in folders (the
    /// managed ones left out for a persistent domain at `root` that is a managed directory).
    ///
    /// Only existing files are opened, and nothing is created. A file that cannot be opened (corrupt,
    /// unreadable) is sent to the error handler and left out: the rest of the search list still works;
    /// a managed one is also returned as `managedFailure`, which then fails every write (see
    /// ``writing(in:key:_:)``).
    static func systemLayers(
        of suiteName: String, configuration: Configuration, excluding persistent: DomainStore?, root: String?
    )
        -> SystemLayers
    {
        // NB: a system directory without `layered-defaults` (the common case: /etc/xdg) holds no layer:
        // one `lstat` for it, instead of one for each of the four places below.
        let directories = configuration.systemDirectoryPaths.filter {
            DomainFiles.mayHoldEntries($0 + "/" + Location.systemSubdirectory)
        }
        guard !directories.isEmpty else { return SystemLayers() }
        let managed = existingStores(
            of: suiteName, under: Location.managedSubdirectory, in: directories, configuration: configuration,
            excluding: persistent)
        let system = existingStores(
            of: suiteName, under: Location.systemSubdirectory, in: directories, configuration: configuration,
            excluding: persistent)
        return SystemLayers(
            managed: managed.stores, system: system.stores, managedFailure: managed.failure,
            managedFailures: managed.failures, systemFailures: system.failures,
            managedDropIns: managedDropIns(of: suiteName, in: directories, configuration: configuration, root: root),
            systemDropIns: DropInFolder.existing(
                of: suiteName, under: Location.systemSubdirectory, in: directories, report: configuration.errorHandler))
    }

    /// The managed drop-in folders of `suiteName` under the configuration's system directories that exist
    /// now (see <doc:DropIns>): their keys are forced. None for a domain at `root` (a path without a
    /// trailing slash) that is itself a managed directory (`prefs --managed`): its databases come before
    /// the drop-ins, so they force nothing of it.
    static func managedDropIns(
        of suiteName: String, in directories: [String], configuration: Configuration, root: String?
    ) -> [DropInFolder] {
        if let root, configuration.systemDirectoryPaths.contains(where: { root == $0 + "/" + Location.managedSubdirectory }) {
            return []
        }
        return DropInFolder.existing(
            of: suiteName, under: Location.managedSubdirectory, in: directories, report: configuration.errorHandler)
    }

    /// The managed and system stores of a suite, and the files of each that could not be opened.
    struct SystemLayers {
        var managed: [DomainStore] = [], system: [DomainStore] = []
        /// The error of the first managed file that cannot be opened: every write then fails.
        var managedFailure: DefaultsError? = nil
        /// The files that could not be opened, with their errors: left out of the search, named by an explanation.
        var managedFailures: [(path: String, error: DefaultsError)] = [],
            systemFailures: [(path: String, error: DefaultsError)] = []
        /// The drop-in folders of each layer that exist (usually none).
        var managedDropIns: [DropInFolder] = [], systemDropIns: [DropInFolder] = []
    }

    /// The managed stores of `suiteName` (see ``systemLayers(of:configuration:excluding:root:)``), and the
    /// error of the first that exists but cannot be opened.
    static func managedLayer(
        of suiteName: String, configuration: Configuration, excluding persistent: DomainStore?
    ) -> (stores: [DomainStore], failure: DefaultsError?) {
        let layer = existingStores(
            of: suiteName, under: Location.managedSubdirectory, in: configuration.systemDirectoryPaths,
            configuration: configuration, excluding: persistent)
        return (layer.stores, layer.failure)
    }

    /// The keys a managed layer (``managedLayer(of:configuration:excluding:)``) forces, with those its
    /// drop-in folders set (each file checked by `schema`; a file left out forces nothing).
    /// - Throws: the layer's failure: when a managed file exists but cannot be read, no key of it can be
    ///   known to be free (fail closed); or an error reading one of its stores.
    static func forcedKeys(
        of layer: (stores: [DomainStore], failure: DefaultsError?), dropIns: [DropInFolder], schema: PreferenceSchema?
    ) throws -> Set<String> {
        if let failure = layer.failure { throw failure }
        var keys = dropIns.isEmpty ? Set<String>() : DropInLayer.keys(of: dropIns, schema: schema)
        for store in layer.stores {
            keys.formUnion(try store.allValues(fromAnotherTransaction: .answeredWithoutWaiting).values.keys)
        }
        return keys
    }

    /// The stores of `suiteName` in `subdirectory` of each system directory where its file exists, and
    /// the error of the first that cannot be opened, or whose existence cannot be known (each such error
    /// also sent to the error handler).
    private static func existingStores(
        of suiteName: String, under subdirectory: String, in directories: [String], configuration: Configuration,
        excluding persistent: DomainStore?
    ) -> (stores: [DomainStore], failure: DefaultsError?, failures: [(path: String, error: DefaultsError)]) {
        var failures: [(path: String, error: DefaultsError)] = []
        // Absent layers are the common case and must cost next to nothing at open: one `lstat` each,
        // paths joined as strings, no registry, no URL.
        let stores = directories.compactMap { directory -> DomainStore? in
            let root = directory + "/" + subdirectory
            let file = StoreRegistry.path(of: suiteName, inDirectory: root)
            do {
                // NB: a file that may exist (a directory of ours on the way this user may not search) is a
                // failure, like a file that cannot be read: a managed layer fails closed.
                guard try DomainFiles.entryExists(file, in: directory) else { return nil }
                let registry = StoreRegistry(
                    root: URL(fileURLWithPath: root, isDirectory: true),
                    busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds)
                return try registry.store(named: suiteName, create: false).flatMap { $0 === persistent ? nil : $0 }
            } catch {
                let failure = DefaultsError.wrapping(error, suite: suiteName)
                configuration.errorHandler(failure)
                failures.append((file, failure))
                return nil
            }
        }
        return (stores, failures.first?.error, failures)
    }
}
