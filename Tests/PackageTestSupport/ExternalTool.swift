import Foundation
import Testing

/// A program a test runs that is neither the Swift toolchain nor part of `libsqlite3-dev`: a shell whose
/// completion script is loaded, `man`, which renders the man page, or Syncthing, which replicates a sync folder.
///
/// A test that needs one is marked `.needs(tool)`: on a machine without the tool it is skipped, saying
/// which package installs it. Where `LAYERED_DEFAULTS_REQUIRE_TOOLS=1` (`.ci/run` sets it, having installed
/// them) it always runs, and ``executable()`` fails it when the tool is missing: there a skip would hide it.
public struct ExternalTool: Sendable {
    /// The tool's executable.
    public let url: URL
    /// The Debian and Ubuntu package that installs it.
    public let package: String

    /// The tool at `path`, installed by `package`.
    public init(path: String, package: String) {
        url = URL(fileURLWithPath: path)
        self.package = package
    }

    /// GNU bash, whose completion script `prefs completions bash` prints.
    public static let bash = ExternalTool(path: "/usr/bin/bash", package: "bash")
    /// The Z shell, whose completion script `prefs completions zsh` prints.
    public static let zsh = ExternalTool(path: "/usr/bin/zsh", package: "zsh")
    /// The fish shell, whose completion script `prefs completions fish` prints.
    public static let fish = ExternalTool(path: "/usr/bin/fish", package: "fish")
    /// man-db's `man`, which renders and finds the man page.
    public static let man = ExternalTool(path: "/usr/bin/man", package: "man-db")
    /// Syncthing, the sync engine that replicates a sync folder between two instances on the loopback.
    public static let syncthing = ExternalTool(path: "/usr/bin/syncthing", package: "syncthing")

    /// Whether the tool's executable is there.
    public var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: url.path) }

    /// Whether this run must run every test that needs a tool (`LAYERED_DEFAULTS_REQUIRE_TOOLS=1`).
    public static var areRequired: Bool { ProcessInfo.processInfo.environment["LAYERED_DEFAULTS_REQUIRE_TOOLS"] == "1" }

    /// Why a test that needs the tool does not run here.
    var missingReason: String {
        "\(url.lastPathComponent) is not installed (apt-get install \(package)); with LAYERED_DEFAULTS_REQUIRE_TOOLS=1, as in .ci/run, the test fails instead"
    }

    /// The tool's executable, for a test marked `.needs(tool)`.
    /// - Throws: an `ExpectationFailedError` (failing the test) when it is missing, which happens only where
    ///   tools are required.
    public func executable(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        try #require(isInstalled, "\(missingReason)", sourceLocation: sourceLocation)
        return url
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only where `tool` is installed, or where tools are required
    /// (``ExternalTool/areRequired``); elsewhere it is skipped, and the skip names the package to install.
    public static func needs(_ tool: ExternalTool, sourceLocation: SourceLocation = #_sourceLocation) -> Self {
        // NB: evaluated when the test is about to run; the comment is the reason the run shows for the skip.
        .enabled(
            if: tool.isInstalled || ExternalTool.areRequired, Comment(rawValue: tool.missingReason),
            sourceLocation: sourceLocation)
    }
}
