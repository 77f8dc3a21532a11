/// A verb of `prefs`, declared once: its synopsis (which starts with the verb), what its operands are,
/// the options it takes and its help. The parser (``Invocation``), `--help`, the man page
/// (``ManualPage``) and the shell completions (``CompletionCandidates``) all read this declaration, so
/// none of them can name, show or offer a verb, an operand or an option the others do not.
struct CommandDeclaration: Sendable {
    /// The verb and its arguments, e.g. `read [<domain> [<key>]]`.
    let synopsis: String
    /// What each operand is, in order (`[.domain, .key]` for `read <domain> [<key>]`): what the shell
    /// completions offer for it; a ``CompletionKind/domain`` operand is also where a `defaults` option
    /// that means nothing here (`-currentHost`, `-host`, `-app`) is refused.
    var operandKinds: [CompletionKind] = []
    /// The index of the first operand that is part of a value to store (2 for `write <domain> <key>
    /// <value>...`), nil when the verb takes none: how ``Invocation`` reads the arguments from there on.
    var firstValueOperand: Int?
    /// The options this verb takes besides the global ones (``OptionDeclaration/global``): what the
    /// parser accepts, the help and the man page list and the shell completions offer.
    var options: [OptionDeclaration] = []
    /// Other names the verb answers to, as another tool spells it (`monitor` for `watch`, as `gsettings`
    /// does): the parser accepts them, and `--help`, the man page and the completions show them.
    var aliases: [String] = []
    /// What `prefs <verb> --help` says between its usage line and its options: the ``summary``, a blank
    /// line, then the ``details``.
    let help: String

    /// The verb as typed (`read`, `read-type`, ...): the first word of the synopsis.
    var verb: String { String(synopsis.prefix { $0 != " " }) }

    /// One line for the overview of `prefs --help`: the first line of the ``help``.
    var summary: String { String(help.prefix { $0 != "\n" }) }

    /// The rest of the ``help``, after the summary and the blank line: arguments, output, exit status.
    var details: String { String(help.dropFirst(summary.count + 2)) }

    /// The line that names the ``aliases``, e.g. `Also spelled: monitor.`
    var aliasNote: String { "Also spelled: \(aliases.joined(separator: ", "))." }

    /// The full text of `prefs <verb> --help`: the usage line, the ``help`` and the options.
    var fullHelp: String {
        let spelled = aliases.isEmpty ? "" : "\n" + aliasNote
        let text = "usage: prefs [--root <dir> | --system | --managed] [--json] \(synopsis)\n\n\(help)\(spelled)"
        return options.isEmpty ? text : text + "\nOptions:\n" + HelpLayout.table(options)
    }
}
