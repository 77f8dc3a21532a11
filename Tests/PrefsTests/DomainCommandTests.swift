import Foundation
import LayeredDefaults
import Testing

@testable import prefs

@Suite struct DomainCommandTests {
    @Test func deleteRemovesAKeyOrEmptiesTheDomainKeepingItsFile() throws {
        try withTestRoot { root throws in
            root.prefs("write", "app", "a", "1")
            root.prefs("write", "app", "b", "2")
            #expect(root.prefs("delete", "app", "a").status == .success)
            #expect(try root.stored("app") == ["b": "2"])
            let again = root.prefs("delete", "app", "a")
            #expect(
                again.status == .notFound && again.errorLines == ["prefs: The domain/default pair of (app, a) does not exist"])
            #expect(root.prefs("delete", "app").status == .success)
            #expect(try root.stored("app").isEmpty)
            #expect(root.entries.contains("app.sqlite3"))
        }
    }

    @Test func deleteOfAMissingDomainCreatesNothing() throws {
        try withTestRoot { root throws in
            #expect(root.prefs("delete", "nowhere").errorLines == ["prefs: Domain nowhere does not exist"])
            #expect(root.prefs("delete", "nowhere", "k").status == .notFound)
            #expect(root.entries.isEmpty)
        }
    }

    @Test func renameMovesTheValueAndReplacesTheTarget() throws {
        try withTestRoot { root throws in
            root.prefs("write", "app", "old", "-int", "1")
            root.prefs("write", "app", "new", "replaced")
            #expect(root.prefs("rename", "app", "old", "new").status == .success)
            #expect(try root.stored("app") == ["new": 1])
            #expect(root.prefs("rename", "app", "new", "new").status == .success)
            #expect(try root.stored("app") == ["new": 1])
            let missing = root.prefs("rename", "app", "old", "other")
            #expect(
                missing.status == .notFound
                    && missing.errorLines == ["prefs: The domain/default pair of (app, old) does not exist"])
            #expect(root.prefs("rename", "app", "new", "").status == .usage)
            #expect(try root.stored("app") == ["new": 1])
        }
    }

    @Test func domainsListsNamesCommaSeparatedWithoutTheGlobalDomain() throws {
        try withTestRoot { root throws in
            #expect(root.prefs("domains").output == "\n")
            #expect(root.entries.isEmpty, "listing creates nothing")
            for domain in ["b.app", "a.app", "-g"] { root.prefs("write", domain, "k", "v") }
            try Data().write(to: root.url.appendingPathComponent("not a domain.sqlite3"))
            try Data().write(to: root.url.appendingPathComponent("c.app.txt"))
            #expect(root.prefs("domains").output == "a.app, b.app\n")
            #expect(root.prefs("domains", "--json").output == #"["a.app","b.app"]"# + "\n")
        }
    }

    @Test func findSearchesNamesKeysAndNestedStrings() throws {
        try withTestRoot { root throws in
            root.prefs("write", "com.example.editor", "fontName", "Menlo")
            root.prefs("write", "com.example.editor", "size", "-int", "12")
            root.prefs("write", "other", "recent", "-array", "x", "menlo.txt")
            root.prefs("write", "other", "plain", "nothing here")
            root.prefs("write", "-g", "unrelated", "-int", "1")
            let byValue = root.prefs("find", "MENLO")
            #expect(byValue.status == .success)
            #expect(
                byValue.output == """
                    Found 1 keys in domain 'com.example.editor': {
                        fontName = Menlo;
                    }
                    Found 1 keys in domain 'other': {
                        recent = (
                            x,
                            menlo.txt
                        );
                    }

                    """)
            #expect(root.prefs("find", "editor").output.hasPrefix("Found 2 keys in domain 'com.example.editor'"))
            #expect(
                root.prefs("find", "fontname", "--json").output == #"{"com.example.editor":{"fontName":{"string":"Menlo"}}}"#
                    + "\n")
            let none = root.prefs("find", "absent")
            #expect(none.status == .notFound && none.output.isEmpty && none.errorLines.count == 1)
        }
    }

    @Test func unreadableDomainsAreReportedAndTheRestSearched() throws {
        try withTestRoot { root throws in
            root.prefs("write", "good", "needle", "1")
            let corrupt = root.url.appendingPathComponent("bad.sqlite3")
            try Data("not a database needle".utf8).write(to: corrupt)
            let result = root.prefs("find", "needle")
            #expect(result.status == .storage)
            #expect(result.output.hasPrefix("Found 1 keys in domain 'good'"))
            #expect(result.errorLines.count == 1 && result.errorLines[0].contains("bad.sqlite3"))
            #expect(try Data(contentsOf: corrupt) == Data("not a database needle".utf8))
        }
    }
}
