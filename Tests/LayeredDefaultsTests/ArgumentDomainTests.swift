import Foundation
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing

@testable import LayeredDefaults

@Suite struct ArgumentDomainTests {
    @Test func pairsAndDroppedFlags() {
        let domain = ArgumentDomain.parse(["/usr/bin/app", "-theme", "dark", "-verbose", "-size", " 12 ", "-", "x", "-last"])
        #expect(domain == ["theme": "dark", "size": "12"])
    }

    @Test func flagFollowedByFlagIsDropped() {
        #expect(ArgumentDomain.parse(["-a", "-b", "v"]) == ["b": "v"])
    }

    @Test func trailingKeyWithoutValueIsDropped() {
        #expect(ArgumentDomain.parse(["-a", "1", "-b"]) == ["a": "1"])
    }

    @Test(arguments: [
        ("(a, b, \"c d\")", PreferenceValue.array(["a", "b", "c d"])),
        ("{ k = v; n = (1, 2); }", .dictionary(["k": "v", "n": ["1", "2"]])),
        ("<0a0b 0C>", .data(Data([0x0A, 0x0B, 0x0C]))),
        ("\"quoted \\\"string\\\"\"", .string("quoted \"string\"")),
        ("()", .array([])),
        ("{}", .dictionary([:])),
        ("(unclosed", .string("(unclosed")),
        ("<zz>", .string("<zz>")),
        ("\"open", .string("\"open")),
        ("{ k = v }", .string("{ k = v }")),
        ("plain text", .string("plain text")),
        ("  padded  ", .string("padded")),
        ("<?xml version=\"1.0\"?>", .string("<?xml version=\"1.0\"?>")),
        // Foundation ends a comment at a carriage return, and then refuses the text: a string, not "a".
        ("\"a\" // c\r x", .string("\"a\" // c\r x")),
    ])
    func valuesParseAsFoundationDoes(argument: String, expected: PreferenceValue) {
        #expect(ArgumentDomain.parse(["-key", argument]) == ["key": expected])
    }

    /// Text nested deeper than the parser follows is a string as a launch argument, as in Foundation,
    /// but refused by the checked reading `prefs write` uses.
    @Test func tooDeepTextIsAStringUnlessChecked() throws {
        let deep = String(repeating: "(", count: 300) + "x" + String(repeating: ")", count: 300)
        #expect(ArgumentDomain.value(of: deep) == .string(deep))
        let error = try #require(throws: PropertyListText.ParseError.self) { try ArgumentDomain.checkedValue(of: deep) }
        #expect(error.kind == .tooDeep)
        #expect(try ArgumentDomain.checkedValue(of: "(unclosed") == .string("(unclosed"))
    }

    @Test func argumentsWinOverEveryOtherDomainAndAreForced() throws {
        let defaults = try makeInMemoryDefaults(arguments: ["-theme", "light"])
        try defaults.write("dark", forKey: "theme")
        #expect(defaults.string(forKey: "theme") == "light")
        #expect(defaults.objectIsForced(forKey: "theme"))
        #expect(!defaults.objectIsForced(forKey: "other"))
        #expect(try defaults.persistentValue(forKey: "theme") == "dark")
    }
}

@Suite struct PropertyListTextTests {
    @Test func parsesNestedStructuresWithComments() throws {
        let text = """
            // a comment
            { name = "A \\U00e9 b"; /* inline */ list = (x, (y, z)); data = <00ff>; 'single' = '1'; }
            """
        #expect(
            try PropertyListText.parse(text)
                == .dictionary([
                    "name": "A é b", "list": ["x", ["y", "z"]], "data": .data(Data([0, 255])), "single": "1",
                ]))
    }

    @Test(arguments: ["", "(", "{ a = b", "<0>", "a b", "\"x", "/* open", "{ = v; }", "(a,,)"])
    func rejectsMalformedText(text: String) {
        #expect(throws: PropertyListText.ParseError.self) { try PropertyListText.parse(text) }
    }

    @Test func refusesAbsurdNestingAsTooDeep() throws {
        let deep = String(repeating: "(", count: 10_000) + String(repeating: ")", count: 10_000)
        let error = try #require(throws: PropertyListText.ParseError.self) { try PropertyListText.parse(deep) }
        #expect(error.kind == .tooDeep)
        let malformed = try #require(throws: PropertyListText.ParseError.self) { try PropertyListText.parse("(a,,)") }
        #expect(malformed.kind == .malformed)
    }

    /// A string a reader could take for a comment (`//`, `/*`) is quoted, so what is printed parses back;
    /// so does data, printed as old-style data.
    @Test(arguments: [
        PreferenceValue.string("//cdn.example.com/x"), "a//b", "/*", "x/*y*/", "/", "a/b", ["//", ["k//": "/*v"]],
        .data(Data([0, 255])), .data(Data()), ["bytes": .data(Data([1]))], "\u{0}nul", "\u{1F600}",
    ])
    func whatIsPrintedParsesBackToItself(value: PreferenceValue) throws {
        let printed = value.description
        #expect(try PropertyListText.parse(printed) == value, "\(printed)")
        #expect(try PropertyListText.parse("(\(printed), b)") == [value, "b"])
    }

    /// Where Foundation's old-style reader refuses, the parser refuses too, and where it reads, the
    /// parser reads the same value or refuses: a `//` comment ends at a carriage return, U+2028 or
    /// U+2029 too; white space is only what Foundation skips; `+` is no word character; data takes white
    /// space only between bytes.
    @Test(arguments: [
        ("\"a\" // c\r x", false), ("\"a\" // c\u{2028} x", false), ("\"a\" // c\u{2029} x", false), ("\"a\" // c\n", true),
        ("<0b00a C>", false), ("<0b\u{0C}00>", false), ("<0b\u{0B}00>", false), ("<0b\u{85}00>", false), ("<0b00 0c>", true),
        ("<0b\r\n\t00\u{2028}>", true), ("(a,\u{A0}b)", false), ("(a,\u{85}b)", false), ("(a,\u{3000}b)", false),
        ("(a,\u{0B}\u{0C}\u{2029}b)", true), ("+1", false), ("(+1)", false), ("a+b", false), ("\"a+b\"", true),
    ])
    func whatFoundationRefusesIsRefused(text: String, foundationReads: Bool) throws {
        var format = PropertyListSerialization.PropertyListFormat.openStep
        let foundation = try? PropertyListSerialization.propertyList(from: Data(text.utf8), options: [], format: &format)
        #expect((foundation != nil) == foundationReads, "Foundation on \(text.debugDescription)")
        if let foundation {
            #expect(try PropertyListText.parse(text) == PreferenceValue(any: foundation), "\(text.debugDescription)")
        } else {
            #expect(throws: PropertyListText.ParseError.self, "\(text.debugDescription)") { try PropertyListText.parse(text) }
        }
    }

    /// Where Foundation's reader would give another text (octal escapes above 0177 in the NeXTSTEP
    /// encoding) or refuses (a NUL), the parser refuses; ASCII octal escapes and surrogate pairs read as
    /// Foundation reads them.
    @Test func escapesThatWouldBeGuessedAtAreRefused() throws {
        for text in [
            "\"\\370\"", "\"\\200\"", "\"a\u{0}b\"", "'\u{0}'", "\"\\Ud83d\"", "\"\\Ude00\\Ud83d\"", "\"\\Ud83d\\U0041\"",
            "{a = 1; a = 2;}", "{a = 1; \"a\" = 1;}",
        ] {
            #expect(throws: PropertyListText.ParseError.self, "\(text)") { try PropertyListText.parse(text) }
        }
        #expect(try PropertyListText.parse("\"\\101\\0\\177\"") == "A\u{0}\u{7F}")
        #expect(try PropertyListText.parse("\"\\Ud83d\\Ude00\\U00e9\\U0000\"") == "😀é\u{0}")
    }

    @Test func formatsAsDefaultsReadDoes() {
        let value: PreferenceValue = [
            "name": "two words", "count": 3, "flag": true, "list": ["a"], "bytes": .data(Data([1, 2])),
        ]
        #expect(
            value.description
                == """
                {
                    bytes = <0102>;
                    count = 3;
                    flag = 1;
                    list =     (
                        a
                    );
                    name = "two words";
                }
                """.replacingOccurrences(of: "list =     (", with: "list = ("))
    }

    @Test(arguments: ["simple", "two words", "quote\"inside", "back\\slash", "new\nline", "", "ünï", "tab\there"])
    func quotedStringsParseBack(text: String) throws {
        #expect(try PropertyListText.parse(PreferenceValue.string(text).description) == .string(text))
    }
}
