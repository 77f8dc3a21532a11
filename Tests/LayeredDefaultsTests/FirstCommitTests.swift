import Foundation
import LayeredDefaultsTesting
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// A domain's file is made by its first commit: opening, observing, a suite search, reading, listing,
/// explaining and a refused or empty change make nothing; a domain without a file keeps every promise of
/// one that has it.
@Suite struct FirstCommitTests {
    private func entries(of root: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).sorted()
    }

    @Test func openObserveSearchReadListAndExplainMakeNothing() throws {
        try withTemporaryRoot { root in
            let store = root.appendingPathComponent("store")
            let defaults = try Defaults(
                suiteName: "app",
                configuration: .init(location: .directory(store), arguments: [], suites: ["other"], systemDirectories: []))
            let observation = defaults.observe(.key("k")) { (_: PreferenceValue?) in }
            defer { observation.cancel() }
            #expect(try defaults.value(forKey: "k") == nil)
            #expect(try defaults.persistentValue(forKey: "k") == nil)
            #expect(try defaults.resolvedValues() == [:])
            #expect(try defaults.persistentValues(forName: "elsewhere") == [:])
            #expect(try defaults.domainNames() == [])
            #expect(defaults.explain("k").winner == nil)
            #expect(try defaults.appliedMigrations() == [])
            #expect(!FileManager.default.fileExists(atPath: store.path), "not even the root")
        }
    }

    @Test func aRefusedOrEmptyChangeMakesNothing() throws {
        try withTemporaryRoot { root in
            let schema = try PreferenceSchema(
                suiteName: "app", version: 1,
                entries: [.init(name: "fontSize", type: .integer, defaultValue: 12, summary: "Size", accepted: .integers(6...72))]
            )
            let defaults = try Defaults(
                suiteName: "app",
                configuration: .init(location: .directory(root), arguments: [], systemDirectories: [], schema: schema))
            #expect(throws: DefaultsError.self) { try defaults.write(500, forKey: "fontSize") }
            #expect(throws: DefaultsError.self) { try defaults.write(1, forKey: "undeclared") }
            #expect(throws: DefaultsError.self) {
                try defaults.transaction { domain in
                    try domain.write(14, forKey: "fontSize")
                    try domain.write("x", forKey: "undeclared")
                }
            }
            #expect(throws: DefaultsError.self) { try defaults.replacePersistentValues(["fontSize": 1]) }
            try defaults.write(nil, forKey: "fontSize")
            try defaults.replacePersistentValues([:])
            try defaults.transaction { domain in
                try domain.write(14, forKey: "fontSize")
                try domain.write(nil, forKey: "fontSize")
            }
            #expect(entries(of: root) == [], "nothing refused, nothing left: no file")
            try defaults.write(14, forKey: "fontSize")
            #expect(entries(of: root).contains("app.sqlite3"), "the first commit makes it")
            #expect(try defaults.value(forKey: "fontSize") == 14)
        }
    }

    /// A transaction's body on a domain without a file sees its own changes, through the domain and
    /// through the instance, and the migration it records is kept.
    @Test func aFirstTransactionSeesItsOwnChangesAndKeepsItsMigration() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("app", root: root)
            let ran = try defaults.migrate("first") { domain in
                try domain.write(1, forKey: "a")
                #expect(try domain.value(forKey: "a") == 1)
                #expect(try defaults.value(forKey: "a") == 1, "a read through the instance sees the body's change")
            }
            #expect(ran)
            #expect(try defaults.appliedMigrations() == ["first"])
            #expect(try makeDefaults("app", root: root).persistentValues() == ["a": 1])
            #expect(try defaults.migrate("first") { _ in Issue.record("ran twice") } == false)
        }
    }

    /// Another process's first commit to a domain without a file is read at once, and observed.
    @Test func anotherProcesssFirstCommitIsSeenAtOnce() async throws {
        try await withTemporaryRoot { root in
            let defaults = try makeDefaults("app", root: root)
            #expect(try defaults.value(forKey: "k") == nil)
            let values = ObservedValues(defaults.changes(of: .key("k"), initial: false))
            let write = try fixture(root, "app", "write", "k", #"{"string":"theirs"}"#)
            #expect(write.status == 0, "\(write.error)")
            #expect(try defaults.value(forKey: "k") == "theirs", "read at once")
            _ = try await values.until(timeout: .seconds(10)) { $0.last == .string("theirs") }
        }
    }

    /// The global domain's first commit by another process is read at once, by an instance whose answers
    /// found in its own domain stay valid meanwhile.
    @Test func anotherProcesssFirstCommitToTheGlobalDomainIsSeenAtOnce() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("app", root: root)
            try defaults.write("mine", forKey: "own")
            #expect(try defaults.value(forKey: "g") == nil)
            #expect(try defaults.value(forKey: "own") == "mine")
            let write = try fixture(root, Defaults.globalDomain, "write", "g", #"{"string":"theirs"}"#)
            #expect(write.status == 0, "\(write.error)")
            #expect(try defaults.value(forKey: "own") == "mine")
            #expect(try defaults.value(forKey: "g") == "theirs", "read at once")
        }
    }

    /// Two instances make one domain's first commits at once: nothing is lost.
    @Test func concurrentFirstCommitsLoseNothing() throws {
        try withTemporaryRoot { root in
            let stores = try (0..<8).map { _ in try makeDefaults("app", root: root) }
            DispatchQueue.concurrentPerform(iterations: 8) { index in
                for _ in 0..<25 { try! stores[index].update(forKey: "count") { $0 = .integer(($0?.integerValue ?? 0) + 1) } }
            }
            #expect(try makeDefaults("app", root: root).value(forKey: "count") == 200)
        }
    }
}

/// A process that ends without closing its store (a short-lived app, `Defaults.standard`) leaves its
/// database file complete: a copy of that file alone holds every committed write.
@Suite struct ExitCheckpointTests {
    @Test func aCopyOfTheDatabaseAloneHoldsTheLastWriteOfAnEndedProcess() throws {
        try withTemporaryRoot { root in
            for index in 1...3 {
                let write = try fixture(root, "app", "write-and-exit", "k", #"{"integer":\#(index)}"#)
                #expect(write.status == 0, "\(write.error)")
            }
            let copy = root.appendingPathComponent("copy")
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: false)
            try FileManager.default.copyItem(
                at: root.appendingPathComponent("app.sqlite3"), to: copy.appendingPathComponent("app.sqlite3"))
            #expect(try makeDefaults("app", root: copy).value(forKey: "k") == 3)
        }
    }
}
