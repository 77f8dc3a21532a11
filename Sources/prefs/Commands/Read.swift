import LayeredDefaults
import LayeredDefaultsCompatibility

/// `prefs read [<domain> [<key>]]`: prints a value, a whole domain, or every domain.
enum Read: Command {
    static let declaration = CommandDeclaration(
        synopsis: "read [<domain> [<key>]]", operandKinds: [.domain, .key],
        help: """
            Prints the value of <key> in <domain>, every key of <domain>, or without <domain> every domain.

            A string prints as it is (a control character but a newline or a tab escaped, \\U001b; --json is
            exact) and a date as 2026-11-29 21:44:42 +0000 (as macOS `defaults read` prints
            them); other values and whole domains print as old-style property-list text: numbers bare, booleans
            as 1 or 0, data as <0a0b>, arrays as ( ... ), dictionaries as { key = value; }.
            With --json: the value's tagged JSON ({"integer":42}), or the domain as an object of them (the
            export format).
            Without <domain>, as macOS `defaults read`: every domain under the root, the global domain
            (NSGlobalDomain) among them, as one dictionary of domain names (with --json: an object of them);
            a domain that cannot be read is named on standard error and left out.
            <domain> is a domain name, or -g / NSGlobalDomain for the global domain.
            A stored value the domain's schema does not accept prints with a warning: the app reads the
            key's default instead; so does one the managed domain forces: the app reads the forced value. A key that <domain> does not hold prints the value its app reads instead, from the same search the
            store makes: the managed domain's, the system domain's, or the default of the domain's schema
            (`prefs keys`), and says so on standard error, naming the layer and its file (`prefs explain` tells
            more; with --json: {"default":{"string":"system"}}).
            (The global domain, which is the user's, is not searched for it: `prefs read -g <key>` reads it.)
            Exit status: 0, or 1 when the key (with nothing in its place) or the domain does not exist (a
            domain without keys does not);
            3 when a domain cannot be read (without <domain>: the others are still printed).
            """)

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
            // NB: read as the app reads it too, so that a value its schema refuses (it reads as the default
            // there) is named in a warning, by the store's own report.
            let app = try? context.existingDefaults(domain)
            _ = try? app?.value(forKey: key)
            if app?.objectIsForced(forKey: key) == true {
                context.console.warn(
                    "the managed domain forces key '\(key)' of domain '\(domain)': the app reads its value instead (prefs --managed read \(domain) \(key))",
                    json: context.json)
            }
        } else {
            guard let values = try context.storedValues(of: domain), !values.isEmpty else {
                throw PrefsError.missingDomain(domain)
            }
            context.console.print(context.json ? try Output.jsonLine(values) : Output.text(of: values))
        }
    }

    /// Prints what `key`, which `domain` does not hold, reads as: the value the store's search finds in
    /// the layers an administrator and the schema give (the managed and system domains, the schema's
    /// default), and says that it is not set: a line on standard error, or with `--json` the object
    /// `{"default":<value>}`.
    /// - Throws: ``PrefsError/missingPair(domain:key:)`` when nothing gives the key a value.
    private static func printDefault(of key: String, in domain: String, context: Context) throws {
        // NB: the search of a store with no file of its own (nothing is created), as the app's would read it.
        let why = try context.layersBelow(domain).explain(key)
        guard let value = why.value, let winner = why.winner else { throw PrefsError.missingPair(domain: domain, key: key) }
        if context.json {
            context.console.print(try Output.jsonLine(["default": value]))
        } else {
            context.console.print(Output.text(of: value))
            let origin = why.layers.first { $0.layer == winner }?.origin.map { " (\($0))" } ?? ""
            let source = winner == .schemaDefault ? "its schema's default" : "the \(winner) domain's value\(origin)"
            context.console.printError(
                "prefs: key '\(key)' is not set in domain '\(domain)': this is what it reads as, \(source) (prefs explain \(domain) \(key))"
            )
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
