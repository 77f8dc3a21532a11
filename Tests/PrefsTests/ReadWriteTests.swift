import Foundation
import LayeredDefaults
import Testing

@testable import prefs

@Suite struct ReadWriteTests {
    /// A `write` command line, what is stored, and how `read` prints it.
    static let writes: [([String], PreferenceValue, String)] = [
        (["plain value"], .string("plain value"), "plain value"),
        (["-string", " exact\n"], .string(" exact\n"), " exact\n"),
        (["-string", "-starts-with-a-dash"], .string("-starts-with-a-dash"), "-starts-with-a-dash"),
        (["-string", "--", "--double-dash"], .string("--double-dash"), "--double-dash"),
        (["-string", "-h"], .string("-h"), "-h"),
        (["-string", "--help"], .string("--help"), "--help"),
        (["-array", "-string", "--json", "-int", "-5"], .array(["--json", -5]), "(\n    --json,\n    -5\n)"),
        (["-dict", "k", "-string", "--root"], .dictionary(["k": "--root"]), "{\n    k = --root;\n}"),
        (["-int", "-42"], .integer(-42), "-42"),
        (["-integer", "7"], .integer(7), "7"),
        (["-float", "0.25"], .double(0.25), "0.25"),
        (["-bool", "YES"], .bool(true), "1"),
        (["-boolean", "false"], .bool(false), "0"),
        (
            ["-date", "2026-11-29T21:44:42Z"], .date(Date(timeIntervalSinceReferenceDate: 817_681_482)),
            "2026-11-29 21:44:42 +0000"
        ),
        (["-data", "0a0b0c"], .data(Data([10, 11, 12])), "<0a0b0c>"),
        (["-array", "a", "-int", "2"], .array(["a", 2]), "(\n    a,\n    2\n)"),
        (["-array"], .array([]), "(\n)"),
        (["-dict", "k", "v w", "n", "-bool", "1"], .dictionary(["k": "v w", "n": true]), "{\n    k = \"v w\";\n    n = 1;\n}"),
        (["(a, { b = c; })"], .array(["a", .dictionary(["b": "c"])]), "(\n    a,\n    {\n        b = c;\n    }\n)"),
    ]

    @Test(arguments: writes)
    func writeStoresTheTypedValueAndReadPrintsIt(arguments: [String], stored: PreferenceValue, printed: String) throws {
        try withTestRoot { root throws in
            let write = root.prefs(["write", "app", "k"] + arguments)
            #expect(write.status == .success && write.output.isEmpty && write.error.isEmpty, "\(write.errorLines)")
            #expect(try root.stored("app") == ["k": stored])
            let read = root.prefs("read", "app", "k")
            #expect(read.status == .success)
            #expect(read.output == printed + "\n")
            #expect(root.prefs("read-type", "app", "k").output == "Type is \(stored.typeName)\n")
            let json = root.prefs("read", "app", "k", "--json")
            #expect(try JSONDecoder().decode(PreferenceValue.self, from: Data(json.output.utf8)) == stored)
        }
    }

    /// Dates are read and printed in the proleptic Gregorian calendar, as the XML and JSON formats and the
    /// date range count them, also before 1582 (where Foundation's formatters switch to the Julian
    /// calendar): what `read` prints writes back to the same moment, and an XML export names the same day.
    @Test(arguments: [
        ("0001-01-01T00:00:00Z", "0001-01-01 00:00:00 +0000"), ("1000-06-15T12:00:00Z", "1000-06-15 12:00:00 +0000"),
        ("1582-10-10", "1582-10-10 00:00:00 +0000"), ("9999-12-31 23:59:59 +0000", "9999-12-31 23:59:59 +0000"),
        ("2024-02-29T10:00:00+02:00", "2024-02-29 08:00:00 +0000"), ("2024-03-01 01:30:00 +0200", "2024-02-29 23:30:00 +0000"),
    ])
    func datesAreProlepticGregorianEverywhere(written: String, printed: String) throws {
        try withTestRoot { root in
            try root.prefs("write", "app", "when", "-date", written).requireSuccess()
            let read = root.prefs("read", "app", "when")
            #expect(read.output == printed + "\n")
            try root.prefs("write", "app", "again", "-date", printed).requireSuccess()
            let stored = try root.stored("app")
            guard case .date(let first)? = stored["when"], case .date(let again)? = stored["again"] else {
                Issue.record("not dates: \(stored.keys.sorted())")
                return
            }
            #expect(first.timeIntervalSinceReferenceDate.rounded(.down) == again.timeIntervalSinceReferenceDate)
            let xml = root.prefs("export", "app", "-", "--format", "xml").output
            #expect(xml.contains("<date>" + printed.prefix(10) + "T" + printed.dropFirst(11).prefix(8) + "Z</date>"))
        }
    }

    @Test(arguments: ["10000-01-01", "0000-12-31", "2023-02-29", "2020-01-01T24:00:00Z", "2020-01-01 00:00:00", "2020-1-1", "x"])
    func aDateThatIsNotARealMomentOfTheRangeIsRefused(text: String) throws {
        try withTestRoot { root in
            let refused = root.prefs("write", "app", "when", "-date", text)
            #expect(refused.status == .usage)
            #expect(refused.errorLines.count == 1)
            #expect(root.entries.isEmpty)
        }
    }

    @Test func readOfADomainPrintsADictionaryOrJSON() throws {
        try withTestRoot { root throws in
            root.prefs("write", "app", "b", "-int", "2")
            root.prefs("write", "app", "a", "x y")
            #expect(root.prefs("read", "app").output == "{\n    a = \"x y\";\n    b = 2;\n}\n")
            #expect(root.prefs("read", "app", "--json").output == #"{"a":{"string":"x y"},"b":{"integer":2}}"# + "\n")
        }
    }

    @Test func missingKeysAndDomainsAreNotFound() throws {
        try withTestRoot { root throws in
            let missingDomain = root.prefs("read", "nowhere", "k")
            #expect(missingDomain.status == .notFound)
            #expect(missingDomain.errorLines == ["prefs: The domain/default pair of (nowhere, k) does not exist"])
            #expect(root.entries.isEmpty, "a read creates nothing")
            root.prefs("write", "app", "other", "1")
            #expect(root.prefs("read", "app", "k").errorLines == ["prefs: The domain/default pair of (app, k) does not exist"])
            #expect(root.prefs("read-type", "app", "k").status == .notFound)
            #expect(root.prefs("read", "nowhere").errorLines == ["prefs: Domain nowhere does not exist"])
        }
    }

    @Test func existsAnswersWithTheStatusAlone() throws {
        try withTestRoot { root throws in
            root.prefs("write", "app", "k", "v")
            let yes = root.prefs("exists", "app", "k")
            #expect(yes.status == .success && yes.output.isEmpty && yes.error.isEmpty)
            let no = root.prefs("exists", "app", "other")
            #expect(no.status == .notFound && no.output.isEmpty && no.error.isEmpty)
            #expect(root.prefs("exists", "nowhere", "k").status == .notFound)
            #expect(root.prefs("exists", "app", "k", "--json").output == #"{"exists":true}"# + "\n")
            #expect(root.prefs("exists", "app", "x", "--json").output == #"{"exists":false}"# + "\n")
        }
    }

    @Test func arrayAddAndDictAddExtendOrCreate() throws {
        try withTestRoot { root throws in
            #expect(root.prefs("write", "app", "list", "-array-add", "a").status == .success)
            #expect(root.prefs("write", "app", "list", "-array-add", "b", "-int", "3").status == .success)
            #expect(root.prefs("write", "app", "map", "-dict-add", "x", "1").status == .success)
            #expect(root.prefs("write", "app", "map", "-dict-add", "x", "2", "y", "-bool", "no").status == .success)
            #expect(try root.stored("app") == ["list": ["a", "b", 3], "map": ["x": "2", "y": false]])
        }
    }

    @Test func addingToAValueOfAnotherTypeChangesNothing() throws {
        try withTestRoot { root throws in
            root.prefs("write", "app", "s", "-string", "secret-text")
            for flag in ["-array-add", "-dict-add"] {
                let result = root.prefs("write", "app", "s", flag, "x", "y")
                #expect(result.status == .usage)
                #expect(result.errorLines.count == 1)
                #expect(!result.error.contains("secret-text"))
            }
            #expect(try root.stored("app") == ["s": "secret-text"])
        }
    }

    @Test func theGlobalDomainHasAliases() throws {
        try withTestRoot { root throws in
            #expect(root.prefs("write", "-g", "k", "1").status == .success)
            #expect(root.prefs("read", "NSGlobalDomain", "k").output == "1\n")
            #expect(root.prefs("read", "-globalDomain", "k").output == "1\n")
            #expect(try root.stored(Defaults.globalDomain) == ["k": "1"])
        }
    }

    /// An argument in a value's place that starts with `--` and is no option may be a private value: the
    /// error names its position, never its text, and says how to write it.
    @Test(arguments: [
        (["--secret-text"], 4), (["--secret-text=x"], 4), (["-array", "a", "--secret-text"], 6),
        (["-dict", "--secret-text", "v"], 5),
    ])
    func anArgumentInAValuesPlaceIsNeverQuoted(arguments: [String], position: Int) throws {
        try withTestRoot { root throws in
            let result = root.prefs(["write", "app", "k"] + arguments)
            #expect(result.status == .usage)
            #expect(
                result.errorLines == [
                    "prefs: argument \(position) is not an option; put -string before a value that starts with '-' (-- before a -dict key that does); nothing was changed"
                ])
            #expect(root.entries.isEmpty)
        }
    }

    /// The argument right after `--` is the value, whatever it starts with, read as any plain value;
    /// `--` before the key leaves the type flags after the key alone.
    @Test func theArgumentAfterTheSeparatorIsTheValue() throws {
        try withTestRoot { root throws in
            for text in ["-int", "-x", "--json", "-"] {
                #expect(root.prefs("write", "app", "k", "--", text).status == .success, "\(text)")
                #expect(try root.stored("app")["k"] == .string(text), "\(text)")
            }
            #expect(root.prefs("write", "app", "list", "--", "(a, -b)").status == .success)
            #expect(root.prefs("write", "app", "--", "--key", "-int", "5").status == .success)
            #expect(try root.stored("app") == ["k": "-", "list": ["a", "-b"], "--key": 5])
            #expect(root.prefs("write", "app", "k", "--", "-int", "5").status == .usage)
            #expect(try root.stored("app")["k"] == "-")
        }
    }

    /// Property-list text nested deeper than the library stores (just past the limit, 255 levels, the
    /// 256 empty levels JSON cannot hold, and deeper than the text parser follows) is refused as bad
    /// input before any file is created, never stored as a string.
    @Test func aValueNestedTooDeepIsRefusedBeforeAnythingIsCreated() throws {
        func nested(_ levels: Int, around text: String) -> String {
            String(repeating: "(", count: levels) + text + String(repeating: ")", count: levels)
        }
        try withTestRoot { root throws in
            let limit = PreferenceValue.maximumNestingDepth
            let refusal =
                "prefs: Cannot store the value for key 'k' in domain 'app': its arrays and dictionaries nest more than \(limit) levels deep; nothing was changed"
            for text in [
                nested(limit + 1, around: "private-marker"), nested(255, around: "private-marker"), nested(256, around: ""),
                nested(256, around: "private-marker"), nested(300, around: "private-marker"),
            ] {
                let result = root.prefs("write", "app", "k", text)
                #expect(result.status == .usage && result.errorLines == [refusal])
                #expect(!result.error.contains("private-marker"))
            }
            #expect(root.entries.isEmpty)
            #expect(root.prefs("write", "app", "k", nested(limit, around: "leaf")).status == .success)
        }
    }

    @Test(arguments: [
        ["write", "app", "k"], ["write", "app", "k", "-int", "abc"], ["write", "app", "k", "-int", "1", "2"],
        ["write", "app", "k", "a", "b"], ["write", "app", "k", "-frob", "1"], ["write", "app", "", "v"],
        ["write", "bad/name", "k", "v"], ["write", "..", "k", "v"], ["write", "app", "k", "-dict", "a"],
        ["write", "app", "k", "-date", "soon"], ["write", "app", "k", "-data", "xyz"], ["write", "app", "k", "-bool", "maybe"],
        ["write", "app", "k", "-float", "1e999"], ["write", "app", "k", "-array", "-float", "-1e999"],
    ])
    func badWritesChangeNothing(arguments: [String]) throws {
        try withTestRoot { root throws in
            root.prefs("write", "app", "k", "-int", "1")
            let before = root.entries
            let result = root.prefs(arguments)
            #expect(result.status == .usage)
            #expect(result.errorLines.count == 1 && result.errorLines[0].hasPrefix("prefs: "))
            #expect(result.output.isEmpty)
            #expect(try root.stored("app") == ["k": 1])
            #expect(root.entries == before)
        }
    }
}
