import Foundation
import PackageTestSupport
import Testing

/// The checker that keeps README.md's Swift blocks identical to the sample files that are compiled, one
/// file a module, with only the imports each shows.
@Suite struct ReadmeSamplesTests {
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

    /// A block matches its sample file only when every byte is the same, and a block or file left over
    /// is named.
    @Test func aBlockMatchesItsFileByteForByte() {
        let samples = [(file: "A/main.swift", text: "f(1)\n")]
        #expect(ReadmeSamples.mismatches(blocks: ["f(1)\n"], samples: samples).isEmpty)
        #expect(ReadmeSamples.mismatches(blocks: ["f(1) \n"], samples: samples) == ["A/main.swift: differs from block 1, f(1) "])
        #expect(ReadmeSamples.mismatches(blocks: ["f(1)\n", "g()\n"], samples: samples) == ["block 2 has no sample file: g()"])
        #expect(ReadmeSamples.mismatches(blocks: [], samples: samples) == ["A/main.swift: no README block 1"])
    }

    /// README.md's Swift blocks are, in order and byte for byte, the sample files, which the package
    /// compiles each in a module of its own (the manifest: a package of its own).
    @Test func everyReadmeBlockIsItsSampleFile() throws {
        let markdown = try String(contentsOf: ReadmeSamples.readme, encoding: .utf8)
        let samples = try ReadmeSamples.files.map { file in
            (file: file, text: try String(contentsOf: ReadmeSamples.directory.appendingPathComponent(file), encoding: .utf8))
        }
        let mismatches = ReadmeSamples.mismatches(blocks: ReadmeSamples.codeBlocks(inMarkdown: markdown), samples: samples)
        #expect(
            mismatches.isEmpty,
            "README.md's Swift blocks and Tests/ReadmeSamples disagree:\n\(mismatches.joined(separator: "\n"))")
    }

    /// Every Swift file of Tests/ReadmeSamples is a README block: none sits there unchecked.
    @Test func everySampleFileIsAReadmeBlock() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: ReadmeSamples.directory.path).filter {
            $0.hasSuffix(".swift")
        }
        #expect(Set(files) == Set(ReadmeSamples.files))
    }

    /// The README's manifest sample is a manifest SwiftPM loads, and its targets use every library
    /// product of the package, each from the package "LayeredDefaults", and no other.
    ///
    /// NB: SwiftPM keeps a lock file for the package's build directory in `$TMPDIR`, and its own
    /// `TemporaryDirectory.*` folders there; the child's `TMPDIR` is inside the temporary root, removed
    /// with it, and its manifest cache stays in the package's own `.build`, so the run leaves nothing.
    @Test func theManifestSampleLoadsAndNamesEveryLibraryProduct() throws {
        try withTemporaryRoot { directory in
            let package = directory.appendingPathComponent("package")
            let temporary = directory.appendingPathComponent("tmp")
            for made in [package, temporary] {
                try FileManager.default.createDirectory(at: made, withIntermediateDirectories: false)
            }
            try FileManager.default.copyItem(
                at: ReadmeSamples.directory.appendingPathComponent("Manifest/Package.swift"),
                to: package.appendingPathComponent("Package.swift"))
            var environment = ProcessInfo.processInfo.environment
            environment["TMPDIR"] = temporary.path
            let dump = try run(
                executable: URL(fileURLWithPath: "/usr/bin/env"),
                ["swift", "package", "dump-package", "--package-path", package.path, "--manifest-cache", "local"],
                environment: environment)
            try #require(dump.succeeded, "swift package dump-package failed: \(dump.error)")
            let shown = try Self.productDependencies(inDump: Data(dump.output.utf8))
            let manifest = try String(
                contentsOf: ReadmeSamples.packageDirectory.appendingPathComponent("Package.swift"), encoding: .utf8)
            let libraries = try Self.names(in: manifest, pattern: #"\.library\(name: "([^"]+)""#)
            #expect(!libraries.isEmpty)
            #expect(shown == Set(libraries.map { "\($0) from LayeredDefaults" }))
        }
    }

    /// `<product> from <package>` for each product dependency of the targets of a `dump-package` JSON.
    private static func productDependencies(inDump json: Data) throws -> Set<String> {
        let manifest = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let targets = try #require(manifest["targets"] as? [[String: Any]])
        var found = Set<String>()
        for target in targets {
            for dependency in target["dependencies"] as? [[String: Any]] ?? [] {
                // NB: a product dependency is dumped as {"product": [name, package, moduleAliases, condition]}.
                guard let product = dependency["product"] as? [Any], product.count >= 2,
                    let name = product[0] as? String, let package = product[1] as? String
                else { continue }
                found.insert("\(name) from \(package)")
            }
        }
        return found
    }

    /// The first capture of each match of `pattern` in `text`.
    private static func names(in text: String, pattern: String) throws -> Set<String> {
        let expression = try NSRegularExpression(pattern: pattern)
        let matches = expression.matches(in: text, range: NSRange(text.startIndex..., in: text))
        return Set(matches.compactMap { Range($0.range(at: 1), in: text).map { String(text[$0]) } })
    }
}
