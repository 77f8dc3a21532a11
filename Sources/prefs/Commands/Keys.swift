import LayeredDefaults

/// `prefs keys <domain>`: the keys of the domain's schema, with their types and defaults.
enum Keys: Command {
    static let declaration = CommandDeclaration(
        synopsis: "keys <domain>", operandKinds: [.domain],
        help: """
            Lists the keys of <domain>'s schema: one line each, its name, type and default, tab-separated.

            The schema is the one its app installed (<root>/schemas/<domain>.json), else a system directory's
            (<dir>/layered-defaults/schemas); with --system or --managed, a system directory's first: the
            schema that layer's writes obey. `prefs install-schema` installs one. A key without a default (nil
            until set) shows -, one whose default its app computes when read (computed). Values print as `prefs
            read` prints them, on one line: ( a, b ), and a string's newlines and tabs as \\n and \\t (any other
            control character as \\U001b). With --json: the schema's keys as the schema file holds them
            (docs/SCHEMA.md).
            Exit status: 0; 1 when the domain has no schema; 3 when its schema file is malformed (it is not used).
            """)

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = try operands(invocation, 1...1)
        let schema = try context.requiredSchema(of: try Context.domainName(operands[0]))
        if context.json { return context.console.print(try Output.jsonLine(schema.keys)) }
        for entry in schema.keys {
            let defaultText = entry.defaultIsComputed ? "(computed)" : entry.defaultValue.map(Output.line(of:)) ?? "-"
            context.console.print(
                "\(Output.escapingControlCharacters(entry.name))\t\(entry.type?.rawValue ?? "any")\t\(defaultText)")
        }
    }
}
