import Foundation
import LayeredDefaults

/// `prefs repair <domain>`: the explicit, opt-in recovery of a domain whose file cannot be opened.
enum Repair: Command {
    static let declaration = CommandDeclaration(
        synopsis: "repair <domain>", operandKinds: [.domain],
        help: """
            Moves an unreadable domain file aside (never deletes it) so the domain starts empty.

            Only when <domain>'s file cannot be opened as a store (garbage, truncated, a foreign or newer
            database): the file and its -wal/-shm/-journal are renamed to <domain>.sqlite3.corrupt-<UTC time>
            next to it, and that path is printed. A healthy or missing file is left alone.
            Exit status: 0 (moved, or nothing to do: prints "nothing to repair"); 3 when it cannot be moved.
            """)

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = try operands(invocation, 1...1)
        let domain = try Context.domainName(operands[0])
        let movedTo = try context.domain(domain).repair()
        context.console.print(movedTo.map { "moved the unreadable file aside to \($0.path)" } ?? "nothing to repair")
    }
}
