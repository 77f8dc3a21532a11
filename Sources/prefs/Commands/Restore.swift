import Foundation
import LayeredDefaults

/// `prefs restore <domain> <file>`: puts a backup back into a domain, safely while it is in use.
enum Restore: Command {
    static let declaration = CommandDeclaration(
        synopsis: "restore <domain> <file>", operandKinds: [.domain, .file],
        help: """
            Replaces the whole of <domain> with the backup <file>, safe while the domain is in use.

            <file> is checked first (a healthy LayeredDefaults store, as `prefs backup` writes, whose rows
            all read back exactly) and refused otherwise, changing nothing. Then its rows replace the
            domain's in one transaction on the live database: running apps see the old content or the
            restored one, never a mix, and their observers see it as another process's commit. A key the
            managed domain forces keeps its row, named in a warning. The domain is created when missing; <file> is not modified.
            Never restore by moving or copying a file over <domain>.sqlite3: a process that has the domain
            open keeps the old file, and its -wal and -shm make the restored keys vanish.
            A corrupt domain: move it aside with `prefs repair <domain>` first.
            Exit status: 0; 2 when <file> is not a backup; 3 when the domain cannot be written.
            """)

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = try operands(invocation, 2...2)
        let domain = try Context.domainName(operands[0])
        guard !operands[1].isEmpty else { throw PrefsError.usage("restore needs a file") }
        let backup = URL(fileURLWithPath: operands[1])
        // NB: the domain's file is made by the restore itself, only once the backup is accepted.
        let kept = try context.domain(domain).restore(from: backup)
        context.reportKept(kept, in: domain)
    }
}
