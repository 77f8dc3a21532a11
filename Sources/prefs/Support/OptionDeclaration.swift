/// One option of `prefs`, declared once: the parser (``Invocation``), `--help`, the man page
/// (``ManualPage``) and the shell completions (``CompletionCandidates``) all read this declaration, so
/// none of them can accept, show or offer an option the others do not. A verb reads an option through
/// its declaration too (``Invocation/has(_:)``, ``Invocation/value(of:)``), so it cannot read one that
/// is not declared, or misspell its name.
///
/// Each is a static member (``root``, ``json``, ``dryRun``, ...): the global ones, listed in ``global``,
/// and each verb's own, listed in its ``CommandDeclaration/options``.
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
    static let global: [OptionDeclaration] = [.root, .system, .managed, .json, .help, .version]

    /// `--root <dir>`: the directory of the user's domains.
    static let root = valued(
        "--root", "<dir>",
        "the directory of the domains; else $LAYERED_DEFAULTS_HOME, else $XDG_CONFIG_HOME/layered-defaults, else ~/.config/layered-defaults",
        completion: .directory)
    /// `--system`: the system domains.
    static let system = flag(
        "--system",
        "the system domains: <dir>/layered-defaults, <dir> the first of $XDG_CONFIG_DIRS (else /etc/xdg); searched after the global domain"
    )
    /// `--managed`: the managed domains.
    static let managed = flag(
        "--managed",
        "the managed domains: <dir>/layered-defaults/managed; their keys are forced, searched first, and cannot be written in the user's domains"
    )
    /// `--json`: JSON output.
    static let json = flag(
        "--json",
        #"JSON output for scripts (values as tagged JSON: {"integer":42}); errors and warnings as JSON objects on standard error"#
    )
    /// `--help` (also `-h`): the help.
    static let help = flag("--help", "the help (also -h): `prefs <verb> --help` or `prefs help <verb>` for a verb")
    /// `--version`: the version.
    static let version = flag("--version", "the version of prefs")

    /// `revert --to <time|step>`: where the key is taken back to.
    static let to = valued(
        "--to", "<time|step>", "the step of `prefs history` (1: the latest change, the default), or a time it held the value")
    /// `delete --forget-history`: the key's history is forgotten with its value.
    static let forgetHistory = flag(
        "--forget-history", "forget the key's history too, so no value it held is kept (needs <key>)")
    /// `backup --replace`: an existing file is replaced.
    static let replace = flag("--replace", "replace an existing <file>, atomically")
    /// `completions --complete <index>`: the candidates for one word, instead of the script.
    static let complete = valued(
        "--complete", "<index>",
        "instead of the script, the candidates for word <index> of the words after --, one a line: what the scripts call")
    /// `export --format <format>`: the format of the export.
    static let format = valued(
        "--format", "json|xml|binary",
        "the format; else JSON for a <file> named .json, else (standard output and any other name) an XML property list",
        completion: .choices(DocumentFormat.allCases.map(\.rawValue)))
    /// `man --install`: the page is installed instead of printed.
    static let install = flag(
        "--install",
        "write the page to $XDG_DATA_HOME/man/man1/prefs.1, else ~/.local/share/man/man1/prefs.1, and print its path")
    /// `prune --prefix <prefix>`: the start of the names of the domains to delete.
    static let prefix = valued(
        "--prefix", "<prefix>", "required: the start of the names, at least two labels (com.example., test.run-)")
    /// `prune --older-than <duration>`: only domains unchanged for that long.
    static let olderThan = valued(
        "--older-than", "<duration>", "only domains none of whose files changed within it: 90s, 15m, 2h, 7d, 1w, 1h30m")
    /// `prune --any-age`: domains of any age.
    static let anyAge = flag("--any-age", "domains of any age (one of --older-than and --any-age is required)")
    /// `sync --device <id>`: this device's id in the sync folder.
    static let device = valued(
        "--device", "<id>", "this device's id in the folder; else the one kept in the root (made once)")
    /// `prune --dry-run`: nothing is deleted.
    static let dryRun = flag("--dry-run", "print what would be deleted, delete nothing")
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
