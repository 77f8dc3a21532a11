import LayeredDefaults

/// `prefs read [<domain> [<key>]]`: prints a value, a whole domain, or every domain.
enum Read: Command {
    static let verb = "read"
    static let synopsis = "read [<domain> [<key>]]"
    static let operandKinds: [CompletionKind] = [.domain, .key]
    static let summary = "Prints the value of <key> in <domain>, every key of <domain>, or without <domain> every domain."
    static let details = """
        A string prints as it is and a date as 2026-11-29 21:44:42 +0000 (as macOS `defaults read` prints
        them); other values and whole domains print as old-style property-list text: numbers bare, booleans
        as 1 or 0, data as <0a0b>, arrays as ( ... ), dictionaries as { key = value; }.
        With --json: the value's tagged JSON ({"integer":42}), or the domain as an object of them (the
        export format).
        Without <domain>, as macOS `defaults read`: every domain under the root, the global domain
        (NSGlobalDomain) among them, as one dictionary of domain names (with --json: an object of them);
        a domain that cannot be read is named on standard error and left out.
        <domain> is a domain name, or -g / NSGlobalDomain for the global domain.
        A key that is not set, of a domain whose schema gives it a default (`prefs keys`), prints that
        default and says so on standard error (with --json: {"default":{"string":"system"}}), unless a
        system-wide layer (--system, --managed) holds the key: the app then reads that layer's value, and
        the key is not found here.
        Exit status: 0, or 1 when the key (without a schema's default) or the domain does not exist (a
        domain without keys does not);
        3 when a domain cannot be read (without <domain>: the others are still printed).
        """

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = try operands(invocation, 0...2)
        guard let first = operands.first else { return try readEveryDomain(in: context) }
        let domain = try Context.domainName(first)
        if operands.count == 2 {
            let key = operands[1]
            guard let value = try context.storedValues(of: domain, reading: key)?[key] else {
                return try printDefault(of: key, in: domain, context: context)
            }
            context.console.print(context.json ? try Output.jsonLine(value) : Output.text(of: value))
        } else {
            guard let values = try context.storedValues(of: domain), !values.isEmpty else {
                throw PrefsError.missingDomain(domain)
            }
            context.console.print(context.json ? try Output.jsonLine(values) : Output.text(of: values))
        }
    }

    /// Prints the schema's default of `key`, which is not set, and says that it is the default: a line on
    /// standard error, or with `--json` the object `{"default":<value>}`.
    /// - Throws: ``PrefsError/missingPair(domain:key:)`` when the domain has no schema that gives the
    ///   key a default.
    private static func printDefault(of key: String, in domain: String, context: Context) throws {
        // NB: a system-wide layer's value, not the schema's default, is what the app reads then.
        guard let value = context.trustedSchema(of: domain)?.entry(named: key)?.defaultValue,
            try context.existingDefaults(domain)?.value(forKey: key) == nil
        else {
            throw PrefsError.missingPair(domain: domain, key: key)
        }
        if context.json {
            context.console.print(try Output.jsonLine(["default": value]))
        } else {
            context.console.print(Output.text(of: value))
            context.console.printError("prefs: key '\(key)' is not set in domain '\(domain)': this is its schema's default")
        }
    }

    /// Prints every domain under the root, as one dictionary of domains.
    /// - Throws: ``PrefsError/silent(_:)`` with the storage status when a domain could not be read (its
    ///   line already printed).
    private static func readEveryDomain(in context: Context) throws {
        var domains: [String: [String: PreferenceValue]] = [:]
        var unreadable = false
        for domain in try context.domainNames() {
            do {
                domains[domain] = try context.storedValues(of: domain) ?? [:]
            } catch {
                context.console.report(PrefsError(error), json: context.json)
                unreadable = true
            }
        }
        context.console.print(
            context.json ? try Output.jsonLine(domains) : Output.text(of: domains.mapValues(PreferenceValue.dictionary)))
        if unreadable { throw PrefsError.silent(.storage) }
    }
}
