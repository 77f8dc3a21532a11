import LayeredDefaults

/// `prefs exists <domain> <key>`: answers with the exit status.
enum Exists: Command {
    static let declaration = CommandDeclaration(
        synopsis: "exists <domain> <key>", operandKinds: [.domain, .key],
        help: """
            Tells whether <domain> holds a value for <key>, by the exit status alone.

            Prints nothing (with --json: {"exists":true} or {"exists":false}).
            Exit status: 0 when the key exists, 1 when it does not, 2 or 3 on error.
            Example: if prefs exists com.example.app theme; then ...; fi
            """)

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = try operands(invocation, 2...2)
        let (domain, key) = (try Context.domainName(operands[0]), operands[1])
        let exists = try context.storedValues(of: domain, reading: key)?[key] != nil
        if context.json { context.console.print(try Output.jsonLine(["exists": exists])) }
        if !exists { throw PrefsError.silent(.notFound) }
    }
}
