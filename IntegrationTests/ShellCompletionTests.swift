import Foundation
import LayeredDefaults
import PackageTestSupport
import Testing

/// Each completion script of `prefs completions <shell>` loads in its real shell and completes a verb,
/// a domain name from the store, a key of the domain (stored or declared) and a choice of the key. A
/// shell that is not installed skips its test (`.needs`).
@Suite struct ShellCompletionTests {
    /// The verbs that start with `re`.
    static let verbs = ["read", "read-type", "rename", "repair", "reset", "restore", "revert"]

    /// Runs `script` with `shell` and `arguments` before `-c`, the built `prefs` first on the `PATH`,
    /// and `HOME` (where a shell keeps its files) and the domains in `root`.
    func run(_ shell: ExternalTool, _ arguments: [String], _ script: String, root: URL) throws -> ProcessResult {
        let executable = try shell.executable()
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = BuiltProducts.url(of: "prefs").deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
        environment["HOME"] = root.path
        environment["XDG_CONFIG_HOME"] = root.appendingPathComponent("config").path
        environment["XDG_DATA_HOME"] = root.appendingPathComponent("data").path
        environment["LAYERED_DEFAULTS_HOME"] = root.appendingPathComponent("domains").path
        return try PackageTestSupport.run(executable: executable, arguments + ["-c", script], environment: environment)
    }

    /// The schema of `com.example.shell`: a theme of two choices.
    static let schema = try! PreferenceSchema(
        suiteName: "com.example.shell", version: 1,
        entries: [
            .init(
                name: "theme", type: .string, defaultValue: "light", summary: "The colour scheme",
                accepted: .choices(["light", "dark"]))
        ])

    /// Writes the domains the completions should offer and a schema, and checks what the shell printed:
    /// the verbs, `==`, the domains, `==`, the keys of `com.example.shell`, `==`, the theme's choices
    /// that start with `d`.
    func check(_ shell: ExternalTool, _ arguments: [String], _ script: String) throws {
        try withTemporaryRoot { root throws in
            let launcher = Launcher(root: root.appendingPathComponent("domains"))
            try #require(try launcher.prefs("write", "com.example.shell", "k", "v").succeeded)
            try #require(try launcher.prefs("write", "org.other", "k", "v").succeeded)
            try Defaults.Domain("com.example.shell", location: .directory(launcher.root)).installSchema(Self.schema)
            let result = try run(shell, arguments, script, root: root)
            let shell = shell.url.lastPathComponent
            #expect(result.succeeded && result.error.isEmpty, "\(shell): \(result.error)")
            let lines = result.output.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
            let parts = lines.split(separator: "==", omittingEmptySubsequences: false).map(Array.init)
            try #require(parts.count == 4, "\(shell): \(result.output)")
            #expect(parts[0] == Self.verbs, "\(shell)")
            #expect(Set(parts[1]) == ["-g", "com.example.shell", "org.other"], "\(shell)")
            #expect(Set(parts[2]) == ["k", "theme"], "\(shell)")
            #expect(parts[3] == ["dark"], "\(shell)")
        }
    }

    /// bash inserts what it is given as it is: each candidate is quoted for it, so a key with a space
    /// or a `*` (which would also match the files of the directory) is inserted as one word, itself.
    @Test(.needs(.bash)) func bashQuotesTheWordsItInserts() throws {
        try withTemporaryRoot { root throws in
            let launcher = Launcher(root: root.appendingPathComponent("domains"))
            for key in ["two words", "a*"] { try #require(try launcher.prefs("write", "app", key, "v").succeeded) }
            let result = try run(
                .bash, ["--norc", "--noprofile"],
                #"""
                source <(prefs completions bash)
                cd "$HOME" && touch abc
                COMP_WORDS=(prefs read app ''); COMP_CWORD=3; _prefs; printf '%s\n' "${COMPREPLY[@]}"
                """#, root: root)
            #expect(result.succeeded && result.error.isEmpty, "\(result.error)")
            #expect(result.output == "a\\*\ntwo\\ words\n")
        }
    }

    @Test(.needs(.bash)) func bash() throws {
        try check(
            .bash, ["--norc", "--noprofile"],
            #"""
            source <(prefs completions bash)
            [[ "$(complete -p prefs)" == "complete -F _prefs prefs" ]] || exit 1
            COMP_WORDS=(prefs re); COMP_CWORD=1; _prefs; printf '%s\n' "${COMPREPLY[@]}"
            echo ==
            COMP_WORDS=(prefs read ''); COMP_CWORD=2; _prefs; printf '%s\n' "${COMPREPLY[@]}"
            echo ==
            COMP_WORDS=(prefs read com.example.shell ''); COMP_CWORD=3; _prefs; printf '%s\n' "${COMPREPLY[@]}"
            echo ==
            COMP_WORDS=(prefs write com.example.shell theme d); COMP_CWORD=4; _prefs; printf '%s\n' "${COMPREPLY[@]}"
            """#)
    }

    /// NB: `compadd` only works inside a completion widget; a function of the same name, which zsh
    /// calls before the builtin, prints what the script offers instead.
    @Test(.needs(.zsh)) func zsh() throws {
        try check(
            .zsh, ["-f"],
            #"""
            autoload -Uz compinit && compinit -u -D
            source <(prefs completions zsh)
            [[ "${_comps[prefs]}" == _prefs ]] || exit 1
            compadd() { [[ $1 == -a ]] && print -rl -- "${(@P)2}"; }
            words=(prefs re); CURRENT=2; _prefs
            print -- '=='
            words=(prefs read ''); CURRENT=3; _prefs
            print -- '=='
            words=(prefs read com.example.shell ''); CURRENT=4; _prefs
            print -- '=='
            words=(prefs write com.example.shell theme d); CURRENT=5; _prefs
            """#)
    }

    @Test(.needs(.fish)) func fish() throws {
        try check(
            .fish, ["--no-config"],
            #"""
            prefs completions fish | source
            complete -C 'prefs re'
            echo ==
            complete -C 'prefs read '
            echo ==
            complete -C 'prefs read com.example.shell '
            echo ==
            complete -C 'prefs write com.example.shell theme d'
            """#)
    }
}
