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
            store makes: the managed domain's, the global domain's, the system domain's, or the default of the
            domain's schema (`prefs keys`), and says so on standard error, naming the layer and its file
            (`prefs explain` tells more; with --json: {"default":{"string":"system"}}). With --system or
            --managed, that is still what the app reads (the user's domain and the layers below it).
            A key nothing gives a value and the domain's schema does not declare is named with "did you
            mean" and the nearest names the schema declares, as `prefs write` does.
            A domain that holds no value prints, in the same way, the values its app reads for the keys its
            schema declares (the schema's defaults, or the managed or system domain's) and says on standard
            error that they are defaults (with --json: {"default":{"theme":{"string":"system"}}}).
            A domain exists while it holds a value, as for `prefs domains` and `prefs delete`: one whose keys
            were all deleted does not, though its file stays; without <domain> it is left out.
            Exit status: 0, or 1 when the key (with nothing in its place) or the domain does not exist (and
            no key of its schema reads as a value);
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
            // NB: one explanation says both whether the key is forced and by what: a managed database, or a
            // drop-in file and line (`<file>:<line>`).
            if let file = app?.explain(key).forcedBy {
                context.console.warn(
                    file.hasSuffix("." + Location.fileExtension)
                        ? "the managed domain forces key '\(key)' of domain '\(domain)': the app reads its value instead (prefs --managed read \(domain) \(key))"
                        : "the managed drop-in file '\(Output.escapingControlCharacters(file))' forces key '\(key)' of domain '\(domain)': the app reads its value instead (prefs explain \(domain) \(key))",
                    json: context.json)
            }
        } else {
            guard let values = try context.storedValues(of: domain), !values.isEmpty else {
                if try printDefaults(of: domain, context: context) { return }
                // NB: a domain that holds no value does not exist, as for `prefs domains` and `prefs delete`.
                throw PrefsError.missingDomain(domain)
            }
            context.console.print(context.json ? try Output.jsonLine(values) : Output.text(of: values))
        }
    }

    /// Prints what the keys of `domain`, which holds no value, read as: for each key its schema declares,
    /// the value the store's search finds (the schema's default, or the managed or system domain's),
    /// and says on standard error that they are defaults; with `--json` the object `{"default":{...}}`.
    /// - Returns: false, printing nothing, when no declared key reads as a value (or there is no schema).
    private static func printDefaults(of domain: String, context: Context) throws -> Bool {
        let declared = context.trustedSchema(of: domain)?.keys.map(\.name) ?? []
        guard !declared.isEmpty else { return false }
        // Read as the app reads it, through the domain's own store (which creates nothing).
        let app = try context.store(domain)
        var values: [String: PreferenceValue] = [:]
        for key in declared { values[key] = try app.value(forKey: key) }
        guard !values.isEmpty else { return false }
        if context.json {
            context.console.print(try Output.jsonLine(["default": values]))
        } else {
            context.console.print(Output.text(of: values))
            context.console.printError(
                "prefs: domain '\(domain)' holds no value: these are the defaults its app reads, from its schema and the layers below it (prefs explain \(domain) <key>)"
            )
        }
        return true
    }

    /// Prints what `key`, which `domain` does not hold, reads as: the value the store's search finds in
    /// the layers an administrator and the schema give (the managed and system domains, the schema's
    /// default), and says that it is not set: a line on standard error, or with `--json` the object
    /// `{"default":<value>}`.
    /// - Throws: ``PrefsError/missingPair(domain:key:)`` when nothing gives the key a value.
    private static func printDefault(of key: String, in domain: String, context: Context) throws {
        guard let inForce = try context.valueInForce(of: key, in: domain) else {
            // NB: a key its schema declares (without a default) is no typo: no name is suggested for it.
            let schema = context.trustedSchema(of: domain)
            let nearest = schema.map { $0.entry(named: key) == nil ? $0.names(nearestTo: key) : [] } ?? []
            throw PrefsError.missingPair(domain: domain, key: key, nearest: nearest)
        }
        if context.json {
            context.console.print(try Output.jsonLine(["default": inForce.value]))
        } else {
            context.console.print(Output.text(of: inForce.value))
            context.console.printError(
                "prefs: key '\(key)' is not set in domain '\(domain)': this is what it reads as, \(inForce.source(namingFile: true)) (prefs explain \(domain) \(key))"
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
                // NB: a domain that holds no value does not exist, as for `prefs domains`.
                guard let values = try context.storedValues(of: domain), !values.isEmpty else { continue }
                domains[domain] = values
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
