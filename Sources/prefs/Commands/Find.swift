import LayeredDefaults

/// `prefs find <word>`: searches every domain.
enum Find: Command {
    static let declaration = CommandDeclaration(
        synopsis: "find <word>",
        help: """
            Searches every domain's name, keys and string values for <word>, ignoring case.

            For each domain with a match prints `Found N keys in domain 'D': { ... }` with the matching keys:
            those whose key, or any key or string inside whose value, contains <word>; every key when the
            domain's name contains it. The global domain is searched too. With --json: an object of
            domain names, each an object of the matching keys' tagged values.
            Exit status: 0; 1 when nothing matches; 3 when a domain cannot be read (the others are still
            searched and printed).
            """)

    static func run(_ invocation: Invocation, in context: Context) throws {
        let word = try operands(invocation, 1...1)[0]
        guard !word.isEmpty else { throw PrefsError.usage("find needs a non-empty word") }
        var found: [String: [String: PreferenceValue]] = [:]
        var unreadable = false
        for domain in try context.domainNames() {
            let values: [String: PreferenceValue]
            do {
                values = try context.storedValues(of: domain) ?? [:]
            } catch {
                context.console.report(PrefsError(error), json: context.json)
                unreadable = true
                continue
            }
            let matches = contains(domain, word) ? values : values.filter { contains($0.key, word) || contains($0.value, word) }
            guard !matches.isEmpty else { continue }
            found[domain] = matches
            if !context.json {
                context.console.print("Found \(matches.count) keys in domain '\(domain)': \(Output.text(of: matches))")
            }
        }
        if context.json { context.console.print(try Output.jsonLine(found)) }
        if unreadable { throw PrefsError.silent(.storage) }
        if found.isEmpty { throw PrefsError.notFound("No domain, key or value contains '\(word)'") }
    }

    private static func contains(_ text: String, _ word: String) -> Bool {
        text.localizedCaseInsensitiveContains(word)
    }

    private static func contains(_ value: PreferenceValue, _ word: String) -> Bool {
        switch value {
        case .string(let text): contains(text, word)
        case .array(let values): values.contains { contains($0, word) }
        case .dictionary(let values): values.contains { contains($0.key, word) || contains($0.value, word) }
        case .integer, .double, .bool, .date, .data: false
        }
    }
}
