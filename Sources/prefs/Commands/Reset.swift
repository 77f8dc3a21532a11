import LayeredDefaults

/// `prefs reset <domain> <key>`: removes the user's value of a key of the schema, so its default shows.
enum Reset: Command {
    static let declaration = CommandDeclaration(
        synopsis: "reset <domain> <key>", operandKinds: [.domain, .schemaKey],
        help: """
            Removes the value of <key> from <domain>, so the key reads as its schema's default again.

            As GSettings' reset: a key that is not set is left as it is (exit status 0), and a domain without a
            file is not created. The key must be one of the domain's schema (`prefs keys`); `prefs delete`
            removes any key. Prints nothing.
            Exit status: 0; 1 when the domain has no schema, or the schema no such key; 3 when the store
            cannot be written or the managed domain forces the key (nothing is changed), or the schema file
            is malformed.
            """)

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = try operands(invocation, 2...2)
        let (domain, key) = (try Context.domainName(operands[0]), operands[1])
        guard try context.requiredSchema(of: domain).entry(named: key) != nil else {
            throw PrefsError.notFound("The schema of domain \(domain) has no key '\(key)'; run 'prefs keys \(domain)'")
        }
        guard let defaults = try context.existingDefaults(domain) else { return }
        try defaults.transaction { transaction in
            if try transaction.value(forKey: key) != nil { try transaction.write(nil, forKey: key) }
        }
    }
}
