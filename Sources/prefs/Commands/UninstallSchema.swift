import LayeredDefaults

/// `prefs uninstall-schema <domain>`: removes the schema installed for a domain, as an app does with
/// `Defaults.Domain.uninstallSchema`.
enum UninstallSchema: Command {
    static let declaration = CommandDeclaration(
        synopsis: "uninstall-schema <domain>", operandKinds: [.domain],
        help: """
            Removes the schema installed for <domain>: <root>/schemas/<domain>.json, or with --system every user's.

            The domain's values stay; it then obeys no schema, unless another layer has one installed (with
            --system: <dir>/layered-defaults/schemas, <dir> the first of $XDG_CONFIG_DIRS, else /etc/xdg), or
            its app installs the schema again at its next launch. Prints: removed.
            Exit status: 0; 1 when no schema is installed there; 2 for --managed; 3 when it cannot be removed.
            """)

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = try operands(invocation, 1...1)
        guard context.layer != .managed else {
            throw PrefsError.usage(
                "uninstall-schema removes the user's schema, or with --system every user's; not with --managed")
        }
        let domain = try Context.domainName(operands[0])
        let removed =
            try context.domain(domain).uninstallSchema()
        guard removed else {
            let place = context.layer == .system ? "for every user" : "for the user"
            throw PrefsError.notFound("No schema is installed \(place) for domain \(domain)")
        }
        context.console.print("removed")
    }
}
