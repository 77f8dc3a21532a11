extension Prefs {
    /// The synopsis of the tool as a whole.
    static let usage = "prefs [--root <dir> | --system | --managed] [--json] <verb> [<arguments>]"

    /// What the tool does, one paragraph: the first of `prefs --help` and of the man page's description.
    static let about = """
        Reads and writes LayeredDefaults preference domains: one SQLite file per domain,
        <root>/<domain>.sqlite3.
        """

    /// How domains and arguments are written, one paragraph.
    static let argumentNotes = """
        <domain> is a domain name (1-128 letters, digits, '.', '-', '_'), or \(Context.globalDomainNames.joined(separator: " / "))
        for the global domain. Options may come anywhere, but what follows a type flag is its value; every
        argument after -- is an operand. Arguments must be valid UTF-8. The `defaults` options
        -currentHost, -host and -app mean nothing here and are refused.
        """

    /// The exit statuses, one paragraph.
    static let exitStatusNotes = """
        Exit status: 0 success, 1 not found, 2 usage error (also a key or a value the domain's schema
        refuses), 3 storage error (also a key the managed domain forces, or output that could not be written); each failure prints one line on standard error,
        starting with `prefs:` (with --json, a JSON object), never a stored value. Bad input changes nothing.
        """

    /// The text of `prefs --help`: made of the same declarations as each verb's help, the man page and
    /// the completions.
    static var overview: String {
        let verbs = commands.map { command in
            let declaration = command.declaration
            let aliases = declaration.aliases.isEmpty ? "" : " " + declaration.aliasNote
            return "  \(declaration.synopsis)\n      \(declaration.summary)\(aliases)"
        }
        return """
            usage: \(usage)

            \(about)

            \(verbs.joined(separator: "\n"))

            Options:
            \(HelpLayout.table(OptionDeclaration.global))
            \(argumentNotes)

            \(exitStatusNotes)
            """
    }
}
