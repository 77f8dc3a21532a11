import LayeredDefaults

/// `prefs revert <domain> <key> [--to <time|step>]`: takes a key back to a value its history kept.
enum Revert: Command {
    static let declaration = CommandDeclaration(
        synopsis: "revert <domain> <key> [--to <time|step>]", operandKinds: [.domain, .key],
        options: [.to],
        help: """
            Takes <key> of <domain> back to the value its history says it held, undoing its latest change by default.

            --to <step> takes it back to the value before its <step>th latest change (`prefs history <domain>
            <key>` numbers them); --to <time> (2026-11-29 21:44:42 +0000, as `prefs history` prints it, or ISO
            8601) to the value it held at that time (the time of a change as printed, in whole seconds, is
            before it). A revert is a write like any other: the domain's rules (the schema, forced keys)
            apply, and it enters the history. Prints nothing.
            Exit status: 0; 1 when the domain does not exist; 2 when the key's history holds no such step (or
            no entry), --to is neither a step nor a time, or the domain's schema refuses the value; 3 when the
            store cannot be written or the managed domain forces the key (nothing is changed then).
            """)

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = try operands(invocation, 2...2)
        let (domain, key) = (try Context.domainName(operands[0]), operands[1])
        let point: Defaults.HistoryPoint
        switch invocation.value(of: .to) {
        case nil: point = .step(1)
        case let text? where Int(text) != nil: point = .step(Int(text)!)
        case let text?:
            guard let date = CivilCalendar.date(parsing: text) else {
                throw PrefsError.usage("--to needs a step (1, 2, ...) or a time (2026-11-29 21:44:42 +0000)")
            }
            point = .date(date)
        }
        guard let defaults = try context.existingDefaults(domain) else { throw PrefsError.missingPair(domain: domain, key: key) }
        try defaults.revert(forKey: key, to: point)
    }
}
