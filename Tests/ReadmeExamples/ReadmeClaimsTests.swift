import Foundation
import PackageTestSupport
import Testing

/// What README.md says of the package itself (where its samples belong, what a test run needs, which
/// platforms are verified) is what the manifest, the tests and `.ci/run` do.
@Suite struct ReadmeClaimsTests {
    /// The README, its white space made single spaces.
    static func readme() throws -> String { try PackageFiles.prose("README.md") }

    /// The samples with top-level statements are each an executable's `main.swift`, as the README says:
    /// the manifest builds every such sample file, and only those, as an executable. Failed before: the
    /// README only implied it.
    @Test func theTopLevelSamplesAreExecutables() throws {
        #expect(try Self.readme().contains("is an executable's `main.swift`, as `swift test` builds and runs it"))
        let manifest = try String(contentsOf: PackageFiles.url("Package.swift"), encoding: .utf8)
        let declaration = try #require(manifest.firstMatch(of: /let readmeSamples = \[([^\]]*)\]/))
        let executables = Set(declaration.1.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces.union(["\""])) })
        let mainFiles = ReadmeSamples.files.filter { $0.hasSuffix("/main.swift") }.map { String($0.prefix { $0 != "/" }) }
        #expect(!mainFiles.isEmpty)
        #expect(Set(mainFiles) == executables)
        #expect(manifest.contains(".executableTarget(name: $0.name, dependencies: [\"LayeredDefaults\"], path: $0.path)"))
    }

    /// The tools a full run uses beyond the toolchain are the ones the README names, with the packages
    /// to install; `.ci/run` installs those packages and makes the tools required. Failed before: the
    /// README named only libsqlite3-dev, and a run without zsh and fish failed.
    @Test func theToolsOfAFullRunAreNamedAndRequiredInCI() throws {
        let readme = try Self.readme()
        let ci = try String(contentsOf: PackageFiles.url(".ci/run"), encoding: .utf8)
        let tools: [ExternalTool] = [.bash, .zsh, .fish, .man, .syncthing]
        let names = tools.map(\.url.lastPathComponent)
        #expect(readme.contains("A full run also uses \(names.dropLast().joined(separator: ", ")) and \(names.last!)"))
        let packages = tools.map(\.package).filter { $0 != "bash" }
        #expect(readme.contains("`apt-get install -y \(packages.joined(separator: " "))`"))
        #expect(ci.contains("apt-get install -y -qq \(packages.joined(separator: " "))"))
        #expect(readme.contains("`LAYERED_DEFAULTS_REQUIRE_TOOLS=1`"))
        #expect(ci.contains("export LAYERED_DEFAULTS_REQUIRE_TOOLS=1"))
    }

    /// The README says what is verified (Linux) and what is only declared (the manifest's Apple
    /// platform). Failed before: it said "for Swift on Linux (and Apple platforms)".
    @Test func thePlatformsAreStatedAsVerifiedAndDeclared() throws {
        let readme = try Self.readme()
        let manifest = try String(contentsOf: PackageFiles.url("Package.swift"), encoding: .utf8)
        #expect(!readme.contains("(and Apple platforms)"))
        #expect(readme.contains("Verified on Linux only"))
        #expect(readme.contains("the manifest declares macOS 15"))
        #expect(manifest.contains("platforms: [.macOS(.v15)]"))
    }

    /// The README is a guide a newcomer reads through: at most 200 lines, none wider than 105
    /// characters. Failed before: 385 lines, 44 of them wider.
    @Test func theReadmeIsShortAndNarrow() throws {
        let lines = try String(contentsOf: PackageFiles.url("README.md"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count <= 200)
        let wide = lines.enumerated().filter { $0.element.count > 105 }.map { "line \($0.offset + 1)" }
        #expect(wide.isEmpty, "wider than 105 characters: \(wide.joined(separator: ", "))")
    }

    /// The README documents removing a schema beside installing it, in the library and in `prefs`, and
    /// its `prefs` section names `explain`. Failed before: no page said how to remove a schema.
    @Test func removingASchemaIsDocumentedBesideInstallingIt() throws {
        let readme = try Self.readme()
        #expect(readme.contains("`Defaults.Domain(suite).uninstallSchema()` removes an installed schema"))
        #expect(readme.contains("prefs uninstall-schema"))
        #expect(readme.contains("`prefs explain <domain> <key>` tells which layer a value comes from"))
        let schemas = try #require(readme.range(of: "## Schemas"))
        let tool = try #require(readme.range(of: "## The `prefs` tool"))
        let uninstall = try #require(readme.range(of: "uninstallSchema"))
        #expect(schemas.upperBound < uninstall.lowerBound && uninstall.upperBound < tool.lowerBound)
    }

    /// Each sample names a suite of its own, as the README says, so none meets another's schema.
    /// Failed before: every sample used `com.example.app`.
    @Test func eachSampleUsesASuiteOfItsOwn() throws {
        #expect(try Self.readme().contains("Each uses a suite of its own, so you can run them again."))
        var suites: [String] = []
        for file in ReadmeSamples.files where file.hasSuffix("/main.swift") {
            let text = try String(contentsOf: ReadmeSamples.directory.appendingPathComponent(file), encoding: .utf8)
            suites += Set(text.matches(of: /suiteName: "([^"]+)"/).map { String($0.1) })
        }
        #expect(suites.count == 4)
        #expect(Set(suites).count == suites.count, "\(suites)")
    }
}
