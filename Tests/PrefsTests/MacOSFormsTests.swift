import Foundation
import LayeredDefaults
import Testing

@testable import prefs

/// The forms of macOS `defaults` that its users type.
@Suite struct MacOSFormsTests {
    @Test func readWithoutADomainPrintsEveryDomain() throws {
        try withTestRoot { root throws in
            try root.prefs("write", "com.example.a", "k", "-int", "1").requireSuccess()
            try root.prefs("write", "-g", "g", "-bool", "true").requireSuccess()
            let text = root.prefs("read")
            #expect(text.status == .success && text.error.isEmpty)
            #expect(
                text.output == """
                    {
                        NSGlobalDomain = {
                            g = 1;
                        };
                        com.example.a = {
                            k = 1;
                        };
                    }

                    """)
            let json = root.prefs("read", "--json")
            #expect(json.output == #"{"NSGlobalDomain":{"g":{"bool":true}},"com.example.a":{"k":{"integer":1}}}"# + "\n")
        }
    }

    @Test func writeOfADictionaryReplacesTheDomain() throws {
        try withTestRoot { root throws in
            try root.prefs("write", "app", "old", "-int", "1").requireSuccess()
            try root.prefs("write", "app", "{ fontSize = 14; list = (a, b); nested = { k = v; }; }").requireSuccess()
            #expect(try root.stored("app") == ["fontSize": "14", "list": ["a", "b"], "nested": ["k": "v"]])
            let xml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict><key>size</key><integer>12</integer></dict></plist>
                """
            try root.prefs("write", "app", xml).requireSuccess()
            #expect(try root.stored("app") == ["size": 12])
        }
    }

    /// Anything but a dictionary is refused, naming neither the text nor where it came from, and
    /// changes nothing (a missing domain is not created).
    @Test(arguments: ["private-marker", "(private-marker, b)", "{ private-marker = ", "\"private-marker\""])
    func writeOfSomethingElseThanADictionaryChangesNothing(text: String) throws {
        try withTestRoot { root throws in
            try root.prefs("write", "app", "k", "v").requireSuccess()
            for domain in ["app", "absent"] {
                let result = root.prefs("write", domain, text)
                #expect(result.status == .usage && result.errorLines.count == 1)
                #expect(result.errorLines.first?.hasPrefix("prefs: write <domain> '<dictionary>' replaces the domain") == true)
                #expect(!result.error.contains("private-marker"))
            }
            #expect(try root.stored("app") == ["k": "v"])
            #expect(!root.entries.contains("absent.sqlite3"))
        }
    }

    @Test func theGlobalDomainFlagAndDeletingADomain() throws {
        try withTestRoot { root throws in
            try root.prefs("write", "-g", "AppleLocale", "en_GB").requireSuccess()
            #expect(root.prefs("read", "NSGlobalDomain", "AppleLocale").output == "en_GB\n")
            #expect(root.prefs("read", "-g").output == "{\n    AppleLocale = en_GB;\n}\n")
            try root.prefs("write", "app", "a", "1").requireSuccess()
            try root.prefs("delete", "app").requireSuccess()
            #expect(try root.stored("app").isEmpty)
            try root.prefs("delete", "-g", "AppleLocale").requireSuccess()
            #expect(try root.stored(Defaults.globalDomain).isEmpty)
        }
    }

    /// `-currentHost`, `-host` and `-app` mean nothing here: one line says why, and nothing is created.
    @Test(arguments: [
        (["-currentHost", "read", "app"], "-currentHost"), (["read", "-currentHost"], "-currentHost"),
        (["-host", "example.org", "read", "app"], "-host"), (["write", "-app", "Safari", "k", "v"], "-app"),
        (["read", "-app", "Safari"], "-app"), (["--json", "-currentHost", "write", "app", "k", "v"], "-currentHost"),
    ])
    func optionsThatMeanNothingHereAreRefused(arguments: [String], option: String) throws {
        try withTestRoot { root throws in
            let result = root.prefs(arguments)
            #expect(result.status == .usage && result.errorLines.count == 1)
            #expect(result.error.contains("\(option) is not supported: "))
            #expect(root.entries.isEmpty)
        }
    }

    /// Elsewhere than before the verb or in the place of a domain, the same text is a key.
    @Test func theSameTextAsAKeyIsAKey() throws {
        try withTestRoot { root throws in
            try root.prefs("write", "app", "-host", "v").requireSuccess()
            #expect(root.prefs("read", "app", "-host").output == "v\n")
        }
    }
}
