import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// Keys that are the same text in two Unicode forms ("é" as one scalar, or "e" and a combining accent)
/// are one key, as for Swift's `String`: in this process, in the file, and in the next process.
@Suite struct UnicodeKeyTests {
    /// "café" in NFC: "é" is U+00E9.
    static let nfc = "caf\u{E9}"
    /// "café" in NFD: "e" followed by U+0301 COMBINING ACUTE ACCENT.
    static let nfd = "cafe\u{301}"
    /// The two forms, each with the other.
    static let pairs = [(nfc, nfd), (nfd, nfc)]

    @Test(arguments: pairs)
    func writtenInOneFormReadsInTheOtherHereAndInANewProcess(written: String, read: String) throws {
        try withTemporaryRoot { root in
            do {
                let defaults = try makeDefaults("app", root: root)
                try defaults.write("value", forKey: written)
                #expect(defaults.string(forKey: read) == "value")
            }
            // NB: the first instance is released: a new one has a new connection and an empty view.
            let fresh = try makeDefaults("app", root: root)
            #expect(fresh.string(forKey: read) == "value")
            #expect(fresh.string(forKey: written) == "value")
            #expect(try fixture(root, "app", "read", read).output == #"{"string":"value"}"# + "\n")
            #expect(try rows(of: root, "app") == [Row(key: Self.nfc, value: "value")])
        }
    }

    @Test(arguments: pairs)
    func theLastWriteOfEitherFormIsTheValueEverywhere(first: String, second: String) throws {
        try withTemporaryRoot { root in
            do {
                let defaults = try makeDefaults("app", root: root)
                defaults.set("first", forKey: first)
                defaults.set("second", forKey: second)
                #expect(defaults.string(forKey: first) == "second")
                #expect(try defaults.persistentValues() == [Self.nfc: "second"])
            }
            let fresh = try makeDefaults("app", root: root)
            #expect(fresh.string(forKey: first) == "second")
            #expect(fresh.string(forKey: second) == "second")
            #expect(try fresh.persistentValues() == [Self.nfc: "second"])
            #expect(try fresh.persistentValues().keys.first?.unicodeScalars.count == 4, "exported in NFC")
            #expect(try rows(of: root, "app") == [Row(key: Self.nfc, value: "second")])
        }
    }

    @Test(arguments: pairs)
    func removingEitherFormRemovesTheKey(written: String, removed: String) throws {
        try withTemporaryRoot { root in
            do {
                let defaults = try makeDefaults("app", root: root)
                try defaults.write("value", forKey: written)
                defaults.removeObject(forKey: removed)
                #expect(defaults.object(forKey: written) == nil)
            }
            let fresh = try makeDefaults("app", root: root)
            #expect(fresh.object(forKey: written) == nil)
            #expect(fresh.object(forKey: removed) == nil)
            #expect(try fixture(root, "app", "read", written).output == "nil\n")
            #expect(try rows(of: root, "app").isEmpty)
        }
    }

    @Test func aTransactionReadsItsOwnWriteInTheOtherForm() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("app", root: root)
            let seen = try defaults.transaction { domain in
                try domain.write("value", forKey: Self.nfd)
                return try domain.value(forKey: Self.nfc)
            }
            #expect(seen == "value")
        }
    }

    @Test func aMigrationRenamingToEitherFormIsReadInTheOtherByANewProcess() throws {
        try withTemporaryRoot { root in
            do {
                let defaults = try makeDefaults("app", root: root)
                try defaults.write("value", forKey: "old")
                #expect(try defaults.migrate("rename to " + Self.nfd) { try $0.renameKey("old", to: Self.nfd) })
            }
            let fresh = try makeDefaults("app", root: root)
            #expect(fresh.string(forKey: Self.nfc) == "value")
            #expect(
                try fresh.migrate("rename to " + Self.nfc) { _ in Issue.record("ran twice") } == false,
                "a migration's name is one name in either form")
            #expect(try rows(of: root, "app") == [Row(key: Self.nfc, value: "value")])
        }
    }

    @Test func aFileHoldingBothFormsReadsTheNFCRowAndReadingChangesNothing() throws {
        try withTemporaryRoot { root in
            try insertRaw([(Self.nfd, "from NFD"), (Self.nfc, "from NFC"), ("plain", "p")], into: root, "legacy")
            let written = try rows(of: root, "legacy")
            #expect(written.count == 3)
            do {
                let defaults = try makeDefaults("legacy", root: root)
                #expect(defaults.string(forKey: Self.nfd) == "from NFC")
                #expect(try defaults.persistentValues() == [Self.nfc: "from NFC", "plain": "p"])
                #expect(try defaults.persistentValues().keys.contains { $0.unicodeScalars.count == 4 })
            }
            let fresh = try makeDefaults("legacy", root: root)
            #expect(fresh.string(forKey: Self.nfc) == "from NFC")
            #expect(fresh.string(forKey: Self.nfd) == "from NFC")
            #expect(try fixture(root, "legacy", "read", Self.nfd).output == #"{"string":"from NFC"}"# + "\n")
            #expect(try rows(of: root, "legacy") == written, "reading deletes nothing")
            fresh.removeObject(forKey: Self.nfc)
            #expect(try rows(of: root, "legacy") == [Row(key: "plain", value: "p")], "a removal removes every row of the key")
        }
    }

    /// NFD, and "việt" with "ệ" as "ê" and a combining dot below (neither NFC nor NFD).
    @Test(arguments: [nfd, "vi\u{EA}\u{323}t"])
    func aFileHoldingTheKeyInAnotherFormOnlyIsReadUnderEither(stored: String) throws {
        try withTemporaryRoot { root in
            try insertRaw([(stored, "legacy"), ("b", "b")], into: root, "legacy")
            let key = stored.precomposedStringWithCanonicalMapping
            let fresh = try makeDefaults("legacy", root: root)
            #expect(fresh.string(forKey: key) == "legacy")
            #expect(fresh.string(forKey: stored) == "legacy")
            #expect(try fresh.persistentValues() == [key: "legacy", "b": "b"])
            #expect(try fresh.persistentValues().keys.contains { $0.unicodeScalars.elementsEqual(key.unicodeScalars) })
            try fresh.write("new", forKey: stored)
            #expect(try fixture(root, "legacy", "read", key).output == #"{"string":"new"}"# + "\n", "the NFC row wins")
            fresh.removeObject(forKey: stored)
            #expect(try rows(of: root, "legacy") == [Row(key: "b", value: "b")])
        }
    }

    @Test func aRowWhoseKeyIsASCIIButForAKelvinSignIsFoundByNoReadAndKept() throws {
        try withTemporaryRoot { root in
            try insertRaw([("\u{212A}ey", "kelvin")], into: root, "legacy")
            let fresh = try makeDefaults("legacy", root: root)
            #expect(fresh.object(forKey: "Key") == nil)
            #expect(fresh.object(forKey: "\u{212A}ey") == nil)
            #expect(try fresh.persistentValues().isEmpty)
            fresh.removeObject(forKey: "Key")
            #expect(try rows(of: root, "legacy") == [Row(key: "\u{212A}ey", value: "kelvin")])
        }
    }

    @Test func anInMemoryStoreHasOneKeyToo() throws {
        let defaults = try makeInMemoryDefaults()
        defaults.set("first", forKey: Self.nfc)
        defaults.set("second", forKey: Self.nfd)
        #expect(try defaults.persistentValues() == [Self.nfc: "second"])
        defaults.removeObject(forKey: Self.nfc)
        #expect(try defaults.persistentValues().isEmpty)
    }

    /// A row of a domain's file, its key compared scalar by scalar (not by Swift's `==`, which would
    /// not tell the two forms apart).
    struct Row: Equatable, CustomStringConvertible {
        let key: String
        let value: String
        static func == (lhs: Row, rhs: Row) -> Bool {
            lhs.key.unicodeScalars.elementsEqual(rhs.key.unicodeScalars) && lhs.value == rhs.value
        }
        var description: String { "\(key.unicodeScalars.map { String($0.value, radix: 16) }) = \(value)" }
    }

    /// The rows of `suite`'s file in key order, read through a new plain connection.
    func rows(of root: URL, _ suite: String) throws -> [Row] {
        let connection = try Connection(
            path: root.appendingPathComponent("\(suite).sqlite3").path, busyTimeoutMilliseconds: 10_000)
        defer { connection.close() }
        let statement = try connection.statement("SELECT key, value FROM preferences ORDER BY key")
        defer { statement.reset() }
        var rows: [Row] = []
        while try statement.step() { rows.append(Row(key: statement.text(at: 0), value: statement.text(at: 1))) }
        return rows
    }

    /// Creates `suite` and stores string rows with their keys exactly as given, as an earlier version or
    /// another program may have written them.
    func insertRaw(_ rows: [(key: String, value: String)], into root: URL, _ suite: String) throws {
        _ = try makeDefaults(suite, root: root).persistentStoreForTesting  // NB: its file made, as an earlier version left it
        let connection = try Connection(
            path: root.appendingPathComponent("\(suite).sqlite3").path, busyTimeoutMilliseconds: 10_000)
        defer { connection.close() }
        for row in rows {
            let statement = try connection.statement("INSERT INTO preferences (key, type, value) VALUES (?, 'string', ?)")
            statement.bind(row.key, at: 1)
            statement.bind(row.value, at: 2)
            try statement.run()
        }
    }
}
