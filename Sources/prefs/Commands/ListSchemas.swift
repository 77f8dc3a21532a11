import LayeredDefaults

/// `prefs list-schemas`: the domains that have a schema installed, as `gsettings list-schemas` lists
/// the installed schemas.
enum ListSchemas: Command {
    static let declaration = CommandDeclaration(
        synopsis: "list-schemas",
        help: """
            Lists the domains that have a schema installed, one a line, sorted.

            The user's (<root>/schemas) and every user's (<dir>/layered-defaults/schemas, <dir> each of
            $XDG_CONFIG_DIRS, else /etc/xdg); with --system or --managed, every user's only. A schema file is
            listed by its name: `prefs keys <domain>` reads it (and reports a malformed one). With --json: one
            array of the names.
            Exit status: 0 (also when none is installed); 3 when a schema directory cannot be listed.
            """)

    static func run(_ invocation: Invocation, in context: Context) throws {
        _ = try operands(invocation, 0...0)
        let suites = try Defaults.Domain.namesWithInstalledSchema(
            location: context.layer == .user ? context.location : .inMemory,
            systemDirectories: context.systemDirectories)
        if context.json { return context.console.print(try Output.jsonLine(suites)) }
        for suite in suites { context.console.print(suite) }
    }
}
