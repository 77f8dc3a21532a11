import Foundation

/// Whether man-db's `man` finds a page installed in a man directory, told from the environment by the
/// rules `manpath(1)` follows: `MANPATH` when it is set (an empty component of it standing for what
/// follows), else a man directory beside each `bin` directory of the `PATH` (`<dir>/bin` gives
/// `<dir>/share/man` and `<dir>/man`).
enum ManualPath {
    /// Whether `man` searches `directory` (a man directory, such as `~/.local/share/man`) in `environment`.
    static func searches(_ directory: URL, environment: [String: String]) -> Bool {
        let wanted = normalized(directory.path)
        if let manPath = environment["MANPATH"], !manPath.isEmpty {
            let components = manPath.split(separator: ":", omittingEmptySubsequences: false)
            if components.contains(where: { !$0.isEmpty && normalized(String($0)) == wanted }) { return true }
            // NB: an empty component (a leading, trailing or double colon) stands for the path man-db
            // would make without MANPATH, of which the PATH's man directories are part.
            guard components.contains(where: \.isEmpty) else { return false }
        }
        return (environment["PATH"] ?? "").split(separator: ":").contains { entry in
            let bin = URL(fileURLWithPath: String(entry))
            guard bin.lastPathComponent == "bin" else { return false }
            let parent = bin.deletingLastPathComponent()
            return [parent.appendingPathComponent("share/man"), parent.appendingPathComponent("man")]
                .contains { normalized($0.path) == wanted }
        }
    }

    /// What to do so that `man prefs` finds a page in `directory`: name it in `MANPATH` (the final colon
    /// keeps the system's pages).
    static func advice(for directory: URL, environment: [String: String]) -> String {
        let set = environment["MANPATH"].map { $0.isEmpty ? "" : ":" + $0 } ?? ":"
        return "`man prefs` will not find it: MANPATH and PATH name no such man directory; run "
            + "export MANPATH=\"\(directory.path)\(set)\" (e.g. in your shell's profile), or use `man -l \(directory.path)/man1/prefs.1`"
    }

    /// `path` without a trailing slash and with `.` and `..` resolved, as two spellings of one directory compare.
    private static func normalized(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
