import LayeredDefaults

/// `prefs domains`: lists the domains.
enum Domains: Command {
    static let declaration = CommandDeclaration(
        synopsis: "domains",
        help: """
            Lists the domains under the root, comma-separated.

            Every <name>.sqlite3 file under the root, sorted, separated by ", ", as macOS `defaults domains`
            prints them; the global domain (NSGlobalDomain, read with -g) is left out, as there. An empty
            line when there is none. With --json: an array of names. Creates nothing.
            """)

    static func run(_ invocation: Invocation, in context: Context) throws {
        _ = try operands(invocation, 0...0)
        let names = try context.domainNames().filter { $0 != Defaults.globalDomain }
        context.console.print(context.json ? try Output.jsonLine(names) : names.joined(separator: ", "))
    }
}
