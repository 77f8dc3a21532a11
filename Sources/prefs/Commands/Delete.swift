import LayeredDefaults

/// `prefs delete <domain> [<key>]`: removes a key, or every key of a domain.
enum Delete: Command {
    static let declaration = CommandDeclaration(
        synopsis: "delete <domain> [<key>] [--forget-history]", operandKinds: [.domain, .key],
        options: [.forgetHistory],
        help: """
            Removes <key> from <domain>, or every key of <domain>.

            Without <key>, the domain is emptied in one transaction and its file is kept: deleting a database
            that another process has open would lose that process's later writes. `prefs prune` deletes the
            files of domains nobody uses. A key the managed domain forces keeps its value (which no write may
            change), and a line on standard error names it. In a domain that keeps history, the removal enters
            the key's history; --forget-history (with <key>) forgets that history too, in the same transaction,
            so no value the key held is kept (Defaults.erase(forKey:)). Prints nothing else.
            Exit status: 0; 1 when the key or the domain does not exist, or the domain holds no key (nothing is
            created).
            """)

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = try operands(invocation, 1...2)
        let domain = try Context.domainName(operands[0])
        guard let defaults = try context.existingDefaults(domain) else {
            throw operands.count == 2
                ? PrefsError.missingPair(domain: domain, key: operands[1]) : PrefsError.missingDomain(domain)
        }
        guard operands.count == 2 else {
            guard !invocation.has(.forgetHistory) else { throw PrefsError.usage("--forget-history needs a <key>") }
            // NB: a domain with no keys is one `read` says does not exist, as `defaults` does: deleting it is not found.
            guard let values = try context.storedValues(of: domain), !values.isEmpty else {
                throw PrefsError.missingDomain(domain)
            }
            let kept = try defaults.replacePersistentValues([:])
            context.reportKept(kept, in: domain)
            return
        }
        let key = operands[1]
        if invocation.has(.forgetHistory) {
            // NB: a key already removed may still have a history to forget.
            guard try defaults.persistentValue(forKey: key) != nil || !defaults.history(forKey: key).isEmpty else {
                throw PrefsError.missingPair(domain: domain, key: key)
            }
            return try defaults.erase(forKey: key)
        }
        try defaults.transaction { transaction in
            guard try transaction.value(forKey: key) != nil else { throw PrefsError.missingPair(domain: domain, key: key) }
            try transaction.write(nil, forKey: key)
        }
    }
}
