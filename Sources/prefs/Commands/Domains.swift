import LayeredDefaults

/// `prefs domains`: lists the domains.
enum Domains: Command {
    static let declaration = CommandDeclaration(
        synopsis: "domains",
        help: """
            Lists the domains under the root, comma-separated.

            The domains under the root (<name>.sqlite3 files) that hold a value, sorted, separated by ", ",
            as macOS `defaults domains` prints them; the global domain (NSGlobalDomain, read with -g) is left
            out, as there. An empty line when there is none. With --json: an array of names. Creates nothing.
            A domain exists while it holds a value: one whose keys were all deleted (`prefs delete`, which
            keeps its file) is left out, as `prefs read` says it does not exist; one that cannot be read is
            listed (`prefs read` reports why).
            """)

    static func run(_ invocation: Invocation, in context: Context) throws {
        _ = try operands(invocation, 0...0)
        // NB: a domain that cannot be read stays listed: `read` reports its error, never "does not exist".
        let names = try context.domainNames().filter { name in
            name != Defaults.globalDomain && (((try? context.storedValues(of: name))?.map { !$0.isEmpty }) ?? true)
        }
        context.console.print(context.json ? try Output.jsonLine(names) : names.joined(separator: ", "))
    }
}
