/// One option of `prefs`, declared once: the parser (``Invocation``), `--help`, the man page
/// (``ManualPage``) and the shell completions (``CompletionCandidates``) all read this declaration, so
/// none of them can accept, show or offer an option the others do not.
struct OptionDeclaration: Sendable, Equatable {
    /// The option as typed, with its dashes (`--prefix`).
    let name: String
    /// The placeholder of its value (`<prefix>`), nil for a flag, which takes none.
    let value: String?
    /// What it does, in one sentence without a final period.
    let summary: String
    /// What a shell offers for its value.
    var completion: CompletionKind = .none

    /// A flag: an option without a value.
    static func flag(_ name: String, _ summary: String) -> OptionDeclaration {
        OptionDeclaration(name: name, value: nil, summary: summary)
    }

    /// An option that takes a value, named `value` in the help.
    static func valued(
        _ name: String, _ value: String, _ summary: String, completion: CompletionKind = .none
    ) -> OptionDeclaration {
        OptionDeclaration(name: name, value: value, summary: summary, completion: completion)
    }

    /// The option and its value's placeholder, as the help shows them (`--prefix <prefix>`).
    var usage: String { value.map { "\(name) \($0)" } ?? name }

    /// The options every verb takes, in the order the help lists them.
    static let global: [OptionDeclaration] = [
        .valued(
            "--root", "<dir>",
            "the directory of the domains; else $LAYERED_DEFAULTS_HOME, else $XDG_CONFIG_HOME/layered-defaults, else ~/.config/layered-defaults",
            completion: .directory),
        .flag(
            "--system",
            "the system domains: <dir>/layered-defaults, <dir> the first of $XDG_CONFIG_DIRS (else /etc/xdg); searched after the global domain"
        ),
        .flag(
            "--managed",
            "the managed domains: <dir>/layered-defaults/managed; their keys are forced, searched first, and cannot be written in the user's domains"
        ),
        .flag(
            "--json",
            #"JSON output for scripts (values as tagged JSON: {"integer":42}); errors and warnings as JSON objects on standard error"#
        ),
        .flag("--help", "the help (also -h): `prefs <verb> --help` or `prefs help <verb>` for a verb"),
        .flag("--version", "the version of prefs"),
    ]
}

/// What a shell offers for an operand or an option's value.
enum CompletionKind: Sendable, Equatable {
    /// Nothing: a key, a word or a value.
    case none
    /// The names of the domains under the root of the command line being completed.
    case domain
    /// The keys of the domain named by the first operand: those stored in it and those its installed
    /// schema declares (with their summaries).
    case key
    /// A key, as ``key``, for this operand and every one after it (`watch <domain> [<key>...]`).
    case keys
    /// The keys the installed schema of the domain named by the first operand declares: for a verb that
    /// takes no other (`describe`, `reset`).
    case schemaKey
    /// A value of the key named by the operand before it: the key's choices, when the schema of the
    /// domain named by the first operand gives them, and these words (the type flags).
    case value(besides: [String])
    /// The verbs (for `prefs help <verb>`).
    case verb
    /// A file name (the shell's own completion).
    case file
    /// A directory name (the shell's own completion).
    case directory
    /// One of these words.
    case choices([String])
}
