import Foundation
import LayeredDefaultsTesting
import Observation
import PackageTestSupport
import Synchronization
import Testing

@testable import LayeredDefaults

/// `Defaults.bind(_:)`: a typed key's value as observable state of the main actor, written through
/// synchronously, following the store.
@Suite @MainActor struct BoundValueTests {
    let size = Defaults.Key("size", default: 12)

    /// A store of "app" in `root/user` whose managed domain (under `root/xdg`) forces `forced`.
    private func storeForcing(
        _ forced: [String: PreferenceValue], root: URL, errors: ReportedErrors
    ) throws -> Defaults {
        let xdg = root.appendingPathComponent("xdg")
        try Defaults(
            suiteName: "app", configuration: .init(location: .directory(Location.managedRoot(in: xdg)), systemDirectories: [])
        ).replacePersistentValues(forced)
        return try Defaults(
            suiteName: "app",
            configuration: .init(
                location: .directory(root.appendingPathComponent("user")), arguments: [], systemDirectories: [xdg],
                errorHandler: errors.record))
    }

    /// True once `body` changed what `read` read, as an observer of it (a SwiftUI view) is told.
    private func tellsObservers(of read: () -> Void, during body: () -> Void) -> Bool {
        let told = Atomic<Bool>(false)
        withObservationTracking(read) { told.store(true, ordering: .relaxed) }
        body()
        return told.load(ordering: .relaxed)
    }

    @Test func takesTheKeysValueNow() throws {
        let defaults = try makeInMemoryDefaults()
        #expect(defaults.bind(size).value == 12, "the default while nothing is stored")
        try defaults.write(14, for: size)
        #expect(defaults.bind(size).value == 14)
    }

    /// The store holds an edit when the setter returns: a test of a model checks it right away.
    @Test func anEditIsInTheStoreWhenTheSetterReturns() throws {
        try withTemporaryRoot { root in
            let defaults = try makeDefaults("app", root: root)
            let bound = defaults.bind(size)
            #expect(tellsObservers(of: { _ = bound.value }, during: { bound.value = 33 }))
            #expect(defaults[size] == 33)
            #expect(try makeDefaults("app", root: root).persistentValue(forKey: "size") == 33, "committed")
            #expect(bound.value == 33)
        }
    }

    @Test func followsAChangeMadeByAnotherInstance() async throws {
        try await withTemporaryRoot { root in
            let bound = try makeDefaults("app", root: root).bind(size)
            try makeDefaults("app", root: root).write(20, for: size)
            try await waitUntilObserved { bound.value == 20 }
            try makeDefaults("app", root: root).reset(size)
            try await waitUntilObserved { bound.value == 12 }
        }
    }

    /// An edit of a forced key is refused (the error goes to the handler) and the value shows the
    /// forced value again when the setter returns, telling observers so that what showed the edit
    /// redraws.
    @Test func aRefusedEditShowsTheForcedValueAgain() throws {
        try withTemporaryRoot { root in
            let errors = ReportedErrors()
            let defaults = try storeForcing(["size": 20], root: root, errors: errors)
            let bound = defaults.bind(size)
            #expect(bound.value == 20)
            #expect(tellsObservers(of: { _ = bound.value }, during: { bound.value = 33 }))
            #expect(bound.value == 20, "the refused edit does not stay shown")
            #expect(errors.all == [.forced(suite: "app", key: "size")])
            #expect(try defaults.persistentValue(forKey: "size") == nil, "nothing was written")
        }
    }

    /// An edit that a higher domain hides (a launch argument) is stored, and the value shows what the
    /// store reads: the argument's.
    @Test func anEditAnArgumentHidesShowsTheArgument() throws {
        let defaults = try makeInMemoryDefaults(arguments: ["-size", "20"])
        let bound = defaults.bind(size)
        bound.value = 33
        #expect(bound.value == 20)
        #expect(try defaults.persistentValue(forKey: "size") == 33)
    }

    /// Releasing the bound value releases its store: its observation holds it no longer, and nothing
    /// waits for a later change (an evaluation running at that moment holds it until it ends).
    ///
    /// NB: the write below wakes the observation thread, whose evaluation may run at the release.
    @Test func releasingItReleasesItsStore() throws {
        weak var released: Defaults?
        var bound: Defaults.BoundValue<Int>?
        do {
            let defaults = try makeInMemoryDefaults()
            released = defaults
            bound = defaults.bind(size)
            bound?.value = 13
        }
        #expect(released != nil, "the bound value holds its store")
        bound = nil
        // NB: not a timing assertion: an evaluation running at the release may hold the store until it
        // ends (cancel() never waits for it); a store kept for good never goes, and 10 s bound the wait.
        let deadline = ContinuousClock.now + .seconds(10)
        while released != nil, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.001) }
        #expect(released == nil, "and only while it lives")
    }
}
