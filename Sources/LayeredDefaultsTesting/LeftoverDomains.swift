import Foundation
import LayeredDefaults

/// Finds and removes the domains that test runs left behind in a directory (a run that crashed or was
/// killed before its cleanup), by suite-name prefix, touching nothing else.
///
/// A leftover domain is a group of regular files `<name>.sqlite3`, `<name>.sqlite3-wal`,
/// `<name>.sqlite3-shm` and `<name>.sqlite3-journal` directly in the directory, where `<name>` starts
/// with the prefix and is a valid suite name. Directories, symbolic links, other files and other
/// domains are never touched, nor the global domain (`Defaults.globalDomain`), whatever the prefix.
///
/// ```swift
/// // At the start of a long-lived CI machine's test run:
/// try LeftoverDomains.remove(prefix: IsolatedDefaults.suiteNamePrefix, in: sharedRoot, olderThan: .seconds(3600))
/// ```
public enum LeftoverDomains {
    /// One leftover domain: its suite name and files.
    public struct Domain: Sendable, Hashable {
        /// The suite name.
        public let name: String
        /// The domain's files that exist, sorted by path.
        public let files: [URL]
        /// The latest modification date of its files.
        public let lastModified: Date
    }

    /// The prefix would match too much: it is empty, or holds a character no suite name has.
    public struct InvalidPrefix: Error, Sendable, Equatable, CustomStringConvertible {
        /// The refused prefix.
        public let prefix: String

        /// The error for a refused `prefix`.
        public init(prefix: String) { self.prefix = prefix }

        /// Says why the prefix was refused.
        public var description: String {
            "Refusing to look for leftover domains with the prefix \(prefix.debugDescription): use a non-empty prefix "
                + "of letters, digits, '.', '-' or '_', such as IsolatedDefaults.suiteNamePrefix"
        }
    }

    /// The leftover domains in `root` whose suite names start with `prefix` and whose files were all last
    /// modified more than `age` ago.
    ///
    /// ```swift
    /// let stale = try LeftoverDomains.find(prefix: "MyAppTests-", in: root, olderThan: .seconds(600))
    /// ```
    /// - Parameters:
    ///   - prefix: the start of the suite names to find; not empty. The default is
    ///     ``IsolatedDefaults/suiteNamePrefix``.
    ///   - root: the directory to look in (not its subdirectories). A missing directory has none.
    ///   - age: how long a domain must have been untouched, so that a test running right now keeps its
    ///     domain. The default is one hour; pass `.zero` for every match.
    /// - Returns: the domains, sorted by name.
    /// - Throws: ``InvalidPrefix`` (nothing is read), or an error listing the directory.
    public static func find(
        prefix: String = IsolatedDefaults.suiteNamePrefix, in root: URL, olderThan age: Duration = .seconds(3600)
    ) throws -> [Domain] {
        guard !prefix.isEmpty, Defaults.Domain.isValidName(prefix) else { throw InvalidPrefix(prefix: prefix) }
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: root.path)
        } catch CocoaError.fileReadNoSuchFile {
            return []
        }
        var groups: [String: [(url: URL, modified: Date)]] = [:]
        for entry in entries {
            guard let name = domainName(ofEntry: entry, in: root), name.hasPrefix(prefix), name != Defaults.globalDomain
            else { continue }
            let url = root.appendingPathComponent(entry, isDirectory: false)
            var status = stat()
            // NB: lstat, so a symbolic link is seen as a link (and skipped), never followed.
            guard lstat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
                let modified = try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date
            else { continue }
            groups[name, default: []].append((url, modified))
        }
        let cutoff = Date().addingTimeInterval(-(age / .seconds(1)))
        return groups.compactMap { name, files in
            let lastModified = files.map(\.modified).max()!
            guard lastModified <= cutoff else { return nil }
            return Domain(name: name, files: files.map(\.url).sorted { $0.path < $1.path }, lastModified: lastModified)
        }
        .sorted { $0.name < $1.name }
    }

    /// Removes the leftover domains ``find(prefix:in:olderThan:)`` finds: their files, and nothing else,
    /// through `Defaults.Domain.delete()`. A domain found that a process has open (a test still running),
    /// or one of whose files is not a regular file (a symbolic link, a directory), is left whole and is not
    /// in the result, as is one changed within `age` since it was found (asked again as it is deleted).
    ///
    /// ```swift
    /// let removed = try LeftoverDomains.remove(in: sharedRoot, olderThan: .seconds(3600))
    /// print("removed \(removed.count) leftover test domains")
    /// ```
    /// - Parameters:
    ///   - prefix: the start of the suite names to remove; not empty. The default is
    ///     ``IsolatedDefaults/suiteNamePrefix``.
    ///   - root: the directory to clean (not its subdirectories).
    ///   - age: how long a domain must have been untouched. The default is one hour.
    /// - Returns: the domains removed.
    ///   Each domain's companions (`-wal`, `-shm`, `-journal`) are deleted before its database, so that a
    ///   removal stopped midway never leaves a log without its database.
    /// - Throws: ``InvalidPrefix`` (nothing is touched), an error listing the directory, or a
    ///   `DefaultsError` naming the first file that could not be deleted (its database is then left).
    @discardableResult
    public static func remove(
        prefix: String = IsolatedDefaults.suiteNamePrefix, in root: URL, olderThan age: Duration = .seconds(3600)
    ) throws -> [Domain] {
        try find(prefix: prefix, in: root, olderThan: age).filter { found in
            do {
                // The age asked again as the files are deleted: a test that wrote since it was found keeps its domain.
                let domain = try Defaults.Domain(found.name, location: .directory(root), systemDirectories: [])
                return try domain.delete(unchangedFor: age)
            } catch DefaultsError.domainInUse, DefaultsError.unsafePath {
                return false
            }
        }
    }

    /// The name of the domain in `root` whose file (``Defaults/Domain/files``) the directory entry `entry`
    /// is, or nil when it is no domain's file.
    private static func domainName(ofEntry entry: String, in root: URL) -> String? {
        guard let end = entry.range(of: "." + Location.fileExtension, options: .backwards) else { return nil }
        let name = String(entry[..<end.lowerBound])
        guard let domain = try? Defaults.Domain(name, location: .directory(root), systemDirectories: []) else { return nil }
        return domain.files.contains { $0.lastPathComponent == entry } ? name : nil
    }

}
