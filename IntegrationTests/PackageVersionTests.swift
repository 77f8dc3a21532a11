import Foundation
import LayeredDefaults
import PackageTestSupport
import Testing

/// The package has one version, `Defaults.packageVersion`: the tools print it and CHANGELOG.md's latest
/// release is it.
@Suite struct PackageVersionTests {
    /// The package's CHANGELOG.md.
    static let changelog = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../CHANGELOG.md").standardizedFileURL

    @Test func theVersionIsSemantic() {
        let parts = Defaults.packageVersion.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) })
    }

    @Test func prefsPrintsThePackageVersion() throws {
        try withTemporaryRoot { root in
            var environment = ProcessInfo.processInfo.environment
            environment["LAYERED_DEFAULTS_HOME"] = root.path
            let result = try run("prefs", ["--version"], environment: environment)
            #expect(result.succeeded && result.output == "prefs \(Defaults.packageVersion)\n" && result.error.isEmpty)
        }
    }

    /// The first `## [x.y.z] - date` heading (the one after `## [Unreleased]`) names the package's version.
    @Test func theChangelogsLatestReleaseIsThePackageVersion() throws {
        let text = try String(contentsOf: Self.changelog, encoding: .utf8)
        let headings = text.split(separator: "\n").filter { $0.hasPrefix("## [") }
        #expect(headings.first == "## [Unreleased]")
        let release = try #require(headings.first { $0 != "## [Unreleased]" })
        #expect(release.hasPrefix("## [\(Defaults.packageVersion)] - "), "CHANGELOG.md's latest release is \(release)")
    }
}
