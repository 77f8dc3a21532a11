import Foundation
import LayeredDefaults

/// `prefs backup <domain> <file> [--replace]`: a complete copy of a domain, taken safely while it is in use.
enum Backup: Command {
    static let declaration = CommandDeclaration(
        synopsis: "backup <domain> <file> [--replace]", operandKinds: [.domain, .file],
        options: [.replace],
        help: """
            Writes a complete copy of <domain> to <file> (one SQLite file, mode 0600), safe while it is in use.

            Copies every committed write, also those still in the domain's -wal file (which a copy of
            <domain>.sqlite3 alone would lose), as one consistent snapshot, through SQLite's backup API.
            <file> is written in a hidden directory beside it (.<file>.backup-<UUID>) and renamed into
            place once complete; a backup killed before then leaves that directory, and the next backup
            into the same directory removes it. An existing <file> is refused unless --replace is given,
            which replaces it atomically.
            `prefs restore <domain> <file>` puts it back.
            Exit status: 0; 1 when the domain does not exist; 2 when <file> exists (without --replace);
            3 when it cannot be read or <file> written.
            """)

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = try operands(invocation, 2...2)
        let domain = try Context.domainName(operands[0])
        guard !operands[1].isEmpty else { throw PrefsError.usage("backup needs a file") }
        try context.domain(domain).backup(to: URL(fileURLWithPath: operands[1]), replacing: invocation.has(.replace))
    }
}
