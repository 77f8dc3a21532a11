import Foundation
import LayeredDefaults

/// `prefs man [--install]`: prints the manual page, `prefs.1`, as roff, or installs it where `man` finds it.
enum Manual: Command {
    static let declaration = CommandDeclaration(
        synopsis: "man [--install]",
        options: [.install],
        help: """
            Prints the manual page (prefs.1, roff): `prefs man | man -l -`; with --install, writes it where `man prefs` finds it.

            Made of the same declarations as the help and the completions: every verb, its options and the
            global options. docs/prefs.1 in the repository is this output.
            --install writes the page to $XDG_DATA_HOME/man/man1/prefs.1, else to
            ~/.local/share/man/man1/prefs.1, making the directories that are missing, and prints the path
            (with --json, {"installed":"<path>"}). It replaces a page an earlier `prefs man --install` wrote,
            of any version, and nothing else. man-db's `man prefs` finds ~/.local/share/man when ~/.local/bin
            is on the PATH; otherwise, and for another $XDG_DATA_HOME, name its man directory in MANPATH:
              export MANPATH="$HOME/.local/share/man:"   (the final colon keeps the system's pages)
            When neither MANPATH nor PATH names it, a warning on standard error says so and what to run.
            Exit status: 0; 2 when a file that is not such a page is in the way (nothing is written); 3 when
            the page cannot be written.
            """)

    /// What `--install --json` prints.
    private struct Installed: Encodable {
        let installed: String
    }

    static func run(_ invocation: Invocation, in context: Context) throws {
        _ = try operands(invocation, 0...0)
        guard invocation.has(.install) else { return context.console.writeOutput(ManualPage.roff) }
        let page = installedPage(environment: context.environment)
        try refuseAnythingButAPage(at: page.path)
        do {
            try FileActs.createDirectories(page.deletingLastPathComponent().path, mode: nil)
            try FileActs.replace(page.path, with: Data(ManualPage.roff.utf8), mode: 0o644)
        } catch {
            throw PrefsError.storage(
                "cannot write the manual page '\(page.path)' (\(Export.reason(error))); nothing was installed")
        }
        context.console.print(context.json ? try Output.jsonLine(Installed(installed: page.path)) : page.path)
        let directory = page.deletingLastPathComponent().deletingLastPathComponent()
        if !ManualPath.searches(directory, environment: context.environment) {
            context.console.warn(ManualPath.advice(for: directory, environment: context.environment), json: context.json)
        }
    }

    /// Where `--install` writes the page: `$XDG_DATA_HOME/man/man1/prefs.1` (an absolute path only, as
    /// the XDG base directory specification asks), else `$HOME/.local/share/man/man1/prefs.1`.
    static func installedPage(environment: [String: String]) -> URL {
        Location.baseDirectory("XDG_DATA_HOME", inHome: ".local/share", environment: environment)
            .appendingPathComponent("man/man1/prefs.1")
    }

    /// Refuses to replace what is at `path` unless nothing is, or a page `prefs man` made: a regular
    /// file whose first line is ``ManualPage/signature``'s.
    /// - Throws: ``PrefsError/usage(_:)`` for anything else (a link, a directory, another file).
    private static func refuseAnythingButAPage(at path: String) throws(PrefsError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        let start = status.st_mode & S_IFMT == S_IFREG ? try? Descriptor.readAll(atPath: path, limit: 4_096) : nil
        guard let start, String(decoding: start, as: UTF8.self).hasPrefix(ManualPage.signature) else {
            throw .usage("'\(path)' is not a manual page that `prefs man` wrote; nothing was written: move it away first")
        }
    }
}
