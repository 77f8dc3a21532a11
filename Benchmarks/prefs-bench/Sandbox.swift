import Foundation

/// The temporary directory every store of a run lives in, and the environment that keeps Foundation's
/// `UserDefaults` out of the real home.
///
/// NB: Foundation on Linux (CoreFoundation's preferences) reads `HOME` and `XDG_CONFIG_HOME` from a
/// copy of the environment taken when the library loads, before `main`; a `setenv` in `main` comes too
/// late (it then writes `~/.config/<suite>.plist` of the real home). So the process the user starts
/// only creates the sandbox and runs a copy of itself with those variables set from its first
/// instruction; ``verifyFoundationIsolation()`` then checks where Foundation really writes.
struct Sandbox: Sendable {
    /// The environment variable naming the sandbox of the running benchmark.
    static let variable = "PREFS_BENCH_SANDBOX"
    /// The environment variable holding the real home, to check that nothing was written there.
    static let realHomeVariable = "PREFS_BENCH_REAL_HOME"

    /// The sandbox directory.
    let root: URL

    /// The sandbox of this process, when it runs inside one.
    static var current: Sandbox? {
        guard let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty else { return nil }
        return Sandbox(root: URL(fileURLWithPath: path, isDirectory: true))
    }

    /// `HOME` inside the sandbox.
    var home: URL { root.appendingPathComponent("home", isDirectory: true) }
    /// `XDG_CONFIG_HOME` inside the sandbox: where Foundation keeps `<suite>.plist`.
    var configHome: URL { home.appendingPathComponent(".config", isDirectory: true) }
    /// The directory of our stores (`Location.directory`).
    var oursDirectory: URL { root.appendingPathComponent("ours", isDirectory: true) }
    /// The directory of the raw SQLite databases.
    var sqliteDirectory: URL { root.appendingPathComponent("sqlite", isDirectory: true) }

    /// The SQLite database of the domain `suite` of `kind` (ours or raw SQLite), else nil.
    func databasePath(of kind: PeerKind, suite: String) -> String? {
        switch kind {
        case .ours: oursDirectory.appendingPathComponent(suite + ".sqlite3").path
        case .sqlite: sqliteDirectory.appendingPathComponent(suite + ".sqlite3").path
        default: nil
        }
    }

    /// The file in which Foundation keeps the domain `suite`.
    func foundationFile(of suite: String) -> URL { configHome.appendingPathComponent(suite + ".plist") }

    /// Creates a sandbox, runs this executable inside it with `arguments`, removes the sandbox.
    /// - Returns: the exit status to exit with.
    static func runIsolated(arguments: [String]) -> Int32 {
        var template = Array((NSTemporaryDirectory() + "/prefs-bench.XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else {
            FileHandle.standardError.write(Data("prefs-bench: cannot create a temporary directory\n".utf8))
            return 1
        }
        let sandbox = Sandbox(root: URL(fileURLWithPath: String(cString: created), isDirectory: true))
        defer { try? FileManager.default.removeItem(at: sandbox.root) }
        do {
            for directory in [sandbox.configHome, sandbox.oursDirectory, sandbox.sqliteDirectory] {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            }
            var environment = ProcessInfo.processInfo.environment
            environment[realHomeVariable] = environment["HOME"] ?? NSHomeDirectory()
            environment["HOME"] = sandbox.home.path
            environment["XDG_CONFIG_HOME"] = sandbox.configHome.path
            environment["CFFIXED_USER_HOME"] = sandbox.home.path
            environment[variable] = sandbox.root.path
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ChildProcess.executablePath)
            process.arguments = arguments
            process.environment = environment
            try process.run()
            // NB: Ctrl-C reaches both processes; this one waits for the copy to stop, then cleans up.
            signal(SIGINT, SIG_IGN)
            process.waitUntilExit()
            return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
        } catch {
            FileHandle.standardError.write(Data("prefs-bench: \(error)\n".utf8))
            return 1
        }
    }

    /// An error in setting up the sandbox.
    struct IsolationError: Error, CustomStringConvertible {
        let description: String
    }

    /// Writes a probe domain through `UserDefaults` and checks that its file appears in the sandbox.
    /// - Returns: the directory in which Foundation keeps its domains.
    /// - Throws: ``IsolationError`` when Foundation wrote anywhere else (a stray file in the real home
    ///   is removed first), so the run stops before writing anything more.
    func verifyFoundationIsolation() throws -> String {
        let suite = "prefs-bench-probe-\(getpid())"
        guard let defaults = UserDefaults(suiteName: suite) else {
            throw IsolationError(description: "UserDefaults(suiteName:) returned nil")
        }
        defaults.set("probe", forKey: "probe")
        defaults.synchronize()
        if FileManager.default.fileExists(atPath: foundationFile(of: suite).path) { return configHome.path }
        var stray: [String] = []
        if let realHome = ProcessInfo.processInfo.environment[Self.realHomeVariable] {
            for candidate in [
                ".config/\(suite).plist", "Library/Preferences/\(suite).plist", ".config/Preferences/\(suite).plist",
            ] {
                let path = realHome + "/" + candidate
                if FileManager.default.fileExists(atPath: path) {
                    stray.append(path)
                    try? FileManager.default.removeItem(atPath: path)
                }
            }
        }
        throw IsolationError(
            description: "Foundation did not write its probe domain under \(configHome.path)"
                + (stray.isEmpty ? "" : " but to \(stray.joined(separator: ", ")) (removed)") + "; stopping")
    }
}
