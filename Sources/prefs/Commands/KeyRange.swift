import LayeredDefaults

/// `prefs range <domain> <key>` (not named `Range`, which is Swift's): the type of a key of the domain's schema and the values it accepts, as
/// `gsettings range` prints them.
enum KeyRange: Command {
    static let declaration = CommandDeclaration(
        synopsis: "range <domain> <key>", operandKinds: [.domain, .schemaKey],
        help: """
            Prints the type of <key> in <domain>'s schema and the values it accepts.

            The first line is the type (string, integer, float, boolean, date, data, array, dictionary, or
            any); the second what it accepts, as `gsettings range` says it: `range <lowest> <highest>` for a
            range, `enum` followed by one choice a line (as `prefs read` prints a value), `length <n>` for a
            string of at most <n> characters, or `any`. With --json: {"type":"integer","accepts":"from 6 to 72"}.
            Exit status: 0; 1 when the domain has no schema or the schema no such key; 3 when its schema
            file is malformed (it is not used).
            """)

    /// What `--json` prints.
    private struct Answer: Encodable {
        let type: String
        let accepts: String
    }

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = try operands(invocation, 2...2)
        let (domain, key) = (try Context.domainName(operands[0]), operands[1])
        guard let entry = try context.requiredSchema(of: domain).entry(named: key) else {
            throw PrefsError.notFound("The schema of domain \(domain) has no key '\(key)'; run 'prefs keys \(domain)'")
        }
        let type = entry.type?.rawValue ?? "any"
        if context.json {
            return context.console.print(try Output.jsonLine(Answer(type: type, accepts: entry.acceptedPhrase)))
        }
        var lines = [type]
        switch entry.accepted {
        case .anyValue: lines.append("any")
        case .choices(let choices): lines += ["enum"] + choices.map(Output.line(of:))
        case .integers(let range): lines.append("range \(range.lowerBound) \(range.upperBound)")
        case .numbers(let range): lines.append("range \(range.lowerBound) \(range.upperBound)")
        case .maximumLength(let length): lines.append("length \(length)")
        }
        context.console.print(lines.joined(separator: "\n"))
    }
}
