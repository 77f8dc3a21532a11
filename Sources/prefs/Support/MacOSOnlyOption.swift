/// The options (and verbs) of macOS `defaults` that mean nothing for LayeredDefaults, each refused with
/// one line that says why, instead of being taken for a verb or a domain name.
enum MacOSOnlyOption {
    /// Each option and why it is refused.
    static let reasons: [String: String] = [
        "-currentHost":
            "-currentHost is not supported: LayeredDefaults has no per-host preferences (a domain is one file, the same for every host); leave it out",
        "-host":
            "-host is not supported: prefs reads and writes this machine's files only; run prefs on that host",
        "-app":
            "-app is not supported: there are no application bundles to name a domain; give the domain's name (e.g. com.example.app)",
    ]

    /// The verbs of macOS `defaults` that `prefs` has no form of, each with why and what to type instead:
    /// a bare "unknown verb" would leave a `defaults` user guessing.
    static let verbReasons: [String: String] = [
        "delete-all":
            "delete-all is not supported: prefs deletes one domain's keys (prefs delete <domain>) or one key (prefs delete <domain> <key>) at a time; prefs find <key> lists the domains that hold a key"
    ]

    /// Refuses a macOS-only option where `defaults` takes one: before the verb, or in the place of a
    /// domain (a ``CompletionKind/domain`` operand). Elsewhere the same text is a key or a value.
    /// - Throws: ``PrefsError/usage(_:)`` saying why the option is refused.
    static func refuse(in invocation: Invocation) throws(PrefsError) {
        let positionals = invocation.positionals
        guard let first = positionals.first else { return }
        if let reason = reasons[first] { throw .usage(reason) }
        guard let command = Prefs.command(named: first) else { return }
        for (index, kind) in command.declaration.operandKinds.enumerated() where kind == .domain {
            let position = index + 1
            guard position < positionals.count, invocation.firstOperandAfterSeparator.map({ index < $0 }) ?? true else {
                continue
            }
            if let reason = reasons[positionals[position]] { throw .usage(reason) }
        }
    }
}
