import Foundation
import LayeredDefaultsTesting
import Observation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// `Defaults.draft()`: edits read over the store, applied whole or not at all, reverted, conflicts with
/// another process's commits, observation and a bound model through the draft.
@Suite struct DraftTests {
    static let suite = "app"
    static let size = Defaults.Key("size", default: 12)
    static let schema = try! PreferenceSchema(
        suiteName: suite, version: 1,
        entries: [
            .init(name: "fontSize", type: .integer, defaultValue: 12, summary: "The font size", accepted: .integers(6...72)),
            .init(name: "accent", type: .string, defaultValue: nil, summary: "The accent colour"),
            .init(name: "zoom", type: .integer, defaultValue: nil, summary: "The zoom"),
        ])

    private func database(_ root: URL) -> URL { root.appendingPathComponent("\(Self.suite).sqlite3") }

    /// Edited keys read as edited (a removal reads through to the registration domain), unedited keys
    /// as the store reads them now, changes by another instance included; the store sees nothing.
    @Test func readsSeeTheEditsOverTheStore() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults(Self.suite, root: root)
            defaults.register(["b": 5])
            try defaults.write(1, forKey: "a")
            try defaults.write(2, forKey: "b")
            let draft = defaults.draft()
            try draft.write(10, forKey: "a")
            try draft.write(nil, forKey: "b")
            draft[Self.size] = 20
            #expect(try draft.value(forKey: "a") == 10)
            #expect(try draft.value(forKey: "b") == 5, "a removal reads through to the registration domain")
            #expect(draft[Self.size] == 20)
            #expect(draft.editedKeys == ["a", "b", "size"])
            #expect(draft.hasUnappliedEdits)
            #expect(!defaults.draft().hasUnappliedEdits, "another draft has edits of its own")

            let other = try makeDefaults(Self.suite, root: root)
            #expect(try defaults.value(forKey: "a") == 1)
            #expect(try other.persistentValue(forKey: "b") == 2)
            #expect(try other.persistentValue(forKey: "size") == nil, "nothing reached the store")

            try other.write("x", forKey: "c")
            #expect(try draft.value(forKey: "c") == "x", "an unedited key shows the store's change")
        }
    }

    /// A launch argument hides the persistent domain, so it hides a draft's edit as it would the write.
    @Test func anEditReadsAsTheStoreWouldReadItsWrite() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults(Self.suite, root: root, arguments: ["-a", "7"])
            let draft = defaults.draft()
            try draft.write(10, forKey: "a")
            #expect(try draft.value(forKey: "a") == "7")
        }
    }

    /// A key the managed domain forces reads as the forced value through the draft too, and the apply
    /// that edits it is refused whole, naming the key.
    @Test func aForcedKeyWinsOverTheEditAndRefusesTheApply() throws {
        try withTemporaryRoot { root in
            let xdg = root.appendingPathComponent("xdg")
            try Defaults(
                suiteName: Self.suite,
                configuration: .init(location: .directory(Location.managedRoot(in: xdg)), systemDirectories: [])
            ).replacePersistentValues(["size": 20])
            let defaults = try Defaults(
                suiteName: Self.suite,
                configuration: .init(
                    location: .directory(root.appendingPathComponent("user")), arguments: [], systemDirectories: [xdg]))
            let draft = defaults.draft()
            try draft.write("x", forKey: "free")
            draft[Self.size] = 33
            #expect(draft[Self.size] == 20)
            #expect(throws: DefaultsError.forced(suite: Self.suite, key: "size")) { try draft.apply() }
            #expect(try defaults.persistentValue(forKey: "free") == nil)
        }
    }

    /// One edit refused in the middle of three refuses the whole apply: nothing is written, no file is
    /// made, the draft keeps its edits. (Written one by one, "accent" would be in a new file.)
    @Test func applyIsWholeOrNothing() throws {
        try withTemporaryRoot { root in
            let defaults = try Defaults(
                suiteName: Self.suite,
                configuration: .init(location: .directory(root), arguments: [], systemDirectories: [], schema: Self.schema))
            let draft = defaults.draft()
            try draft.write("red", forKey: "accent")
            try draft.write(100, forKey: "fontSize")
            try draft.write(2, forKey: "zoom")
            #expect(
                throws: DefaultsError.valueNotAccepted(suite: Self.suite, key: "fontSize", accepts: "an integer from 6 to 72")
            ) {
                try draft.apply()
            }
            #expect(!FileManager.default.fileExists(atPath: database(root).path), "no file for a refused apply")
            #expect(try defaults.persistentValue(forKey: "accent") == nil)
            #expect(draft.editedKeys == ["accent", "fontSize", "zoom"], "the draft keeps its edits")

            try draft.write(16, forKey: "fontSize")
            try draft.apply()
            #expect(!draft.hasUnappliedEdits)
            let other = try makeDefaults(Self.suite, root: root)
            #expect(try other.persistentValue(forKey: "accent") == "red")
            #expect(try other.persistentValue(forKey: "fontSize") == 16)
            #expect(try other.persistentValue(forKey: "zoom") == 2)
        }
    }

    /// A refusal of an existing domain leaves its rows as they were.
    @Test func aRefusedApplyLeavesAnExistingDomainAsItWas() throws {
        try withTemporaryRoot { root in
            let defaults = try Defaults(
                suiteName: Self.suite,
                configuration: .init(location: .directory(root), arguments: [], systemDirectories: [], schema: Self.schema))
            try defaults.write("blue", forKey: "accent")
            let draft = defaults.draft()
            try draft.write("red", forKey: "accent")
            try draft.write(1, forKey: "fontSize")
            try draft.write(3, forKey: "zoom")
            #expect(throws: DefaultsError.self) { try draft.apply() }
            #expect(try defaults.persistentValues(forName: Self.suite) == ["accent": "blue"])
        }
    }

    @Test func revertDropsTheEdits() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults(Self.suite, root: root)
            try defaults.write(14, for: Self.size)
            let draft = defaults.draft()
            draft[Self.size] = 30
            try draft.reset(Self.size)
            #expect(draft[Self.size] == 12, "a reset reads the default")
            draft.revert()
            #expect(!draft.hasUnappliedEdits)
            #expect(draft.editedKeys.isEmpty)
            #expect(draft[Self.size] == 14)
            try draft.apply()
            #expect(defaults[Self.size] == 14, "an empty draft applies nothing")
        }
    }

    /// Another process's commit to an unedited key shows through; one to an edited key is a conflict,
    /// which `apply(overwritingConflicts: false)` refuses whole and `apply()` overwrites.
    @Test func aCommitOfAnotherProcessIsAConflictOnlyForEditedKeys() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults(Self.suite, root: root)
            try defaults.write("light", forKey: "theme")
            let draft = defaults.draft()
            try draft.write("dark", forKey: "theme")
            try draft.write(3, forKey: "zoom")
            #expect(try draft.conflicts.isEmpty)

            #expect(try fixture(root, Self.suite, "write", "theme", #"{"string":"blue"}"#).status == 0)
            #expect(try fixture(root, Self.suite, "write", "other", #"{"string":"x"}"#).status == 0)
            #expect(try draft.value(forKey: "other") == "x", "an unedited key shows the other process's commit")
            #expect(try draft.value(forKey: "theme") == "dark", "an edited key keeps the edit")
            #expect(try draft.conflicts == ["theme"])

            let conflict = DefaultsDraft.ConflictError(suite: Self.suite, keys: ["theme"])
            #expect(throws: conflict) { try draft.apply(overwritingConflicts: false) }
            #expect(!conflict.description.contains("dark") && !conflict.description.contains("blue"), "no value")
            #expect(try defaults.persistentValue(forKey: "zoom") == nil, "a refused apply writes nothing")
            #expect(try defaults.persistentValue(forKey: "theme") == "blue")

            try draft.apply()
            #expect(try defaults.persistentValue(forKey: "theme") == "dark", "apply's edit is the last write")
            #expect(try defaults.persistentValue(forKey: "zoom") == 3)
            #expect(try draft.conflicts.isEmpty)
        }
    }

    /// The draft's stream delivers its edits, a store change of an unedited key, and the store's value
    /// after a revert.
    @Test func changesDeliverEditsAndTheStoresChangesOfUneditedKeys() async throws {
        try await withTemporaryRoot { root in
            let defaults = try makeDefaults(Self.suite, root: root)
            let draft = defaults.draft()
            let values = ObservedValues(draft.changes(of: Self.size))
            #expect(try await values.first(1) == [12])
            draft[Self.size] = 20
            #expect(try await values.until { $0.last == 20 }.last == 20)
            draft.revert()
            #expect(try await values.until { $0.last == 12 }.last == 12)
            try makeDefaults(Self.suite, root: root).write(30, for: Self.size)
            #expect(try await values.until { $0.last == 30 }.last == 30)
            draft[Self.size] = 40
            try makeDefaults(Self.suite, root: root).write(50, for: Self.size)
            _ = try await values.until { $0.last == 40 }
            #expect(draft[Self.size] == 40, "a store change of an edited key does not show through")
            let delivered = values.elements
            #expect(zip(delivered, delivered.dropFirst()).allSatisfy { $0 != $1 }, "never one value twice in a row")
        }
    }
}

/// A dialog's model over a draft: its edits stay in the draft until Apply; Cancel shows the store again.
@MainActor @Observable final class DraftDialogModel {
    private let draft: DefaultsDraft
    private let storedSize: DefaultsDraft.BoundValue<Int>
    var size: Int {
        get { storedSize.value }
        set { storedSize.value = newValue }
    }
    var hasUnappliedEdits: Bool { draft.hasUnappliedEdits }

    init(defaults: Defaults) {
        draft = defaults.draft()
        storedSize = draft.bind(DraftTests.size)
    }

    func apply() throws { try draft.apply() }
    func cancel() { draft.revert() }
}

@Suite @MainActor struct DraftBoundValueTests {
    @Test func aModelEditsTheDraftAndAppliesOrCancels() async throws {
        try await withTemporaryRoot { root in
            let defaults = try makeDefaults(DraftTests.suite, root: root)
            let model = DraftDialogModel(defaults: defaults)
            #expect(model.size == 12)

            model.size = 20
            #expect(model.size == 20)
            #expect(model.hasUnappliedEdits)
            #expect(defaults[DraftTests.size] == 12, "the store does not see the edit")

            try model.apply()
            #expect(try makeDefaults(DraftTests.suite, root: root).persistentValue(forKey: "size") == 20)
            #expect(!model.hasUnappliedEdits)

            model.size = 33
            model.cancel()
            try await waitUntilObserved { model.size == 20 }
            #expect(defaults[DraftTests.size] == 20)

            try makeDefaults(DraftTests.suite, root: root).write(44, for: DraftTests.size)
            try await waitUntilObserved { model.size == 44 }
        }
    }
}
