import Foundation

/// The name of a migration, recorded in the domain once it has run.
public struct MigrationName: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The recorded name.
    public let rawValue: String

    /// A migration called `name`. Names are compared exactly; include an order in them (`"2-theme-enum"`).
    public static func named(_ name: String) -> MigrationName { MigrationName(rawValue: name) }

    /// A migration called by a string literal.
    public init(stringLiteral value: String) { rawValue = value }

    private init(rawValue: String) { self.rawValue = rawValue }

    /// The recorded name.
    public var description: String { rawValue }
}

extension Defaults {
    /// Runs `body` once per persistent domain, atomically, and records that it ran.
    ///
    /// The check, the body and the record happen in one write transaction: a crash midway leaves the
    /// old data and no record, so the next launch runs it again from the start; once it committed, no
    /// launch and no other process runs it again (a concurrent one waits for the lock, then sees the
    /// record). Migrations are run in the order you call them.
    ///
    /// ```swift
    /// try defaults.migrate(.named("2-theme-enum")) { domain in
    ///     if case .bool(true)? = try domain.value(forKey: "darkMode") {
    ///         try domain.set("dark", forKey: "theme")
    ///     }
    ///     try domain.set(nil, forKey: "darkMode")
    /// }
    /// ```
    /// - Returns: true when it ran now, false when it had already run.
    /// - Throws: what `body` throws (nothing changes and nothing is recorded), or a storage error.
    @discardableResult
    public func migrate(_ name: MigrationName, _ body: (inout DomainTransaction) throws -> Void) throws -> Bool {
        try transaction { domain in
            guard try !domain.table.hasMigration(named: name.rawValue) else { return false }
            try body(&domain)
            try domain.table.recordMigration(named: name.rawValue)
            return true
        }
    }

    /// The names of the migrations recorded in the persistent domain.
    /// - Throws: a storage error.
    public func appliedMigrations() throws -> Set<MigrationName> {
        Set(try persistent.read { try $0.migrationNames() }.map(MigrationName.named))
    }
}
