import Foundation
import PackageTestSupport

/// Runs the package's built executables as child processes against one root directory.
///
/// The child's environment is this process's with `LAYERED_DEFAULTS_HOME` set to the root, so even a
/// child run without `--root` never touches the user's own preferences.
struct Launcher: Sendable {
    /// The directory of the domains.
    let root: URL

    /// This process's environment, pointing at the root.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["LAYERED_DEFAULTS_HOME"] = root.path
        return environment
    }

    /// Starts `product` with `arguments`, its environment pointing at the root.
    func start(_ product: String, _ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(product, arguments, environment: environment)
    }

    /// Runs `product` and waits for it to exit.
    /// - Parameter input: what the child reads on standard input (nothing by default).
    @discardableResult
    func run(_ product: String, _ arguments: [String], input: Data = Data()) throws -> ProcessResult {
        try PackageTestSupport.run(product, arguments, environment: environment, input: input)
    }

    /// Runs `script` with `/bin/sh -c` and waits for it to exit: for what only a shell sets up around
    /// `prefs` (a closed or full standard stream, a pipe, a file-size limit, an argument that is not
    /// UTF-8). `$PREFS` is the built `prefs`, `$1`... are `arguments`.
    @discardableResult
    func shell(_ script: String, _ arguments: String...) throws -> ProcessResult {
        var environment = environment
        environment["PREFS"] = BuiltProducts.url(of: "prefs").path
        return try PackageTestSupport.run(
            executable: URL(fileURLWithPath: "/bin/sh"), ["-c", script, "sh"] + arguments,
            environment: environment)
    }

    /// Runs `prefs` against the root.
    @discardableResult
    func prefs(_ arguments: String..., input: Data = Data()) throws -> ProcessResult {
        try run("prefs", arguments, input: input)
    }

    /// Runs `theme-demo` on `suite` (the root comes from `LAYERED_DEFAULTS_HOME`).
    @discardableResult
    func themeDemo(suite: String, _ arguments: String...) throws -> ProcessResult {
        try run("theme-demo", ["--suite", suite] + arguments)
    }
}

/// A suite name of its own for one test: `it.<test>.<UUID>`.
func uniqueSuite(_ test: String) -> String {
    "it.\(test).\(UUID().uuidString)"
}
