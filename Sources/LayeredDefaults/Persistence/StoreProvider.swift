import Foundation

/// Finds the ``SuiteStore`` of a domain name at one ``Location``.
///
/// For a directory, stores are shared by the whole process (one connection per file per process),
/// held weakly so a domain nobody uses is closed. In memory, each provider (each ``Defaults``
/// created with ``Location/inMemory``) has private stores of its own.
final class StoreProvider: Sendable {
    /// The root directory, or nil in memory.
    let root: URL?
    /// The private stores of an in-memory provider.
    private let memoryStores = Lock<[String: SuiteStore]>([:])
    /// How long a write waits for another connection's lock before failing with ``DefaultsError/busy(suite:key:)``.
    let busyTimeoutMilliseconds: Int32

    private final class WeakStore: Sendable {
        weak let store: SuiteStore?
        init(_ store: SuiteStore) { self.store = store }
    }

    /// The open file-backed stores of this process, by file path.
    private static let openStores = Lock<[String: WeakStore]>([:])

    init(location: Location, busyTimeoutMilliseconds: Int32) {
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        root = location.root()?.standardizedFileURL
    }

    /// The database file of `name` (which must be valid) under `root`.
    static func path(of name: String, in root: URL) -> String {
        root.appendingPathComponent(name + "." + Location.fileExtension).path
    }

    /// The database file of `name` (which must be valid) under the real path of the root, or nil in memory.
    ///
    /// NB: SQLite, opened with NOFOLLOW, refuses a symbolic link anywhere in a path, not only the file
    /// itself, and a root reached through a link (a dotfile manager's `~/.config`, macOS's `/var`) is
    /// the user's choice. It also gives one file one spelling, so one store per file per process: two
    /// stores of one file would each hold a descriptor of its `-shm`, and closing one drops every POSIX
    /// lock the process holds on it, SQLite's included. The file itself is still checked with lstat.
    func filePath(of name: String) -> String? {
        guard let root else { return nil }
        var existing = root.path
        var missing: [String] = []
        while existing.count > 1, access(existing, F_OK) != 0 {
            missing.insert((existing as NSString).lastPathComponent, at: 0)
            existing = (existing as NSString).deletingLastPathComponent
        }
        guard let resolved = realpath(existing, nil) else { return Self.path(of: name, in: root) }
        defer { free(resolved) }
        let real = missing.reduce(URL(fileURLWithPath: String(cString: resolved), isDirectory: true)) {
            $0.appendingPathComponent($1, isDirectory: true)
        }
        return Self.path(of: name, in: real)
    }

    /// The store of the domain `name`; with `create`, made when it does not exist yet, else nil then.
    /// - Throws: ``DefaultsError/invalidSuiteName(_:)`` before any file is touched, or what
    ///   ``SuiteStore/open(name:path:busyTimeoutMilliseconds:)`` throws.
    func store(named name: String, create: Bool = true) throws -> SuiteStore? {
        try SuiteName.validate(name)
        guard let root else {
            return memoryStores.withLock { stores in
                if let store = stores[name] { return store }
                guard create else { return nil }
                let store = SuiteStore.inMemory(name: name)
                stores[name] = store
                return store
            }
        }
        let path = filePath(of: name) ?? Self.path(of: name, in: root)
        return try Self.openStores.withLock { openStores in
            if let store = openStores[path]?.store { return store }
            guard create || FileManager.default.fileExists(atPath: path) else { return nil }
            if create { try Self.createRoot(root) }
            let store = try SuiteStore.open(name: name, path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            openStores = openStores.filter { $0.value.store != nil }
            openStores[path] = WeakStore(store)
            return store
        }
    }

    /// The names of the domains that exist: files `<name>.sqlite3` under the root, or the in-memory stores.
    func domainNames() -> [String] {
        guard let root else { return memoryStores.withLock { Array($0.keys) }.sorted() }
        return Location.domainNames(in: root)
    }

    /// Creates the root directory, mode 0700, when it does not exist, and its missing parents, 0700 too.
    ///
    /// NB: parents made with the umask (0777 under umask 000) would let other users rename the root
    /// away and put their own in its place; the XDG base directory spec asks for 0700 as well.
    private static func createRoot(_ root: URL) throws {
        guard !FileManager.default.fileExists(atPath: root.path) else { return }
        var missingParents: [String] = []
        var parent = root.deletingLastPathComponent().path
        while parent.count > 1, !FileManager.default.fileExists(atPath: parent) {
            missingParents.append(parent)
            parent = (parent as NSString).deletingLastPathComponent
        }
        for directory in missingParents.reversed() { _ = mkdir(directory, 0o700) }  // a failure shows at the root
        if mkdir(root.path, 0o700) != 0, errno != EEXIST, errno != EACCES, errno != EROFS {
            throw DefaultsError.storageFailure(
                suite: root.lastPathComponent, key: nil,
                SQLiteError(code: .cantOpen, message: "cannot create the store directory: \(String(cString: strerror(errno)))"))
        }
    }
}
