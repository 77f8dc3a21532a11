import Foundation
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing
import ToolSupport

@testable import LayeredDefaults

/// Seeded, bounded fuzzing of everything that takes text from outside: launch arguments, property-list
/// text and suite names. A failure prints its seed; rerun with it to reproduce.
@Suite(.hangLimit(minutes: 1))
struct FuzzTests {
    static let cases = 10_000

    /// Text built mostly from the characters that matter to the parsers, plus the odd stranger.
    static func text(using generator: inout SplitMix64, maximumLength: Int = 40) -> String {
        let pieces = [
            "(", ")", "{", "}", "<", ">", "\"", "'", "\\", "=", ";", ",", "/", "*", "//", "/*", "*/", " ", "\n", "\t",
            "-", "--", "a", "Z", "0", "7", "f", "x", "\\U", "\\u", "\\0", "\\377", "\\UD800", "\\UFFFF", "é", "🙂",
            "\u{0}", "\u{FEFF}", "\u{2028}", "\u{301}", "YES", "$", ":", ".",
        ]
        return (0..<Int.random(in: 0...maximumLength, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
            .joined()
    }

    @Test func propertyListTextNeverCrashes() {
        var generator = SplitMix64.random()
        let seed = generator.seed
        var parsed = 0
        for _ in 0..<Self.cases {
            var text = Self.text(using: &generator)
            if Bool.random(using: &generator) { text = ["(", "{", "<", "\""].randomElement(using: &generator)! + text }
            do {
                _ = try PropertyListText.parse(text)
                parsed += 1
            } catch {
                #expect(
                    (0...text.unicodeScalars.count).contains(error.offset),
                    "seed \(seed): offset \(error.offset) outside \(text.debugDescription)")
            }
        }
        #expect(parsed > 0, "the generator produced some valid text (seed \(seed))")
    }

    @Test func deepNestingIsRefusedNotACrash() {
        for opener in ["(", "{a=", "{a=("] {
            let text = String(repeating: opener, count: 100_000)
            #expect(throws: PropertyListText.ParseError.self) { try PropertyListText.parse(text) }
        }
        #expect(
            ArgumentDomain.parse(["app", "-deep", String(repeating: "(", count: 100_000)])["deep"]
                == .string(String(repeating: "(", count: 100_000)))
    }

    /// Formatting a tree of strings and parsing it back gives the same tree.
    @Test func formattedStringTreesParseBack() throws {
        var generator = SplitMix64.random()
        let seed = generator.seed
        func tree(_ depth: Int) -> PreferenceValue {
            switch Int.random(in: 0..<(depth > 0 ? 3 : 1), using: &generator) {
            case 0: return .string(RandomValues.string(using: &generator))
            case 1: return .array((0..<Int.random(in: 0...3, using: &generator)).map { _ in tree(depth - 1) })
            default:
                var values: [String: PreferenceValue] = [:]
                for _ in 0..<Int.random(in: 0...3, using: &generator) {
                    values[RandomValues.string(using: &generator)] = tree(depth - 1)
                }
                return .dictionary(values)
            }
        }
        for _ in 0..<2_000 {
            let value = tree(3)
            let text = value.description
            #expect(try PropertyListText.parse(text) == value, "seed \(seed): \(text.debugDescription)")
        }
    }

    @Test func argumentDomainNeverCrashesAndKeepsOnlyRealFlags() {
        var generator = SplitMix64.random()
        let seed = generator.seed
        for _ in 0..<Self.cases {
            let arguments =
                ["app"]
                + (0..<Int.random(in: 0...8, using: &generator)).map { _ in
                    Bool.random(using: &generator)
                        ? "-" + Self.text(using: &generator, maximumLength: 6) : Self.text(using: &generator)
                }
            let domain = ArgumentDomain.parse(arguments)
            for key in domain.keys {
                #expect(arguments.contains("-" + key), "seed \(seed): \(key.debugDescription) is no flag of \(arguments)")
            }
        }
    }

    /// 10,000 random suite names: each is refused before anything is touched, or names exactly one
    /// file directly inside the root. A sample of them is really opened, written, listed and added as a
    /// suite; afterwards the real paths of everything under the parent lie inside the root.
    @Test func randomSuiteNamesNeverReachOutsideTheRoot() throws {
        var generator = SplitMix64.random()
        let seed = generator.seed
        try withTemporaryRoot { parent in
            let root = parent.appendingPathComponent("store")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: false)
            let realRoot = root.resolvingSymlinksInPath().path
            let pieces = [
                "a", "Z", "9", ".", "..", "-", "_", "/", "\\", "~", "%2e", "%2f", "\0", " ", "\n", "é", "．", "／", "..．",
                "NSGlobalDomain", "sqlite3", "*", "?", "$HOME", "\u{202E}", "\u{0}", ":", "|",
            ]
            let reported = ReportedErrors()
            let defaults = try Defaults(
                suiteName: "fuzz", configuration: .init(location: .directory(root), arguments: [], errorHandler: reported.record))
            var opened = 0
            for index in 0..<Self.cases {
                var name = (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                    .joined()
                if index % 97 == 0 { name = String(repeating: "a", count: Int.random(in: 120...140, using: &generator)) }
                guard SuiteName.isValid(name) else {
                    #expect(throws: DefaultsError.invalidSuiteName(name)) { try SuiteName.validate(name) }
                    continue
                }
                let path = URL(fileURLWithPath: StoreRegistry.path(of: name, in: root))
                #expect(
                    path.deletingLastPathComponent().resolvingSymlinksInPath().path == realRoot,
                    "seed \(seed): \(name.debugDescription)")
                #expect(path.lastPathComponent == name + ".sqlite3", "seed \(seed): \(name.debugDescription)")
                if opened < 300, index % 7 == 0 {
                    opened += 1
                    switch opened % 3 {
                    case 0:
                        try Defaults(suiteName: name, configuration: .init(location: .directory(root), arguments: [])).write(
                            "v", forKey: "k")
                    case 1: defaults.setPersistentDomain(["k": "v"], forName: name)
                    default: defaults.addSuite(named: name)
                    }
                    _ = try? defaults.persistentValues(forName: name)
                }
            }
            // Names that are not valid reach no file at all, whichever entry point they take.
            for name in ["..", "../escape", "/tmp/escape", "a/../../escape", "", "x\0y"] {
                #expect(throws: DefaultsError.invalidSuiteName(name)) {
                    try Defaults(suiteName: name, configuration: .init(location: .directory(root), arguments: []))
                }
                defaults.setPersistentDomain(["k": "v"], forName: name)
                defaults.addSuite(named: name)
                defaults.removePersistentDomain(forName: name)
                #expect(throws: DefaultsError.invalidSuiteName(name)) { try defaults.persistentValues(forName: name) }
            }
            #expect(
                reported.all.allSatisfy { if case .invalidSuiteName = $0 { true } else { false } },
                "seed \(seed): \(reported.all.prefix(3))")
            #expect(opened > 50, "seed \(seed): the sample opened something")

            let everything = try FileManager.default.subpathsOfDirectory(atPath: parent.path)
            for relative in everything {
                let real = parent.appendingPathComponent(relative).resolvingSymlinksInPath().path
                #expect(real == realRoot || real.hasPrefix(realRoot + "/"), "seed \(seed): \(relative) outside the root")
            }
            for file in try FileManager.default.contentsOfDirectory(atPath: root.path) {
                let name = file.replacingOccurrences(of: #"\.sqlite3(-wal|-shm)?$"#, with: "", options: .regularExpression)
                #expect(SuiteName.isValid(name) && file != name, "seed \(seed): unexpected file \(file.debugDescription)")
            }
        }
    }
}
