import Foundation
import PackageTestSupport
import Testing

/// Each completion script of `prefs completions <shell>` loads in its real shell and completes a verb
/// and a domain name from the store. A shell that is not installed skips its test (`.needs`).
@Suite struct ShellCompletionTests {
    /// The verbs that start with `re`.
    static let verbs = ["read", "read-type", "rename", "repair", "reset", "restore"]

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

    /// Writes the domains the completions should offer, and checks what the shell printed: the verbs,
    /// `==`, then the domains.
    func check(_ shell: ExternalTool, _ arguments: [String], _ script: String) throws {
        try withTemporaryRoot { root throws in
            let launcher = Launcher(root: root.appendingPathComponent("domains"))
            try #require(try launcher.prefs("write", "com.example.shell", "k", "v").succeeded)
            try #require(try launcher.prefs("write", "org.other", "k", "v").succeeded)
            let result = try run(shell, arguments, script, root: root)
            let name = shell.url.lastPathComponent
            #expect(result.succeeded && result.error.isEmpty, "\(name): \(result.error)")
            let lines = result.output.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
            let separator = try #require(lines.firstIndex(of: "=="), "\(name): \(result.output)")
            #expect(Array(lines[..<separator]) == Self.verbs, "\(name)")
            #expect(Set(lines[(separator + 1)...]) == ["-g", "com.example.shell", "org.other"], "\(name)")
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
            """#)
    }
}
