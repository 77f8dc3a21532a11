import Foundation

/// Where a store keeps its persistent domains: one SQLite file per domain, `<root>/<suite name>.sqlite3`.
public enum Location: Sendable, Hashable {
    /// The directory named by `LAYERED_DEFAULTS_HOME`; else `$XDG_CONFIG_HOME/layered-defaults`; else
    /// `~/.config/layered-defaults`. Read from the environment when a store is created.
    case `default`
    /// An explicit directory; created (mode 0700) when missing.
    case directory(URL)
    /// No file at all: every domain lives in memory, private to the one ``Defaults`` instance created
    /// with it, and disappears with it. Two instances created with `.inMemory`, even of the same suite,
    /// share nothing, and nothing is seen by other processes. For unit tests and previews.
    case inMemory

    /// The file extension of a domain's database.
    public static let fileExtension = "sqlite3"

    /// The names of the persistent domains in `directory`: its entries `<name>.sqlite3` whose names are
    /// valid suite names, sorted. Opens and creates nothing; empty when the directory does not exist.
    public static func domainNames(in directory: URL) -> [String] {
        let suffix = "." + fileExtension
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(suffix) }
            .map { String($0.dropLast(suffix.count)) }
            .filter(SuiteName.isValid)
            .sorted()
    }

    /// The directory this location resolves to, or nil for ``inMemory``.
    /// - Parameter environment: the environment to read for ``default``.
    public func root(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        switch self {
        case .inMemory:
            return nil
        case .directory(let url):
            return url
        case .default:
            if let home = environment["LAYERED_DEFAULTS_HOME"], !home.isEmpty {
                return URL(fileURLWithPath: home, isDirectory: true)
            }
            if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
                return URL(fileURLWithPath: config, isDirectory: true).appendingPathComponent("layered-defaults")
            }
            let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? FileManager.default.homeDirectoryForCurrentUser
            return home.appendingPathComponent(".config/layered-defaults", isDirectory: true)
        }
    }
}
