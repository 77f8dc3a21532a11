import LayeredDefaults

/// `prefs read-type <domain> <key>`: prints the type of a value.
enum ReadType: Command {
    static let declaration = CommandDeclaration(
        synopsis: "read-type <domain> <key>", operandKinds: [.domain, .key],
        help: """
            Prints the type of the value of <key> in <domain>.

            Prints `Type is <type>`, <type> one of string, integer, float, boolean, date, data, array,
            dictionary. With --json: {"type":"integer"}.
            Exit status: 0, or 1 when the key does not exist.
            """)

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = try operands(invocation, 2...2)
        let (domain, key) = (try Context.domainName(operands[0]), operands[1])
        guard let value = try context.storedValues(of: domain, reading: key)?[key] else {
            throw PrefsError.missingPair(domain: domain, key: key)
        }
        context.console.print(context.json ? try Output.jsonLine(["type": value.typeName]) : "Type is \(value.typeName)")
    }
}
