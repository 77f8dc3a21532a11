import Foundation
import LayeredDefaults
import PackageTestSupport
import Testing

/// The README's samples, built as they are pasted (an executable each), run as a user runs them: one
/// after another in the README's order, in one root, twice, then its `prefs` commands. Each does what its
/// comments say, and none breaks another.
@Suite struct ReadmeSampleRunTests {
    /// The environment of a sample: this process's, with the store's root at `root` and no system
    /// directory that exists.
    private static func environment(root: URL) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["LAYERED_DEFAULTS_HOME"] = root.path
        environment["XDG_CONFIG_DIRS"] = root.appendingPathComponent("no-system-directory").path
        return environment
    }

    /// Runs the sample `product` with its store's root at `root`, in `root` as its working directory, and
    /// requires it to succeed.
    private static func runSample(_ product: String, root: URL) throws -> ProcessResult {
        // NB: through the shell, for its working directory.
        let result = try run(
            executable: URL(fileURLWithPath: "/bin/sh"),
            ["-c", #"cd "$1" && exec "$2""#, "sh", root.path, BuiltProducts.url(of: product).path],
            environment: environment(root: root))
        try #require(result.succeeded, "\(product) failed (status \(result.status)): \(result.error)")
        return result
    }

    /// The store of `suite` in `root`.
    private static func store(_ suite: String, root: URL) throws -> Defaults {
        try Defaults(suiteName: suite, configuration: .init(location: .directory(root), arguments: []))
    }

    /// The executables of the README's samples, in the README's order.
    static var samples: [String] {
        ReadmeSamples.files.filter { $0.hasSuffix("/main.swift") }.map { "readme-" + $0.prefix { $0 != "/" }.lowercased() }
    }

    /// The commands of the README's `prefs` block, its comments left out.
    static func prefsCommands() throws -> [String] {
        let markdown = try String(contentsOf: ReadmeSamples.readme, encoding: .utf8)
        let block = try #require(
            ReadmeSamples.codeBlocks(inMarkdown: markdown, language: "sh").first { $0.contains("prefs explain") })
        return block.split(separator: "\n").map { line in
            String(line.prefix { $0 != "#" }).trimmingCharacters(in: .whitespaces)
        }
    }

    /// Every sample, in the README's order, in one root, and each again, as a user re-runs them: each
    /// sample keeps to its own suite, so the schema one installs breaks no other. Failed before: every
    /// sample used `com.example.app`, and after the Schemas sample the tour died re-run ("its schema
    /// declares no such key"); each sample was run in a root of its own, which hid it.
    @Test func theSamplesRunInReadmeOrderInOneRootAndAgain() throws {
        #expect(Self.samples == ["readme-tour", "readme-typedkeys", "readme-observation", "readme-schemas"])
        try withTemporaryRoot { root in
            for round in 1...2 {
                var outputs: [String: String] = [:]
                for sample in Self.samples { outputs[sample] = try Self.runSample(sample, root: root).output }
                #expect(
                    outputs == [
                        "readme-tour": "14\n", "readme-typedkeys": round == 1 ? "12\n" : "14\n",
                        "readme-observation": "font size: 12\n", "readme-schemas": "12\n",
                    ], "round \(round)")

                #expect(try Self.store("com.example.tour", root: root).persistentValues() == ["launchCount": .integer(round)])
                #expect(
                    try Self.store("com.example.keys", root: root).persistentValues() == ["fontSize": 14, "appearance": "dark"])
                #expect(try Self.store("com.example.editor", root: root).persistentValues().isEmpty, "14 reset, 100 refused")
                let schema = try Defaults.Domain("com.example.editor", location: .directory(root), systemDirectories: [])
                    .installedSchema()
                #expect(schema?.keys.map(\.name) == ["fontSize"])
                #expect(schema?.entry(named: "fontSize")?.acceptedPhrase == "an integer from 6 to 72")
            }
            // Opening, observing and reading a domain make no file: its first write does.
            let files = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".sqlite3") }
            #expect(Set(files) == ["com.example.tour.sqlite3", "com.example.keys.sqlite3", "com.example.editor.sqlite3"])
        }
    }

    /// The README's `prefs` commands, after the Schemas sample, in one root, do what their comments say.
    @Test func thePrefsCommandsDoWhatTheirCommentsSay() throws {
        let expected: [(command: String, status: Int32, output: String)] = [
            ("prefs keys com.example.editor", 0, "fontSize\tinteger\t12\n"),
            ("prefs write com.example.editor fontSize 20", 0, ""),
            ("prefs write com.example.editor fontSize 100", 2, ""),
            (
                "prefs explain com.example.editor fontSize", 0,
                "fontSize of com.example.editor reads 20, from the persistent layer\n"
            ),
            ("prefs reset com.example.editor fontSize", 0, ""),
            ("prefs read com.example.editor fontSize", 0, "12\n"),
            ("prefs uninstall-schema com.example.editor", 0, "removed\n"),
        ]
        #expect(try Self.prefsCommands() == expected.map(\.command))
        try withTemporaryRoot { root in
            _ = try Self.runSample("readme-schemas", root: root)
            for step in expected {
                let arguments = step.command.split(separator: " ").dropFirst().map(String.init)
                let result = try run("prefs", arguments, environment: Self.environment(root: root))
                #expect(result.status == step.status, "\(step.command): \(result.error)")
                #expect(result.output.hasPrefix(step.output), "\(step.command)")
            }
            #expect(try Self.store("com.example.editor", root: root).persistentValues().isEmpty)
            #expect(
                try Defaults.Domain("com.example.editor", location: .directory(root), systemDirectories: []).installedSchema()
                    == nil)
        }
    }
}
