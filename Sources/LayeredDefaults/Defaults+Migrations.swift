import Foundation

extension Defaults {
    /// Runs `body` once per persistent domain, atomically, and records that it ran under `name`.
    ///
    /// The check, the body and the record happen in one write transaction: a crash midway leaves the
    /// old data and no record, so the next launch runs it again from the start; once it committed, no
    /// launch and no other process runs it again (a concurrent one waits for the lock, then sees the
    /// record). Migrations are run in the order you call them.
    ///
    /// ```swift
    /// try defaults.migrate("2-theme-enum") { domain in
    ///     if case .bool(true)? = try domain.value(forKey: "darkMode") {
    ///         try domain.write("dark", forKey: "theme")
    ///     }
    ///     try domain.write(nil, forKey: "darkMode")
    /// }
    /// ```
    /// - Parameters:
    ///   - name: the migration's name, recorded in the domain once it has run. Names are compared
    ///     exactly; include an order in them (`"2-theme-enum"`).
    ///   - body: the changes, made through the domain's transaction.
    /// - Returns: true when it ran now, false when it had already run.
    /// - Throws: what `body` throws (nothing changes and nothing is recorded), or a storage error.
    @discardableResult
    public func migrate(_ name: String, _ body: (inout DomainTransaction) throws -> Void) throws -> Bool {
        try transaction { domain in
            guard try !domain.table.hasMigration(named: name) else { return false }
            try body(&domain)
            try domain.table.recordMigration(named: name)
            return true
        }
    }

    /// The names of the migrations recorded in the persistent domain.
    /// - Throws: a storage error.
    public func appliedMigrations() throws -> Set<String> {
        Set(try persistent.store()?.reading { try $0.migrationNames() } ?? [])
    }
}
