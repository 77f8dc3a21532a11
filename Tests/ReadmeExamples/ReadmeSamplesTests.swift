import Foundation
import Testing

/// The checker that keeps the README's Swift samples identical to the compiled files of this target.
@Suite struct ReadmeSamplesTests {
    /// The directory whose `.swift` files hold the README's samples: `Samples` beside this file.
    static let samplesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Samples")
    /// The package's README.
    static let readme = samplesDirectory.appendingPathComponent("../../../README.md").standardizedFileURL

    /// A code block is the text between its fences, whatever their indentation, for one language only.
    @Test func codeBlocksAreTheLinesBetweenTheFencesOfTheLanguage() {
        let markdown = """
            Text.

            ```swift
            let a = 1

              indented()
            ```

            ```sh
            swift test
            ```

            1. A step:
               ```swift
               inList()
               ```
            """
        #expect(ReadmeSamples.codeBlocks(inMarkdown: markdown) == ["let a = 1\n\n  indented()\n", "inList()\n"])
        #expect(ReadmeSamples.codeBlocks(inMarkdown: markdown, language: "sh") == ["swift test\n"])
    }

    /// A region drops its marker's indentation; regions of one name join in order.
    @Test func regionsLoseTheirMarkersIndentationAndJoinByName() throws {
        let source = """
            // README: tour
            import LayeredDefaults
            // END README

            func tour() throws {
                // README: tour
                let defaults = try Defaults(suiteName: "a")
                if true {
                    print(defaults)
                }

                // END README
                // README: other
                other()
                // END README
            }
            """
        let regions = try ReadmeSamples.regions(inSource: source)
        #expect(
            regions == [
                "tour":
                    "import LayeredDefaults\nlet defaults = try Defaults(suiteName: \"a\")\nif true {\n    print(defaults)\n}\n\n",
                "other": "other()\n",
            ])
    }

    /// An unclosed, unopened, nested or under-indented region is an error, not a silent mismatch.
    @Test func malformedRegionsAreRefused() {
        #expect(throws: ReadmeSamples.Malformed.self) { try ReadmeSamples.regions(inSource: "// README: a\nx()\n") }
        #expect(throws: ReadmeSamples.Malformed.self) { try ReadmeSamples.regions(inSource: "x()\n// END README\n") }
        #expect(throws: ReadmeSamples.Malformed.self) {
            try ReadmeSamples.regions(inSource: "// README: a\n// README: b\n// END README\n")
        }
        #expect(throws: ReadmeSamples.Malformed.self) {
            try ReadmeSamples.regions(inSource: "    // README: a\n  x()\n    // END README\n")
        }
    }

    /// A block matches a region only when every byte is the same; other languages are not checked.
    @Test func aBlockMatchesOnlyARegionByteForByte() throws {
        let sources = ["Sample.swift": "func f() {\n    // README: f\n    f(1)\n    // END README\n}\n"]
        #expect(try ReadmeSamples.unmatchedBlocks(inMarkdown: "```swift\nf(1)\n```\n", sources: sources).isEmpty)
        #expect(try ReadmeSamples.unmatchedBlocks(inMarkdown: "```swift\nf(1) \n```\n", sources: sources) == ["f(1) \n"])
        #expect(try ReadmeSamples.unmatchedBlocks(inMarkdown: "```swift\nf(2)\n```\n", sources: sources) == ["f(2)\n"])
        #expect(try ReadmeSamples.unmatchedBlocks(inMarkdown: "```sh\nf(2)\n```\n", sources: sources).isEmpty)
    }

    /// The README's manifest sample (not compiled: a package of its own) names every library product of
    /// the package, each from the package "LayeredDefaults", and no other.
    @Test func theManifestSampleNamesEveryLibraryProduct() throws {
        let manifest = try String(
            contentsOf: Self.samplesDirectory.appendingPathComponent("Manifest/Package.swift"), encoding: .utf8)
        let package = try String(
            contentsOf: Self.readme.deletingLastPathComponent().appendingPathComponent("Package.swift"), encoding: .utf8)
        let shown = try Self.names(in: manifest, pattern: #"\.product\(name: "([^"]+)", package: "LayeredDefaults"\)"#)
        let libraries = try Self.names(in: package, pattern: #"\.library\(name: "([^"]+)""#)
        #expect(!libraries.isEmpty)
        #expect(shown == libraries)
    }

    /// The first capture of each match of `pattern` in `text`.
    private static func names(in text: String, pattern: String) throws -> Set<String> {
        let expression = try NSRegularExpression(pattern: pattern)
        let matches = expression.matches(in: text, range: NSRange(text.startIndex..., in: text))
        return Set(matches.compactMap { Range($0.range(at: 1), in: text).map { String(text[$0]) } })
    }

    /// README.md's Swift blocks are regions of the compiled files in `Samples`.
    @Test func everyReadmeSampleIsACompiledRegion() throws {
        let markdown = try String(contentsOf: Self.readme, encoding: .utf8)
        var sources: [String: String] = [:]
        let files = try FileManager.default.subpathsOfDirectory(atPath: Self.samplesDirectory.path).filter {
            $0.hasSuffix(".swift")
        }
        for file in files {
            sources[file] = try String(contentsOf: Self.samplesDirectory.appendingPathComponent(file), encoding: .utf8)
        }
        let unmatched = try ReadmeSamples.unmatchedBlocks(inMarkdown: markdown, sources: sources)
        guard !unmatched.isEmpty else { return }
        Issue.record(
            """
            \(unmatched.count) of README.md's Swift blocks match no `\(ReadmeSamples.regionStart)<name>` ... \
            `\(ReadmeSamples.regionEnd)` region of Tests/ReadmeExamples/Samples; the first lines of each:
            \(unmatched.map { "- " + ($0.split(separator: "\n").first ?? "") }.joined(separator: "\n"))
            """)
    }
}
