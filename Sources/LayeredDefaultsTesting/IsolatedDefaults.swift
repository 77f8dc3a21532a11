import Foundation
import LayeredDefaults

/// The names and places the isolated scopes (the `.isolatedDefaults` trait,
/// ``withIsolatedDefaults(_:prefix:arguments:printingErrors:_:)``) use for their throwaway domains.
public enum IsolatedDefaults {
    /// The prefix of every suite name the isolation helpers make: `LayeredDefaultsTesting-` followed by
    /// a UUID, e.g. `LayeredDefaultsTesting-E621E1F8-C36C-495A-93FC-0C247A3E6E5F`.
    ///
    /// Pass it to ``LeftoverDomains/remove(prefix:in:olderThan:)`` to clean up after crashed test runs.
    public static let suiteNamePrefix = "LayeredDefaultsTesting-"

    /// Where an isolated scope keeps its fresh domain, and so what it removes afterwards (even when the
    /// test throws). The trait and the helper take the same value:
    ///
    /// ```swift
    /// @Test(.isolatedDefaults(.inMemory)) func aFastTest() { ... }
    ///
    /// try withIsolatedDefaults(.directory(sharedRoot)) { defaults, suiteName in ... }
    /// ```
    public enum Storage: Sendable, Hashable {
        /// A fresh temporary directory of the scope's own, removed whole afterwards: a real SQLite file,
        /// as in the app, and even the global domain is private to the scope. The default.
        case temporaryDirectory
        /// No file at all (`Location.inMemory`): faster, but only this store sees its values, and
        /// everything is gone when the store is released.
        case inMemory
        /// The given directory, kept: only the domain's own files (`<suite>.sqlite3` and its `-wal`,
        /// `-shm` and `-journal` files) are removed afterwards. Other domains and files in it are left
        /// alone, the shared global domain `NSGlobalDomain.sqlite3` among them (created by the first read
        /// that searches past the domain).
        case directory(URL)
    }

    /// A fresh suite name: `prefix` followed by a UUID.
    /// - Throws: `DefaultsError.invalidSuiteName` when the prefix makes an invalid suite name.
    static func makeSuiteName(prefix: String) throws -> String {
        let name = prefix + UUID().uuidString
        guard Defaults.Domain.isValidName(name) else { throw DefaultsError.invalidSuiteName(name) }
        return name
    }
}
