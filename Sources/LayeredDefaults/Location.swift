import Foundation

/// Where a store keeps its persistent domains: one SQLite file per domain, `<root>/<suite name>.sqlite3`.
public enum Location: Sendable, Hashable {
    /// The directory named by `LAYERED_DEFAULTS_HOME`; else `$XDG_CONFIG_HOME/layered-defaults`; else
    /// `~/.config/layered-defaults`. Read from the environment when a store is created. In a test process
    /// that links `LayeredDefaultsTesting`, never the real one: inside a test's isolated scope it is the
    /// test's own location, elsewhere (on any thread or task) memory only, and the running test fails.
    case `default`
    /// An explicit directory; created (mode 0700) when missing.
    case directory(URL)
    /// No file at all: every domain lives in memory, private to the one ``Defaults`` instance created
    /// with it, and disappears with it. Two instances created with `.inMemory`, even of the same suite,
    /// share nothing, and nothing is seen by other processes. For unit tests and previews.
    case inMemory

    /// The file extension of a domain's database.
    public static let fileExtension = "sqlite3"

    /// The suffixes of the files SQLite keeps beside a domain's database (`<name>.sqlite3-wal`...): its
    /// write-ahead log, its shared-memory index and its rollback journal. What admits, repairs or
    /// deletes a domain treats these with the database.
    static let companionSuffixes = ["-wal", "-shm", "-journal"]

    /// The names of the persistent domains in `directory`: its entries `<name>.sqlite3` whose names are
    /// valid suite names, sorted. Opens and creates nothing; empty when the directory does not exist.
    /// - Throws: ``DefaultsError/permissionDenied(path:)`` when this user may not list the directory, or
    ///   ``DefaultsError/fileSystemFailure(path:operation:code:)`` (e.g. a file in its place): never an
    ///   empty answer that is not true.
    static func domainNames(in directory: URL) throws -> [String] {
        // NB: a directory that can be listed but not searched (mode 0600) lists domains none of which can
        // be opened: refuse it as well.
        guard access(directory.path, R_OK | X_OK) == 0, let stream = opendir(directory.path) else {
            if errno == ENOENT { return [] }
            throw DefaultsError.fileSystem(errno, path: directory.path, operation: "list")
        }
        defer { closedir(stream) }
        let suffix = "." + fileExtension
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            guard name.hasSuffix(suffix) else { continue }
            names.append(String(name.dropLast(suffix.count)))
        }
        return names.filter(SuiteName.isValid).sorted()
    }

    /// The status of the entry at `path` itself (`lstat`: a symbolic link is not followed), or nil when
    /// there is none.
    /// - Throws: ``DefaultsError/permissionDenied(path:)`` naming the entry's directory when this user may
    ///   not search it, or ``DefaultsError/fileSystemFailure(path:operation:code:)``: never "none" when that
    ///   is not known.
    static func status(ofEntry path: String) throws -> stat? {
        var status = stat()
        if lstat(path, &status) == 0 { return status }
        guard errno == ENOENT else {
            throw DefaultsError.fileSystem(errno, path: (path as NSString).deletingLastPathComponent, operation: "search")
        }
        return nil
    }

    /// The system-wide configuration directories named by `XDG_CONFIG_DIRS` (colon-separated, most
    /// important first), `/etc/xdg` when it is unset or names none. Relative entries are ignored, as the
    /// XDG Base Directory specification asks.
    ///
    /// In a test process that links `LayeredDefaultsTesting`, the default (no `environment`) is the test
    /// scope's (none), when a scope is bound on the calling task.
    /// - Parameter environment: the environment to read; nil (the default) reads the process's.
    public static func systemDirectories(environment: [String: String]? = nil) -> [URL] {
        if environment == nil, let resolved = DefaultLocationResolver.installed?.systemDirectories() { return resolved }
        let named = (variable("XDG_CONFIG_DIRS", in: environment) ?? "").split(separator: ":").filter { $0.hasPrefix("/") }
        return (named.isEmpty ? ["/etc/xdg"] : named.map(String.init)).map { URL(fileURLWithPath: $0, isDirectory: true) }
    }

    /// The directory of the system domains under the configuration directory `directory`:
    /// `<directory>/layered-defaults`.
    static func systemRoot(in directory: URL) -> URL {
        directory.appendingPathComponent(systemSubdirectory, isDirectory: true)
    }

    /// The directory of the managed domains under the configuration directory `directory`:
    /// `<directory>/layered-defaults/managed`.
    static func managedRoot(in directory: URL) -> URL {
        directory.appendingPathComponent(managedSubdirectory, isDirectory: true)
    }

    /// Where ``systemRoot(in:)`` is, relative to its configuration directory.
    static let systemSubdirectory = "layered-defaults"
    /// Where ``managedRoot(in:)`` is, relative to its configuration directory.
    static let managedSubdirectory = "layered-defaults/managed"
    /// What a suite's name is followed by to name its drop-in folder beside its database (see <doc:DropIns>).
    static let dropInSuffix = ".d"

    /// The directory this location resolves to, or nil for ``inMemory``: for ``default``,
    /// `$LAYERED_DEFAULTS_HOME` when set, else `$XDG_CONFIG_HOME/layered-defaults` (`~/.config/layered-defaults`).
    /// Resolving creates nothing.
    /// - Parameter environment: the environment to read for ``default``; nil (the default) reads the
    ///   process's (in a test process that links `LayeredDefaultsTesting`, the isolated scope's own root).
    public func root(environment: [String: String]? = nil) -> URL? {
        switch self {
        case .inMemory:
            return nil
        case .directory(let url):
            return url
        case .default:
            // An explicit environment is read as given (the `prefs` tool, tests of this resolution);
            // else an installed resolver (a test process's) decides, whatever the thread or task.
            if environment == nil, let resolver = DefaultLocationResolver.installed { return resolver.root() }
            if let home = Self.variable("LAYERED_DEFAULTS_HOME", in: environment), !home.isEmpty {
                return URL(fileURLWithPath: home, isDirectory: true)
            }
            return Self.baseDirectory("XDG_CONFIG_HOME", inHome: ".config", environment: environment)
                .appendingPathComponent("layered-defaults", isDirectory: true)
        }
    }

    /// A base directory of the user's, as the XDG Base Directory specification resolves it: the one the
    /// environment variable `variable` names when it is an absolute path, else `relative` in the home
    /// directory (`HOME`, else the user's).
    /// - Parameters:
    ///   - variable: the variable, such as `XDG_CONFIG_HOME`.
    ///   - relative: the directory's default place in the home directory, such as `.config`.
    ///   - environment: the environment to read; nil reads the process's.
    package static func baseDirectory(_ variable: String, inHome relative: String, environment: [String: String]?) -> URL {
        if let directory = Self.variable(variable, in: environment), directory.hasPrefix("/") {
            return URL(fileURLWithPath: directory, isDirectory: true)
        }
        return homeDirectory(environment: environment).appendingPathComponent(relative, isDirectory: true)
    }

    /// The home directory: `HOME`, else the user's.
    /// - Parameter environment: the environment to read; nil reads the process's.
    static func homeDirectory(environment: [String: String]?) -> URL {
        Self.variable("HOME", in: environment).map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
    }

    /// The environment variable `name`: from `environment` when given (tests), else from the process.
    ///
    /// `getenv`, not `ProcessInfo.processInfo.environment`, which copies the whole environment into a
    /// dictionary on every call (a large part of opening a store: docs/PERFORMANCE.md).
    private static func variable(_ name: String, in environment: [String: String]?) -> String? {
        if let environment { return environment[name] }
        return getenv(name).flatMap { String(validatingCString: $0) }
    }
}
