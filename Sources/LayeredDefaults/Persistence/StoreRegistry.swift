import Foundation

/// The registry of open stores: finds the ``DomainStore`` of a domain name at one ``Location``.
///
/// For a directory, stores are shared by the whole process (one connection per file per process),
/// held weakly so a domain nobody uses is closed. In memory, each registry (each ``Defaults``
/// created with ``Location/inMemory``) has private stores of its own.
final class StoreRegistry: Sendable {
    /// The root directory, or nil in memory.
    let root: URL?
    /// ``root``'s path, without a trailing slash.
    ///
    /// Paths are joined as strings: building and reading `URL`s would be a cost of every open.
    let rootPath: String?
    /// The private stores of an in-memory registry.
    private let memoryStores = Lock<[String: DomainStore]>([:])
    /// How long a write waits for another connection's lock before failing with ``DefaultsError/busy(suite:key:)``.
    let busyTimeoutMilliseconds: Int32

    /// The process's entry for one file: its store while open, and the gate its opener holds.
    private struct Entry {
        /// The store of the file, while anyone uses it.
        weak var store: DomainStore?
        /// The store's path, by which a test selects stores without taking every other one.
        var path: String?
        /// Held by the thread opening the file, across the whole open: others of the same file wait on
        /// it, and only on it.
        let gate = Lock(())
        /// The threads between finding this entry and leaving its gate (opening, or waiting to): while
        /// any is, the entry stays, so that all of them share one gate.
        var users = 0
    }

    /// What the registry holds for a file: its open store, or the gate of its opening.
    private enum Found {
        /// The file's store, open.
        case open(DomainStore)
        /// The gate to take to open the file, or to wait for the one opening it.
        case opening(Lock<Void>)
    }

    /// The file-backed stores of this process, open or being opened, by the identity of their file.
    ///
    /// NB: held only to find or add an entry, never across an open (file checks, header, schema, up to
    /// the busy timeout): a slow open of one file must not stall the opening of every other.
    private static let entries = Lock<[FileIdentity: Entry]>([:])

    /// How many threads are opening a store of the database file at each path (as ``filePath(of:)`` spells
    /// it), from before they look at it until their store is registered in ``entries``.
    ///
    /// NB: taken alone, or inside ``entries``'s lock (by ``unlessOpen(_:_:)``), never the other way round.
    private static let openingPaths = Lock<[String: Int]>([:])

    /// Whether a new domain's file may make the root directory (see ``Defaults/Configuration/createsRoot``).
    let createsRoot: Bool

    /// The registry of the domains in `root` (nil: in memory).
    /// Whether the files this registry makes are a system-wide layer's (see ``Defaults/Configuration/sharesFiles``).
    let sharesFiles: Bool

    init(root: URL?, busyTimeoutMilliseconds: Int32, createsRoot: Bool = true, sharesFiles: Bool = false) {
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.createsRoot = createsRoot
        self.sharesFiles = sharesFiles
        let standardized = root.map(Self.standardized)
        self.root = standardized?.url
        self.rootPath = standardized?.path
    }

    /// The root last standardized, as given and as ``standardized(_:)`` made it.
    private static let lastRoot = Lock<(given: URL, url: URL, path: String)?>(nil)

    /// `root` standardized (`standardizedFileURL`) and its path without a trailing slash.
    ///
    /// Standardizing a URL and reading its path is a measurable part of opening a store, and a
    /// process opens its stores under one root (or a few, one after another): the last root's are
    /// remembered, and a root equal to it (`==`: the same URL string) costs a comparison. Only
    /// a root that standardizing left as it was, outside `/private/` and `/var/automount/`, is remembered:
    /// standardizing it is then lexical, the same whatever the file system holds (a `..` is resolved
    /// through symbolic links, and those prefixes are stripped when the shorter path exists).
    private static func standardized(_ root: URL) -> (url: URL, path: String) {
        if let last = lastRoot.withLock({ $0 }), last.given == root { return (last.url, last.path) }
        let url = root.standardizedFileURL
        let path = withoutTrailingSlash(url.path)
        if url == root, !path.hasPrefix("/private/"), !path.hasPrefix("/var/automount/") {
            lastRoot.withLock { $0 = (root, url, path) }
        }
        return (url, path)
    }

    /// The database file of `name` (which must be valid) under `root`.
    static func path(of name: String, in root: URL) -> String {
        path(of: name, inDirectory: withoutTrailingSlash(root.path))
    }

    /// The database file of `name` (which must be valid) in the directory at `directory` (no trailing slash).
    static func path(of name: String, inDirectory directory: String) -> String {
        directory + "/" + name + "." + Location.fileExtension
    }

    /// The directory of the file at `path`, an absolute path without a trailing slash (as
    /// ``path(of:inDirectory:)`` makes them): all before its last `/`, or `/` for a file at the root.
    static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// `path` without its trailing slash (`/` stays `/`), ready to have components joined to it.
    static func withoutTrailingSlash(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// The database file of `name` (which must be valid) under the real path of the root, or nil in memory.
    ///
    /// NB: SQLite, opened with NOFOLLOW, refuses a symbolic link anywhere in a path, not only the file
    /// itself, and a root reached through a link (a dotfile manager's `~/.config`, macOS's `/var`) is
    /// the user's choice. The file itself is still checked with lstat. (Which store is a file's is told
    /// by its identity, not by this spelling: see ``store(named:create:)``.)
    func filePath(of name: String) -> String? {
        guard let rootPath else { return nil }
        var existing = rootPath
        var missing: [String] = []
        while existing.count > 1, access(existing, F_OK) != 0 {
            missing.insert((existing as NSString).lastPathComponent, at: 0)
            existing = (existing as NSString).deletingLastPathComponent
        }
        guard let resolved = realpath(existing, nil) else { return Self.path(of: name, inDirectory: rootPath) }
        defer { free(resolved) }
        var real = Self.withoutTrailingSlash(String(cString: resolved))
        for component in missing { real += "/" + component }
        return Self.path(of: name, inDirectory: real)
    }

    /// The store of the domain `name`; with `create`, made when it does not exist yet, else nil then.
    ///
    /// NB: one store per file per process, found by the file's device and inode, however its path is
    /// spelled (a root renamed or mounted elsewhere while open): two stores of one file would each hold
    /// a descriptor of its `-shm`, and closing one drops every POSIX lock the process holds on it,
    /// SQLite's included.
    /// - Throws: ``DefaultsError/invalidSuiteName(_:)`` before any file is touched,
    ///   ``DefaultsError/permissionDenied(path:)`` when the root cannot be searched, or what
    ///   ``FileAdmission/create(_:mode:suite:)`` or ``DomainStore/open(name:path:status:busyTimeoutMilliseconds:)`` throws,
    ///   or ``DefaultsError/replacedFile(suite:path:)`` when the file was deleted or replaced each time it was opened.
    func store(named name: String, create: Bool = true) throws -> DomainStore? {
        try SuiteName.validate(name)
        guard rootPath != nil else {
            return memoryStores.withLock { stores in
                if let store = stores[name] { return store }
                guard create else { return nil }
                let store = DomainStore.inMemory(name: name)
                stores[name] = store
                return store
            }
        }
        let path = filePath(of: name)!
        if let found = try Location.status(ofEntry: path), let store = Self.entries.withLock({ $0[FileIdentity(found)]?.store }) {
            return store
        }
        // NB: counted from before the path is looked at (again) until the store is registered, so that a
        // deletion in this process (``unlessOpen(_:_:)``) never deletes a file a thread is about to open.
        Self.openingPaths.withLock { $0[path, default: 0] += 1 }
        defer {
            Self.openingPaths.withLock { paths in
                paths[path, default: 1] -= 1
                if paths[path] == 0 { paths[path] = nil }
            }
        }
        // NB: a file deleted (``Defaults/Domain/delete(unchangedFor:now:)``, here or in another process) between the look at
        // its path and SQLite's first read of it is looked at again, a bounded number of times: a store is
        // never made of a file that has no name left, nor registered under another file's identity.
        for attempt in 1...Self.openAttempts {
            let isLast = attempt == Self.openAttempts
            var found = try Location.status(ofEntry: path)
            if let found, let store = Self.entries.withLock({ $0[FileIdentity(found)]?.store }) { return store }
            guard create || found != nil else { return nil }
            if found == nil {
                if createsRoot { try Self.createRoot(rootPath!, mode: sharesFiles ? 0o755 : 0o700, suite: name) }
                do {
                    found = try FileAdmission.create(path, mode: sharesFiles ? 0o644 : 0o600, suite: name)
                } catch  where !isLast && FileIdentity(ofFileAt: path) == nil {
                    continue  // made, then deleted before it was looked at
                }
            }
            guard let found else {
                // A file this process may not create: nothing is stored, nothing can be.
                return DomainStore.inMemory(name: name, unavailable: .readOnly(suite: name, key: nil))
            }
            do {
                return try Self.store(of: FileIdentity(found)) {
                    try DomainStore.open(name: name, path: path, status: found, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
                }
            } catch is DomainStore.FileMovedWhileOpening {
                if isLast { throw DefaultsError.replacedFile(suite: name, path: path) }
            } catch  where !isLast && FileIdentity(ofFileAt: path) != FileIdentity(found) {
                // Deleted or replaced while SQLite opened it (a path that names nothing cannot be opened).
            }
        }
        throw DefaultsError.replacedFile(suite: name, path: path)
    }

    /// How many times ``store(named:create:)`` looks at a file deleted while it opened it.
    static let openAttempts = 3

    /// The open store of the file `identity`, else the one `open` opens, which then becomes it.
    ///
    /// The registry's lock is held only to find or add the file's entry; `open` runs holding that entry's
    /// gate alone, so other files open meanwhile and callers for this file wait for its one opener.
    /// - Throws: what `open` throws; the next caller for the file then tries again.
    private static func store(of identity: FileIdentity, open: () throws -> DomainStore) throws -> DomainStore {
        _ = checkpointsAtExit
        let found = entries.withLock { entries -> Found in
            if let store = entries[identity]?.store { return .open(store) }
            entries = entries.filter { $0.value.store != nil || $0.value.users > 0 }
            entries[identity, default: Entry()].users += 1
            return .opening(entries[identity]!.gate)
        }
        let gate: Lock<Void>
        switch found {
        case .open(let store): return store
        case .opening(let opening): gate = opening
        }
        defer { entries.withLock { $0[identity]?.users -= 1 } }
        return try gate.withLock { _ in
            if let store = entries.withLock({ $0[identity]?.store }) { return store }
            let store = try open()
            entries.withLock { entries in
                entries[identity]?.store = store
                entries[identity]?.path = store.path
            }
            return store
        }
    }

    /// Runs `body` unless this process has a store of the database file at `path` open, or is opening one
    /// (the file found by its identity, or an open store by its path: a file moved over it since; or a
    /// thread opening one at `path`, the file not yet looked at or not yet registered), and
    /// returns what it returns; nil, without running it, when the process has.
    ///
    /// NB: the registry's lock is held across `body`, so that no store of the file opens meanwhile: a
    /// `body` that opens and closes the file's `-shm` (``DomainFiles/isOpen(_:)``) would drop the POSIX
    /// locks of a store opened in between. `body` must be short and must not open a store.
    /// - Parameter path: the database file, as ``filePath(of:)`` spells it.
    static func unlessOpen<Result: Sendable>(
        _ path: String, _ body: () throws(DefaultsError) -> Result
    ) throws(DefaultsError) -> Result? {
        let identity = FileIdentity(ofFileAt: path)
        return try entries.withLock { entries throws(DefaultsError) -> Result? in
            let inUse =
                openingPaths.withLock { $0[path] != nil }
                || entries.contains { key, entry in
                    (entry.store != nil || entry.users > 0) && (key == identity || (entry.store != nil && entry.path == path))
                }
            return inUse ? nil : try body()
        }
    }

    /// Registered once, when the process opens its first file: at exit, each store still open copies its
    /// log into its database (``DomainStore/checkpointAtExit()``).
    ///
    /// NB: a process ends without closing the stores it kept (`Defaults.standard`, a static instance), and
    /// SQLite checkpoints only at a connection's close; so a short-lived app left its last writes in the
    /// `-wal` alone, and a copy of the database file without it (a dotfile user's `cp`) missed them.
    private static let checkpointsAtExit: Void = { atexit { StoreRegistry.checkpointOpenStores() } }()

    /// Copies the log of each open store into its database, skipping any whose lock another thread holds,
    /// and the registry itself when another thread holds its lock: what runs at exit, never waiting.
    static func checkpointOpenStores() {
        guard let stores = entries.withLockIfAvailable({ $0.values.compactMap(\.store) }) else { return }
        for store in stores { store.checkpointAtExit() }
    }

    /// Runs the idle checkpoint now (``DomainStore/checkpointIfIdle()``) of each open store whose file is
    /// under `root`: a seam for tests of several stores, "the quiet period has passed".
    static func checkpointIfIdleForTesting(under root: URL) {
        let prefix = StoreRegistry.withoutTrailingSlash(root.standardizedFileURL.resolvingSymlinksInPath().path) + "/"
        // Selected by path before any store is taken: another test's store, released meanwhile, closes at once.
        let stores = entries.withLock { $0.values.filter { $0.path?.hasPrefix(prefix) == true }.compactMap(\.store) }
        for store in stores { store.checkpointIfIdle() }
    }

    /// The names of the domains that exist: files `<name>.sqlite3` under the root, or the in-memory stores.
    /// - Throws: as ``Location/domainNames(in:)``.
    func domainNames() throws -> [String] {
        guard let root else { return memoryStores.withLock { Array($0.keys) }.sorted() }
        return try Location.domainNames(in: root)
    }

    /// Creates the root directory with `mode` (0700, or 0755 for a system-wide layer), when it does not exist, and its missing parents with the same mode.
    ///
    /// NB: parents made with the umask (0777 under umask 000) would let other users rename the root
    /// away and put their own in its place; the XDG base directory spec asks for 0700 as well. And a
    /// restrictive umask (0177) would leave a directory that not even its owner can search: so each
    /// directory made here is set to 0700 afterwards (mkdir's mode is filtered by the umask, chmod's is not).
    private static func createRoot(_ root: String, mode: mode_t, suite: String) throws {
        do throws(FileActs.Failure) {
            try FileActs.createDirectories(root, mode: mode)
        } catch let failure where failure.path == root && (failure.code == EACCES || failure.code == EROFS) {
            // A root this process may not create makes the store read-only.
        } catch {
            throw DefaultsError.system(error.code, path: error.path, operation: "create the store directory", suite: suite)
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

    /// The identity of the file at `path`, nil when nothing is there: of the entry itself (`lstat`), or
    /// with `followingLinks` of what a symbolic link there names (`stat`).
    ///
    /// Through `withCString`, which lends a native string's own bytes: the implicit conversion of a
    /// `String` argument copied it into a new array, at each call. Always inlined: a write makes three
    /// calls, which out of line cost it more (`scripts/perf-budget.sh` measures it).
    @inline(__always)
    init?(ofFileAt path: String, followingLinks: Bool = false) {
        var status = stat()
        let found = path.withCString { followingLinks ? stat($0, &status) : lstat($0, &status) }
        if found != 0 { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
