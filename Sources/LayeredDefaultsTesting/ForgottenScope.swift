import Foundation
import LayeredDefaults
import Testing

/// Reports a use of the real preferences in a test process outside an isolated scope (`Defaults.standard`,
/// or a store of `Location.default`): once per test, pointing at the test's own line where it is known,
/// recommending the isolation helper of the framework the test runs under.
enum ForgottenScope {
    /// What was used outside a scope.
    enum Door: Sendable {
        /// `Defaults.standard`.
        case standard
        /// `Location.default`: a store of the default configuration, `repair`, `backup`, `restore`.
        case defaultLocation
    }

    /// What a failure starts with, naming what was used and what to do instead under `framework` (nil:
    /// not known, both helpers are named).
    static func message(_ door: Door, framework: RunningTest.Framework?) -> String {
        let helper: String
        switch framework {
        case .swiftTesting: helper = "`.isolatedDefaults`"
        case .xcTest: helper = "`withIsolatedDefaults { defaults, suiteName in ... }`"
        case nil: helper = "`.isolatedDefaults` (Swift Testing) or `withIsolatedDefaults` (XCTest)"
        }
        switch door {
        case .standard:
            return "`Defaults.standard` was used in a test; inject a store or use \(helper)"
        case .defaultLocation:
            return "A store of the default location (`Location.default`) was opened in a test; "
                + "give it a `Location` of the test's, or use \(helper)"
        }
    }

    /// The tests (and, where no test is known, the call sites) already reported: one report each.
    private static let reported = Lock<Set<String>>([])

    /// Reports the use of `door` to the running test (the first use in that test only), or, where no
    /// test is known (another thread, a detached task), to the test run and standard error once per
    /// call site. The caller goes on with a throwaway in-memory store.
    static func report(_ door: Door) {
        let test = RunningTest.current
        // NB: a running test is reported once, told before the (costly) backtrace; elsewhere, once per call site.
        if let test, reported.withLock({ $0.contains(test.identity) }) { return }
        let caller = CallerFrame.find(for: test)
        let key = test?.identity ?? "unknown:\(caller.map { "\($0.location)" } ?? "\(door)")"
        guard reported.withLock({ $0.insert(key).inserted }) else { return }
        let through = caller?.door.map { " through `\($0)`" } ?? ""
        let place = caller.map { ", called from \($0.function) at \($0.location)" } ?? ""
        let throwaway = "; it is a throwaway in-memory store"
        guard let test else {
            let message = message(door, framework: nil) + " (no running test is known on this thread\(through)\(place))"
            FileHandle.standardError.write(Data("LayeredDefaultsTesting: \(message + throwaway)\n".utf8))
            // NB: off a Swift Testing test's task, an issue belongs to the run, not to a test: the run fails.
            IssueReporter.live.fail(message + throwaway, CallSite(unknownAt: caller?.location))
            return
        }
        var site = test.site
        if let location = caller?.location { site.runtimeLocation = location }
        IssueReporter.live.fail(message(door, framework: test.framework) + " (test \(test.name)\(through)\(place))", site)
    }
}
