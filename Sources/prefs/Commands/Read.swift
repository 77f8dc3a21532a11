import LayeredDefaults

/// `prefs read <domain> [<key>]`: prints a value, or a whole domain.
enum Read: Command {
    static let verb = "read"
    static let synopsis = "read <domain> [<key>]"
    static let summary = "Prints the value of <key> in <domain>, or every key of <domain>."
    static let details = """
        A string prints as it is and a date as 2026-11-29 21:44:42 +0000 (as macOS `defaults read` prints
        them); other values and whole domains print as old-style property-list text: numbers bare, booleans
        as 1 or 0, data as <0a0b>, arrays as ( ... ), dictionaries as { key = value; }.
        With --json: the value's tagged JSON ({"integer":42}), or the domain as an object of them (the
        export format).
        <domain> is a domain name, or -g / NSGlobalDomain for the global domain.
        Exit status: 0, or 1 when the key or the domain does not exist (a domain without keys does not).
        """

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = try operands(invocation, 1...2)
        let domain = try Context.domainName(operands[0])
        if operands.count == 2 {
            let key = operands[1]
            guard let value = try context.storedValues(of: domain, reading: key)?[key] else {
                throw PrefsError.missingPair(domain: domain, key: key)
            }
            context.console.print(context.json ? try Output.jsonLine(value) : Output.text(of: value))
        } else {
            guard let values = try context.storedValues(of: domain), !values.isEmpty else {
                throw PrefsError.missingDomain(domain)
            }
            context.console.print(context.json ? try Output.jsonLine(values) : Output.text(of: values))
        }
    }
}
