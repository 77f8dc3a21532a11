import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// A read that starts after another process's write has returned sees that write, whatever this process
/// did in between: here another process commits in the one moment that could fool the store, between
/// our `COMMIT` and our look at the WAL-index header.
@Suite struct FreshnessTests {
    /// Transactions that commit and change nothing.
    enum NoOpWrite: String, CaseIterable, Sendable {
        case rewriteSameValue, removeMissingKey, emptyTransaction, appliedMigration

        func run(on defaults: Defaults) throws {
            switch self {
            case .rewriteSameValue: try defaults.write("same", forKey: "unchanged")
            case .removeMissingKey: try defaults.write(nil, forKey: "missing")
            case .emptyTransaction: try defaults.transaction { _ in }
            case .appliedMigration: _ = try defaults.migrate("applied") { _ in }
            }
        }
    }

    @Test(arguments: NoOpWrite.allCases)
    func noOpWriteThenAnotherProcessCommits(_ write: NoOpWrite) throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("fresh", root: root)
            try defaults.write("same", forKey: "unchanged")
            _ = try defaults.migrate("applied") { _ in }
            try defaults.write(1, forKey: "k")
            #expect(try defaults.value(forKey: "k") == 1)  // cached
            let theirs = DomainStore.$afterCommitForTesting.withValue({
                _ = try? fixture(root, "fresh", "write", "k", #"{"integer":2}"#)
            }) {
                Result { try write.run(on: defaults) }
            }
            try theirs.get()
            #expect(try defaults.value(forKey: "k") == 2, "the other process's write returned before this read began")
        }
    }

    @Test func writeThenAnotherProcessCommits() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("fresh", root: root)
            try defaults.write(1, forKey: "k")
            #expect(try defaults.value(forKey: "k") == 1)
            try DomainStore.$afterCommitForTesting.withValue({
                _ = try? fixture(root, "fresh", "write", "k", #"{"integer":2}"#)
            }) {
                try defaults.write("ours", forKey: "other")
            }
            #expect(try defaults.value(forKey: "k") == 2)
            #expect(try defaults.value(forKey: "other") == "ours")
        }
    }
}
