/// A verb of `prefs`: its name, its help, and what it does.
///
/// Each verb lives in its own file and does its work through the `LayeredDefaults` API; output goes
/// to ``Context/console``, failures are thrown as ``PrefsError``.
protocol Command {
    /// The verb as typed (`read`, `read-type`, ...).
    static var verb: String { get }
    /// The verb's arguments, e.g. `read <domain> [<key>]`.
    static var synopsis: String { get }
    /// One line for the overview of `prefs --help`.
    static var summary: String { get }
    /// The rest of `prefs <verb> --help`: arguments, output, exit status.
    static var details: String { get }
    /// The options this verb takes besides the global ones (``OptionDeclaration/global``): what the
    /// parser accepts, the help and the man page list and the shell completions offer.
    static var options: [OptionDeclaration] { get }
    /// What each operand is, in order (`[.domain, .key]` for `read <domain> [<key>]`): what the shell
    /// completions offer for it; a ``CompletionKind/domain`` operand is also where a `defaults` option
    /// that means nothing here (`-currentHost`, `-host`, `-app`) is refused.
    static var operandKinds: [CompletionKind] { get }
    /// The index of the first operand that is part of a value to store (2 for `write <domain> <key>
    /// <value>...`), nil when the verb takes none: how ``Invocation`` reads the arguments from there on.
    static var firstValueOperand: Int? { get }

    /// Runs the verb.
    /// - Parameters:
    ///   - invocation: the parsed command line; `operands` are the arguments after the verb.
    ///   - context: the root, the console and the output mode.
    /// - Throws: ``PrefsError`` (or a library error, classified by ``PrefsError/init(_:)``).
    static func run(_ invocation: Invocation, in context: Context) throws
}

extension Command {
    static var options: [OptionDeclaration] { [] }
    static var operandKinds: [CompletionKind] { [] }
    static var firstValueOperand: Int? { nil }

    /// The names of the verb's ``options`` that take a value (e.g. `--prefix`).
    static var valuedOptions: Set<String> { Set(options.filter { $0.value != nil }.map(\.name)) }
    /// The names of the verb's ``options`` without a value (e.g. `--dry-run`).
    static var flagOptions: Set<String> { Set(options.filter { $0.value == nil }.map(\.name)) }

    /// The full text of `prefs <verb> --help`.
    static var help: String {
        let text = "usage: prefs [--root <dir>] [--json] \(synopsis)\n\n\(summary)\n\n\(details)"
        return options.isEmpty ? text : text + "\nOptions:\n" + HelpLayout.table(options)
    }

    /// The operands, when there are between `minimum` and `maximum` of them.
    /// - Throws: ``PrefsError/usage(_:)`` otherwise, showing the synopsis.
    static func operands(_ invocation: Invocation, _ range: ClosedRange<Int>) throws(PrefsError) -> [String] {
        let operands = invocation.operands
        guard range.contains(operands.count) else { throw .usage("usage: prefs \(synopsis)") }
        return operands
    }
}
