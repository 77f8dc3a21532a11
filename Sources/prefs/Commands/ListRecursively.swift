import LayeredDefaults

/// `prefs list-recursively [<domain>]`: every key of a domain with the value the app reads for it, as
/// `gsettings list-recursively` lists a schema's keys and values.
enum ListRecursively: Command {
    static let declaration = CommandDeclaration(
        synopsis: "list-recursively [<domain>]", operandKinds: [.domain],
        help: """
            Prints each key of <domain> (of every domain with an installed schema, without one) with the value the app reads.

            One line a key, `<domain> <key> <value>`, sorted: the keys <domain> holds and those its schema
            declares, each with the value in force (the managed domain's when it forces the key, else the
            domain's, the system domain's, or the schema's default), as `prefs read` prints it on one line. A
            declared key no layer gives a value (no default) is left out. With --json: one object a line,
            {"domain":"app","key":"theme","value":{"string":"dark"}}.
            Exit status: 0; 1 when <domain> holds no key and has no schema; 3 when a domain cannot be read.
            """)

    /// What `--json` prints for a key.
    private struct Line: Encodable {
        let domain: String
        let key: String
        let value: PreferenceValue
    }

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = try operands(invocation, 0...1)
        let domains =
            operands.isEmpty
            ? try Defaults.Domain.namesWithInstalledSchema(
                location: context.layer == .user ? context.location : .inMemory,
                systemDirectories: context.systemDirectories)
            : [try Context.domainName(operands[0])]
        for domain in domains {
            let stored = try context.storedValues(of: domain) ?? [:]
            let declared = context.trustedSchema(of: domain)?.keys.map(\.name) ?? []
            if stored.isEmpty && declared.isEmpty && !operands.isEmpty { throw PrefsError.missingDomain(domain) }
            // Read as the app reads it, through the domain's own store (which creates nothing).
            let app = try context.store(domain)
            for key in Set(stored.keys).union(declared).sorted() {
                guard let value = try app.value(forKey: key) else { continue }
                context.console.print(
                    context.json
                        ? try Output.jsonLine(Line(domain: domain, key: key, value: value))
                        : "\(domain) \(Output.escapingControlCharacters(key)) \(Output.line(of: value))")
            }
        }
    }
}
