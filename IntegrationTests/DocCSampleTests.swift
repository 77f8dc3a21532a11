import Foundation
import PackageTestSupport
import Testing

/// The DocC catalogs' self-contained samples (a Swift block that starts with its imports) compile as
/// pasted, without a warning, against the package's built modules.
@Suite struct DocCSampleTests {
    /// Every Swift block of the catalogs' articles that starts with `import`: its article and its text.
    static let samples: [(article: String, text: String)] = {
        let sources = PackageFiles.url("Sources")
        var found: [(String, String)] = []
        for case let path as String in FileManager.default.enumerator(atPath: sources.path) ?? .init()
        where path.contains(".docc/") && path.hasSuffix(".md") {
            guard let markdown = try? String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8) else { continue }
            for block in markdown.components(separatedBy: "```swift\n").dropFirst() {
                let text = block.components(separatedBy: "```").first ?? ""
                if text.hasPrefix("import ") { found.append((path, text)) }
            }
        }
        return found.sorted { $0.0 < $1.0 }
    }()

    @Test func theCatalogsHaveSelfContainedSamples() {
        #expect(Self.samples.contains { $0.article.hasSuffix("LayeredDefaultsCompatibility.md") })
        #expect(Self.samples.contains { $0.article.hasSuffix("GettingStarted.md") })
    }

    @Test func everySelfContainedSampleCompilesWithoutAWarning() throws {
        let modules = BuiltProducts.directory.appendingPathComponent("Modules")
        try #require(FileManager.default.fileExists(atPath: modules.path), "the built modules, beside the test bundle")
        try withTemporaryRoot { root in
            for (index, sample) in Self.samples.enumerated() {
                let file = root.appendingPathComponent("sample\(index).swift")
                try Data(sample.text.utf8).write(to: file)
                let result = try run(
                    executable: URL(fileURLWithPath: "/usr/bin/env"),
                    [
                        "swiftc", "-typecheck", "-warnings-as-errors", "-I", modules.path, "-Xcc",
                        "-fmodule-map-file=" + PackageFiles.url("Sources/CSQLite/module.modulemap").path, file.path,
                    ])
                #expect(result.succeeded && result.error.isEmpty, "\(sample.article): \(result.error)")
            }
        }
    }
}
