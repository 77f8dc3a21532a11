import Foundation
import LayeredDefaults

/// `prefs prune --prefix <p> [--older-than <duration>] [--dry-run]`: deletes the files of leftover domains.
enum Prune: Command {
    static let verb = "prune"
    static let synopsis = "prune --prefix <prefix> [--older-than <duration>] [--dry-run]"
    static let summary = "Deletes the files of the domains whose names start with <prefix>: leftover test domains."
    static let details = """
        For each matching domain deletes <name>.sqlite3-wal, -shm and -journal and then <name>.sqlite3
        (SQLite's WAL first, so it can never be replayed into a new database of the same name). Only
        regular files are deleted (a domain whose database is not one is skipped, with a line on standard
        error); nothing else under the root is touched, and no store is opened.
        The global domain is never pruned. Use it for domains nobody has open: a process that still has
        one open keeps writing to a deleted file.
          --prefix <prefix>         required; letters, digits, '.', '-', '_'
          --older-than <duration>   only domains none of whose files changed within it: 90s, 15m, 2h, 7d, 1w, 1h30m
          --dry-run                 print what would be deleted, delete nothing
        Prints `Deleted <name>` (or `Would delete <name>`) for each domain. With --json:
        {"deleted":["name",...],"dryRun":false}.
        Exit status: 0, also when nothing matches; 2 for a bad option; 3 when a file cannot be deleted.
        """
    static let valuedOptions: Set<String> = ["--prefix", "--older-than"]
    static let flagOptions: Set<String> = ["--dry-run"]

    /// The JSON output.
    struct Report: Encodable {
        /// The domains deleted (or that would be, with `--dry-run`).
        let deleted: [String]
        /// True with `--dry-run`.
        let dryRun: Bool
    }

    static func run(_ invocation: Invocation, in context: Context) throws {
        _ = try operands(invocation, 0...0)
        guard let prefix = invocation.values["--prefix"] else { throw PrefsError.usage("prune needs --prefix <prefix>") }
        // NB: a prefix is valid when some name could start with it ("." and ".." included).
        guard !prefix.isEmpty, SuiteName.isValid(prefix + "x") else {
            throw PrefsError.usage("--prefix needs 1-127 letters, digits, '.', '-' or '_'")
        }
        let minimumAge = try invocation.values["--older-than"].map(DurationText.seconds)
        let dryRun = invocation.flags.contains("--dry-run")
        let now = Date()

        var deleted: [String] = []
        for domain in try context.domainNames() where domain.hasPrefix(prefix) && domain != Defaults.globalDomain {
            let database = context.file(of: domain).path
            guard isRegularFile(database) else {
                context.console.printError("prefs: skipped \(domain): '\(database)' is not a regular file")
                continue
            }
            let files = Location.companionSuffixes.map { database + $0 }.filter(isRegularFile) + [database]
            if let minimumAge, now.timeIntervalSince(lastChange(of: files)) < minimumAge { continue }
            if !dryRun {
                for file in files where unlink(file) != 0 && errno != ENOENT {
                    throw PrefsError.storage(
                        "cannot delete '\(file)' (\(String(cString: strerror(errno)))); the domains listed before were deleted")
                }
            }
            deleted.append(domain)
            if !context.json { context.console.print("\(dryRun ? "Would delete" : "Deleted") \(domain)") }
        }
        if context.json { context.console.print(try Output.jsonLine(Report(deleted: deleted, dryRun: dryRun))) }
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    private static func lastChange(of files: [String]) -> Date {
        files.compactMap { file -> Date? in
            var status = stat()
            guard lstat(file, &status) == 0 else { return nil }
            return Date(timeIntervalSince1970: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9)
        }.max() ?? .distantPast
    }
}
