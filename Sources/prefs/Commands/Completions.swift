/// `prefs completions <shell>`: prints a completion script for bash, zsh or fish.
enum Completions: Command {
    static let declaration = CommandDeclaration(
        synopsis: "completions bash|zsh|fish", operandKinds: [.choices(CompletionScript.allCases.map(\.rawValue))],
        options: [.complete],
        help: """
            Prints the shell completion script for bash, zsh or fish: verbs, options, domains, keys and choices.

            Load it with:
              bash   source <(prefs completions bash)         (or save it in bash-completion's completions directory)
              zsh    source <(prefs completions zsh)          (after compinit; or save it as _prefs in $fpath)
              fish   prefs completions fish | source          (or save it as ~/.config/fish/completions/prefs.fish)
            The script asks prefs itself for what to offer (--complete), so it always offers the verbs and
            options of the prefs it runs, the domains under the root of the command line being typed, a
            domain's keys (those stored in it and those its schema declares) and, after `write <domain> <key>`,
            the key's choices when its schema gives them. Nothing is created. A key or a choice holding a
            control character (a newline, a tab) is not offered.
            Exit status: 0; 2 for an unknown shell.
            """)

    static func run(_ invocation: Invocation, in context: Context) throws {
        if let index = invocation.value(of: .complete) {
            guard let index = Int(index), index >= 0 else { throw PrefsError.usage("--complete needs a word index (0, 1, ...)") }
            // NB: the words are the shell's, after `--`; no store is opened, and nothing goes to standard error.
            let words = invocation.operands
            for line in CompletionCandidates.candidates(words: words, index: index, environment: context.environment) {
                context.console.print(line)
            }
            return
        }
        let shell = try operands(invocation, 1...1)[0]
        guard let script = CompletionScript(rawValue: shell) else {
            throw PrefsError.usage(
                "completions needs one of: \(CompletionScript.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        context.console.print(script.text)
    }
}
