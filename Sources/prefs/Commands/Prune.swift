import Foundation
import LayeredDefaults

/// `prefs prune --prefix <p> (--older-than <duration> | --any-age) [--dry-run]`: deletes the files of
/// leftover domains.
enum Prune: Command {
    static let declaration = CommandDeclaration(
        synopsis: "prune --prefix <prefix> (--older-than <duration> | --any-age) [--dry-run]",
        options: [.prefix, .olderThan, .anyAge, .dryRun],
        help: """
            Deletes the files of the domains whose names start with <prefix>: leftover test domains.

            For each matching domain deletes <name>.sqlite3-wal, -shm and -journal and then <name>.sqlite3
            (SQLite's WAL first, so it can never be replayed into a new database of the same name). Only
            regular files are deleted; nothing else under the root is touched, and no store is opened. A
            domain that has only a -wal, -shm or -journal left (no database) is pruned too.
            A bulk deletion is never implied: the prefix must name at least two labels of a reverse-DNS
            name (com.example. or test.run-, not com, com. or x), and an age is required: --older-than,
            or --any-age for domains of any age.
            A domain is skipped, and named on standard error, when its database is not a regular file or
            when a process has it open (SQLite's lock on its -shm file tells): a process that has a domain
            open would go on writing to a deleted file. The global domain is never pruned. The age is asked
            again as each domain is deleted: one changed since it was listed (while prune asked) is skipped.
            On a terminal (standard input and standard error), the domains are listed and prune asks before
            deleting anything; typed on a terminal with standard error sent elsewhere, it refuses (the question
            would not be seen); elsewhere (a script) it deletes without asking. A domain with a -wal, -shm or
            -journal that is not a regular file (a link, a directory) is skipped and named.
            Prints `Deleted <name>` (or `Would delete <name>`) for each domain. With --json:
            {"deleted":["name",...],"dryRun":false}.
            Exit status: 0, also when nothing matches; 1 when the question is not answered yes (nothing is
            deleted); 2 for a bad option; 3 when a file cannot be deleted.
            """)

    /// The JSON output.
    struct Report: Encodable {
        /// The domains deleted (or that would be, with `--dry-run`).
        let deleted: [String]
        /// True with `--dry-run`.
        let dryRun: Bool
    }

    static func run(_ invocation: Invocation, in context: Context) throws {
        _ = try operands(invocation, 0...0)
        let prefix = try checkedPrefix(invocation.value(of: .prefix))
        let minimumAge = try self.minimumAge(invocation)
        let dryRun = invocation.has(.dryRun)
        let now = Date()

        var chosen: [Defaults.Domain] = []
        let names = Set(try context.domainNames()).union(companionOnlyNames(in: context.directory)).sorted()
        for name in names where name.hasPrefix(prefix) && name != Defaults.globalDomain {
            let domain = try context.domain(name)
            // NB: a companion that is not a regular file (a link, a directory) is never deleted, and would
            // leave the domain unusable behind a "Deleted".
            switch try domain.deletability(unchangedFor: minimumAge, now: now) {
            case .deletable: chosen.append(domain)
            case .changedRecently: continue
            case .notRegularFile(let file):
                context.console.warn("skipped \(name): '\(file.path)' is not a regular file", json: context.json)
            case .open: context.console.warn(skippedOpen(name), json: context.json)
            }
        }
        if !dryRun, !chosen.isEmpty, context.console.isInteractive() {
            try confirm(chosen.map(\.name), in: context)
        } else if !dryRun, !chosen.isEmpty, context.console.inputIsTerminal() {
            // NB: typed on a terminal with standard error sent elsewhere, the question would not be seen.
            throw PrefsError.usage(
                "prune asks before deleting when run from a terminal, but standard error is not one, so the question would not be seen; nothing was deleted: keep standard error on the terminal, or run it from a script"
            )
        }

        var deleted: [String] = []
        for domain in chosen {
            if !dryRun {
                do {
                    // NB: the age is asked again as the files are deleted (the question may have waited for
                    // minutes), under the deletion's locks.
                    guard try domain.delete(unchangedFor: minimumAge) else {
                        context.console.warn(
                            "skipped \(domain.name): it changed (or went) since it was listed; prune again", json: context.json)
                        continue
                    }
                } catch .domainInUse {
                    // A process may have opened it since it was chosen: delete() looks again.
                    context.console.warn(skippedOpen(domain.name), json: context.json)
                    continue
                } catch {
                    throw PrefsError.storage("\(error.description); the domains listed before were deleted")
                }
            }
            deleted.append(domain.name)
            if !context.json { context.console.print("\(dryRun ? "Would delete" : "Deleted") \(domain.name)") }
        }
        if context.json { context.console.print(try Output.jsonLine(Report(deleted: deleted, dryRun: dryRun))) }
    }

    /// The `--prefix`, when it is one a bulk deletion may use: letters, digits, '.', '-', '_', and at
    /// least two labels of a reverse-DNS name (`com.example.`, `test.run-`, `com.e`), so that no prefix
    /// matches every domain of a vendor or of a top-level name (`com`, `com.`, `x`).
    /// - Throws: ``PrefsError/usage(_:)`` otherwise.
    static func checkedPrefix(_ prefix: String?) throws(PrefsError) -> String {
        guard let prefix else {
            throw .usage("prune needs --prefix <prefix>, the start of the names to delete; nothing was deleted")
        }
        // NB: the characters are valid when some name could start with them ("." and ".." included).
        guard !prefix.isEmpty, Defaults.Domain.isValidName(prefix + "x") else {
            throw .usage("--prefix needs 1-127 letters, digits, '.', '-' or '_'; nothing was deleted")
        }
        let labels = prefix.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, !labels[0].isEmpty, !labels[1].isEmpty else {
            throw .usage(
                "--prefix must name at least two labels, such as com.example. or test.run- (a first label alone, like com or com., matches every domain under it); nothing was deleted"
            )
        }
        return prefix
    }

    /// The `--older-than` age, nil with `--any-age`.
    /// - Throws: ``PrefsError/usage(_:)`` unless exactly one of them is given, or for a bad duration.
    private static func minimumAge(_ invocation: Invocation) throws(PrefsError) -> Duration? {
        let anyAge = invocation.has(.anyAge)
        switch (invocation.value(of: .olderThan), anyAge) {
        case (nil, false):
            throw .usage(
                "prune needs an age: --older-than <duration> (e.g. 7d), or --any-age to delete matching domains of any age; nothing was deleted"
            )
        case (_?, true):
            throw .usage("give either --older-than or --any-age, not both; nothing was deleted")
        case (let duration?, false):
            // NB: clamped below Int64's largest number of seconds (older than any file anyway), past
            // which making a Duration traps.
            return .seconds(Int64(min(try DurationText.seconds(duration), 9e18)))
        case (nil, true):
            return nil
        }
    }

    /// The names of the domains in `directory` that have a `-wal`, `-shm` or `-journal` and no database
    /// (what a deletion killed midway, or a crash, leaves): `Defaults.Domain.delete()` deletes them, and a
    /// log left there would be applied to a new database of the name.
    private static func companionOnlyNames(in directory: URL) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let present = Set(entries)
        return entries.compactMap { entry -> String? in
            guard let suffix = ["-wal", "-shm", "-journal"].first(where: { entry.hasSuffix(".sqlite3" + $0) }) else {
                return nil
            }
            let database = String(entry.dropLast(suffix.count))
            let name = String(database.dropLast(".sqlite3".count))
            return present.contains(database) || !Defaults.Domain.isValidName(name) ? nil : name
        }
    }

    /// Lists `domains` on the error stream and asks whether to delete them.
    /// - Throws: ``PrefsError/notFound(_:)`` unless the answer is yes.
    private static func confirm(_ domains: [String], in context: Context) throws(PrefsError) {
        let console = context.console
        console.printError(
            "prefs: prune will delete \(domains.count) domain\(domains.count == 1 ? "" : "s") under \(context.directory.path):")
        for domain in domains { console.printError("  \(domain)") }
        console.writeError("Delete \(domains.count == 1 ? "it" : "them")? [y/N] ")
        let answer = console.readLine()?.trimmingCharacters(in: .whitespaces).lowercased()
        guard answer == "y" || answer == "yes" else { throw .notFound("prune was not confirmed; nothing was deleted") }
    }

    private static func skippedOpen(_ domain: String) -> String {
        "skipped \(domain): a process has it open (its -shm file is locked); close it, then prune again"
    }
}
