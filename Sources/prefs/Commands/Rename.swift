import LayeredDefaults

/// `prefs rename <domain> <old key> <new key>`: moves a value to another key.
enum Rename: Command {
    static let declaration = CommandDeclaration(
        synopsis: "rename <domain> <old key> <new key>", operandKinds: [.domain, .key],
        help: """
            Moves the value of <old key> to <new key> in one transaction.

            A value already stored under <new key> is replaced. Renaming a key to itself changes nothing.
            Prints nothing.
            Exit status: 0; 1 when <old key> does not exist (nothing is changed).
            """)

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = try operands(invocation, 3...3)
        let (domain, old, new) = (try Context.domainName(operands[0]), operands[1], operands[2])
        guard !new.isEmpty else { throw PrefsError(DefaultsError.invalidKey(suite: domain)) }
        guard let defaults = try context.existingDefaults(domain) else { throw PrefsError.missingPair(domain: domain, key: old) }
        try defaults.transaction { transaction in
            guard try transaction.renameKey(old, to: new) else { throw PrefsError.missingPair(domain: domain, key: old) }
        }
    }
}
