import Foundation
import LayeredDefaults
import Testing

@testable import prefs

/// Every command treats a key written in NFC ("é" as one scalar) and in NFD ("e" and a combining
/// accent) as one key, whichever form the command line or the file uses.
@Suite struct UnicodeKeyCommandTests {
    static let (nfc, nfd) = ("caf\u{E9}", "cafe\u{301}")

    @Test func aKeyWrittenInBothFormsIsOneKeyToReadExportAndFind() throws {
        try withTestRoot { root throws in
            #expect(root.prefs("write", "app", Self.nfc, "first-value").status == .success)
            #expect(root.prefs("write", "app", Self.nfd, "second-value").status == .success)
            #expect(root.prefs("read", "app", Self.nfc).output == "second-value\n")
            let export = root.prefs("export", "app", "-", "--format", "json")
            #expect(
                try JSONDecoder().decode([String: PreferenceValue].self, from: Data(export.output.utf8)) == [
                    Self.nfc: "second-value"
                ])
            #expect(export.output.unicodeScalars.contains("\u{E9}"), "exported in NFC")
            #expect(
                root.prefs("find", "second-value", "--json").output == #"{"app":{"caf\#u{E9}":{"string":"second-value"}}}"# + "\n"
            )
            #expect(root.prefs("find", "first-value").status == .notFound)
            #expect(root.prefs("delete", "app", Self.nfc).status == .success)
            #expect(root.prefs("read", "app", Self.nfd).status == .notFound)
        }
    }

    @Test func importAndRenameInOneFormAreReadInTheOther() throws {
        try withTestRoot { root throws in
            let export = #"{"\#(Self.nfd)":{"string":"imported"},"old":{"string":"renamed"}}"#
            #expect(root.prefs("import", "app", "-", input: Data(export.utf8)).status == .success)
            #expect(root.prefs("read", "app", Self.nfc).output == "imported\n")
            #expect(try pointRead(Self.nfc, in: root) == "imported")
            #expect(root.prefs("rename", "app", "old", "n" + Self.nfd).status == .success)
            #expect(root.prefs("read", "app", "n" + Self.nfc).output == "renamed\n")
            #expect(try pointRead("n" + Self.nfc, in: root) == "renamed")
            #expect(root.prefs("exists", "app", "old").status == .notFound)
        }
    }

    /// `key` read by a new store through the library's point read (`prefs read` loads the whole domain).
    func pointRead(_ key: String, in root: TestRoot) throws -> String? {
        try Defaults(suiteName: "app", configuration: .init(location: .directory(root.url), arguments: [])).string(forKey: key)
    }
}
