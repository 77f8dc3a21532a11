import Foundation
import LayeredDefaults

/// Exhaustive assertions on the changes made to a persistent domain, in the spirit of a `TestStore`.
///
/// The recorder keeps a snapshot of the domain. Each assertion runs an action, then compares the
/// domain with the previous snapshot changed by your expectation; any difference fails the test with
/// a diff (`-` expected, `+` actual) that names keys and types, and shows values only of the keys your
/// expectations named (preferences may hold personal data).
///
/// ```swift
/// @Test func savingTheTheme() throws {
///     try withIsolatedDefaults { defaults, _ in
///         let recorder = try DefaultsRecorder(defaults)
///         defer { recorder.finish() }
///         let preferences = ThemePreferences(defaults: defaults)
///         try recorder.assert(during: { try preferences.save(.dark) }) {
///             $0["theme"] = "dark"
///         }
///     }
/// }
/// ```
///
/// A change that is never asserted (say, a write between two assertions) fails the next
/// ``assert(during:_:fileID:filePath:line:column:)``, or ``finish(fileID:filePath:line:column:)``.
/// When a recorder is released without `finish()`, it checks for unasserted changes then too; but
/// Swift may release an object right after its last use, before the end of its scope, so call
/// `finish()` (e.g. in a `defer`) to check everything up to the end of the test.
///
/// Failures go to Swift Testing (`Issue.record`) while a Swift Testing test runs, else to XCTest
/// (`XCTFail`).
public final class DefaultsRecorder: Sendable {
    /// The store whose domain is recorded.
    public let defaults: Defaults
    /// The name of the recorded persistent domain.
    public let domainName: String

    let reporter: IssueReporter
    private let creationSite: CallSite
    private let state: Lock<State>

    private struct State {
        var snapshot: [String: PreferenceValue]
        var exhaustivity: Exhaustivity
        /// Every key an expectation of this recorder has named: only their values may be shown.
        var namedKeys: Set<String> = []
        /// True after `finish()`, until the next assertion.
        var isFinished = false
    }

    /// Starts recording the persistent domain of `defaults`, taking its first snapshot.
    ///
    /// ```swift
    /// let recorder = try DefaultsRecorder(defaults, exhaustivity: .off)
    /// ```
    /// - Parameters:
    ///   - defaults: the store to watch.
    ///   - domain: the persistent domain to watch; the default is the store's own (`defaults.suiteName`).
    ///   - exhaustivity: how strictly expectations are checked. The default is ``Exhaustivity/on``.
    ///   - fileID: the file a failure found when the recorder is released is reported in.
    ///   - filePath: the file path a failure found when the recorder is released is reported in.
    ///   - line: the line a failure found when the recorder is released is reported at.
    ///   - column: the column a failure found when the recorder is released is reported at.
    /// - Throws: what `Defaults.persistentValues(forName:)` throws: the domain cannot be read.
    public convenience init(
        _ defaults: Defaults, domain: String? = nil, exhaustivity: Exhaustivity = .on,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) throws {
        try self.init(
            defaults, domain: domain, exhaustivity: exhaustivity, reporter: .live,
            site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    init(_ defaults: Defaults, domain: String?, exhaustivity: Exhaustivity, reporter: IssueReporter, site: CallSite) throws {
        self.defaults = defaults
        self.domainName = domain ?? defaults.suiteName
        self.reporter = reporter
        self.creationSite = site
        let snapshot = try defaults.persistentValues(forName: domainName)
        self.state = Lock(State(snapshot: snapshot, exhaustivity: exhaustivity))
    }

    deinit {
        let finished = state.withLock { $0.isFinished }
        guard !finished else { return }
        guard let current = try? currentValues() else { return }
        reportUnasserted(
            current, site: creationSite,
            headline:
                "The persistent domain \"\(domainName)\" has changes that were never asserted (found when the recorder was released without finish())"
        )
    }

    /// How strictly expectations are checked; change it at any point of a test.
    public var exhaustivity: Exhaustivity {
        get { state.withLock { $0.exhaustivity } }
        set { state.withLock { $0.exhaustivity = newValue } }
    }

    /// The domain as of the last assertion: what the next expectation is applied to.
    public var snapshot: [String: PreferenceValue] {
        state.withLock { $0.snapshot }
    }

    /// Checks that every change to the domain has been asserted, failing the test otherwise.
    ///
    /// Call it at the end of a test, e.g. `defer { recorder.finish() }`. With exhaustivity off, it
    /// never fails (with `showSkippedAssertions`, it shows what was not asserted).
    /// - Parameters:
    ///   - fileID: the file a failure is reported in.
    ///   - filePath: the file path a failure is reported in.
    ///   - line: the line a failure is reported at.
    ///   - column: the column a failure is reported at.
    public func finish(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        do {
            let current = try currentValues()
            reportUnasserted(
                current, site: site,
                headline: "The persistent domain \"\(domainName)\" has changes that were never asserted before finish()")
        } catch {
            reporter.fail("Could not read the persistent domain \"\(domainName)\": \(error)", site)
        }
        state.withLock { $0.isFinished = true }
    }

    /// Accepts every change made since the last assertion without asserting it: the next expectation
    /// applies to the domain as it is now.
    ///
    /// With ``Exhaustivity/off(showSkippedAssertions:)`` and `true`, the skipped changes are shown.
    /// - Parameters:
    ///   - fileID: the file the skipped changes are reported in.
    ///   - filePath: the file path the skipped changes are reported in.
    ///   - line: the line the skipped changes are reported at.
    ///   - column: the column the skipped changes are reported at.
    /// - Throws: the domain cannot be read.
    public func skipChanges(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) throws {
        let current = try currentValues()
        let (previous, exhaustivity, shown) = state.withLock { state in
            defer { state.snapshot = current }
            return (state.snapshot, state.exhaustivity, state.namedKeys)
        }
        let skipped = DomainDiff(expected: previous, actual: current, shownKeys: shown)
        if case .off(true) = exhaustivity, !skipped.isEmpty {
            reporter.note(
                skipped.message(
                    "Skipped changes to the persistent domain \"\(domainName)\"", legend: "- as last asserted, + actual"),
                CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
        }
    }

    // MARK: Internals shared by the assertions

    func currentValues() throws -> [String: PreferenceValue] {
        try defaults.persistentValues(forName: domainName)
    }

    /// Compares `current` with the snapshot, reports the difference as unasserted changes (a failure
    /// when exhaustive, a note when skipped assertions are shown), and takes `current` as the snapshot.
    func reportUnasserted(_ current: [String: PreferenceValue], site: CallSite, headline: String) {
        let (previous, exhaustivity, shown) = state.withLock { state in
            defer { state.snapshot = current }
            return (state.snapshot, state.exhaustivity, state.namedKeys)
        }
        let diff = DomainDiff(expected: previous, actual: current, shownKeys: shown)
        guard !diff.isEmpty else { return }
        switch exhaustivity {
        case .on: reporter.fail(diff.message(headline, legend: "- as last asserted, + actual"), site)
        case .off(showSkippedAssertions: true):
            reporter.note(diff.message("Skipped: " + headline, legend: "- as last asserted, + actual"), site)
        case .off(showSkippedAssertions: false): break
        }
    }

    /// Checks `current` against the snapshot changed by `expectedChange`, reports any difference, and
    /// takes `current` as the snapshot (even when `expectedChange` throws).
    func verify(
        _ current: [String: PreferenceValue], _ expectedChange: (inout [String: PreferenceValue]) throws -> Void, site: CallSite
    ) throws {
        let (previous, exhaustivity) = state.withLock { state in
            state.isFinished = false
            return (state.snapshot, state.exhaustivity)
        }
        defer { state.withLock { $0.snapshot = current } }

        var expected = previous
        try expectedChange(&expected)
        var named = Self.keys(changedFrom: previous, to: expected)
        var isExhaustive = true
        if case .off = exhaustivity { isExhaustive = false }
        if !isExhaustive || expected != current {
            // NB: applying the expectation to the stored values too finds the keys it sets to the value
            // they had before (invisible above). Only the names are used, never this result.
            var appliedToCurrent = current
            if (try? expectedChange(&appliedToCurrent)) != nil {
                named.formUnion(Self.keys(changedFrom: current, to: appliedToCurrent))
            }
        }
        let shown = state.withLock { state in
            state.namedKeys.formUnion(named)
            return state.namedKeys
        }

        let headline = "The persistent domain \"\(domainName)\" does not match the expected change"
        switch exhaustivity {
        case .on:
            let diff = DomainDiff(expected: expected, actual: current, shownKeys: shown)
            if !diff.isEmpty { reporter.fail(diff.message(headline), site) }
        case .off(let showSkippedAssertions):
            let checked = DomainDiff(
                expected: expected.filter { named.contains($0.key) },
                actual: current.filter { named.contains($0.key) }, shownKeys: shown)
            if !checked.isEmpty {
                reporter.fail(
                    checked.message(headline + " (exhaustivity is off: only the keys the expectation set are checked)"), site)
                return
            }
            let skipped = DomainDiff(expected: expected, actual: current, shownKeys: shown)
            if showSkippedAssertions, !skipped.isEmpty {
                reporter.note(skipped.message("Skipped assertions on the persistent domain \"\(domainName)\""), site)
            }
        }
    }

    private static func keys(changedFrom old: [String: PreferenceValue], to new: [String: PreferenceValue]) -> Set<String> {
        Set(old.keys).union(new.keys).filter { old[$0] != new[$0] }
    }
}
