import Foundation
import LayeredDefaults

/// `UserDefaults`' suites, added and removed after the instance was created. The core's way is
/// `Configuration.suites`, fixed at creation; these change this instance's search list later.
extension Defaults {
    /// Adds the persistent domain `suiteName` to the search list, after this domain and before the
    /// suites added earlier and those of `Configuration.suites`. It is read-only through this instance,
    /// and the change affects this instance only (Foundation on Linux changes the whole process's list).
    /// Adding this instance's own domain or the global domain does nothing. Errors (an invalid or corrupt
    /// suite) go to the error handler, and the search list is unchanged.
    public func addSuite(named suiteName: String) {
        _ = reportingErrors { try insertSearchedSuite(named: suiteName) }
    }

    /// Removes the suite `suiteName` from this instance's search list, whether it was added with
    /// ``addSuite(named:)`` or configured in `Configuration.suites`.
    public func removeSuite(named suiteName: String) {
        removeSearchedSuite(named: suiteName)
    }
}
