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

    /// The open file-backed stores of this process, by the identity of their file.
    private static let openStores = Lock<[FileIdentity: WeakStore]>([:])

    init(configuration: Defaults.Configuration) {
        busyTimeoutMilliseconds = configuration.busyTimeoutMilliseconds
        root = configuration.location.root()?.standardizedFileURL
    }

    /// The database file of `name` (which must be valid) under `root`.
    static func path(of name: String, in root: URL) -> String {
        root.appendingPathComponent(name + "." + Location.fileExtension).path
    }

    /// The database file of `name` (which must be valid) under the real path of the root, or nil in memory.
    ///
    /// NB: SQLite, opened with NOFOLLOW, refuses a symbolic link anywhere in a path, not only the file
    /// itself, and a root reached through a link (a dotfile manager's `~/.config`, macOS's `/var`) is
    /// the user's choice. The file itself is still checked with lstat. (Which store is a file's is told
    /// by its identity, not by this spelling: see ``store(named:create:)``.)
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
    ///
    /// NB: one store per file per process, found by the file's device and inode, however its path is
    /// spelled (a root renamed or mounted elsewhere while open): two stores of one file would each hold
    /// a descriptor of its `-shm`, and closing one drops every POSIX lock the process holds on it,
    /// SQLite's included.
    /// - Throws: ``DefaultsError/invalidSuiteName(_:)`` before any file is touched,
    ///   ``DefaultsError/permissionDenied(path:)`` when the root cannot be searched, or what
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
            let status = try Location.status(ofEntry: path)
            if let status, let store = openStores[FileIdentity(status)]?.store { return store }
            guard create || status != nil else { return nil }
            if create { try Self.createRoot(root, suite: name) }
            let store = try SuiteStore.open(name: name, path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            openStores = openStores.filter { $0.value.store != nil }
            if let identity = store.identity { openStores[identity] = WeakStore(store) }
            return store
        }
    }

    /// The names of the domains that exist: files `<name>.sqlite3` under the root, or the in-memory stores.
    /// - Throws: as ``Location/domainNames(in:)``.
    func domainNames() throws -> [String] {
        guard let root else { return memoryStores.withLock { Array($0.keys) }.sorted() }
        return try Location.domainNames(in: root)
    }

    /// Creates the root directory, mode 0700, when it does not exist, and its missing parents, 0700 too.
    ///
    /// NB: parents made with the umask (0777 under umask 000) would let other users rename the root
    /// away and put their own in its place; the XDG base directory spec asks for 0700 as well. And a
    /// restrictive umask (0177) would leave a directory that not even its owner can search: so each
    /// directory made here is set to 0700 afterwards (mkdir's mode is filtered by the umask, chmod's is not).
    private static func createRoot(_ root: URL, suite: String) throws {
        guard !FileManager.default.fileExists(atPath: root.path) else { return }
        var missingParents: [String] = []
        var parent = root.deletingLastPathComponent().path
        while parent.count > 1, !FileManager.default.fileExists(atPath: parent) {
            missingParents.append(parent)
            parent = (parent as NSString).deletingLastPathComponent
        }
        for directory in missingParents.reversed() + [root.path] {
            if mkdir(directory, 0o700) == 0 {
                chmod(directory, 0o700)
            } else if directory == root.path, errno != EEXIST, errno != EACCES, errno != EROFS {
                // NB: a parent's failure shows at the root; a read-only one makes the store read-only.
                throw DefaultsError.system(errno, path: directory, operation: "create the store directory", suite: suite)
            }
        }
    }
}

/// The identity of a file, whatever its path: its device and inode.
struct FileIdentity: Hashable, Sendable {
    /// The device holding the file (`st_dev`).
    let device: UInt64
    /// The file's inode number on that device (`st_ino`).
    let inode: UInt64

    /// The identity of the file `status` describes (from `stat` or `lstat`).
    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
