import Foundation
import Synchronization

/// The write transaction: the one way a store's rows change.
extension DomainStore {
    /// What a commit of this store did to its fingerprint: from `before` (taken under the write lock) to
    /// `after`, and whether it was the one commit between them (``ChangeSignal/isOnlyCommit(wroteLog:between:and:)``).
    struct Commit {
        let store: DomainStore
        let before: ChangeSignal.Fingerprint
        let after: ChangeSignal.Fingerprint
        let isOnlyCommit: Bool
    }

    /// Runs `body` in one write transaction (`BEGIN IMMEDIATE` ... `COMMIT`) and, once it has
    /// committed, patches the in-memory view with what it changed.
    ///
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws (nothing is changed then), ``unavailable``, or a storage error
    ///   (``DefaultsError/busy(suite:key:)``, ``DefaultsError/diskFull(suite:key:)``, ...), after which
    ///   the database and the view are as they were.
    /// - Parameters:
    ///   - key: the key the transaction is about, if one, for error messages.
    ///   - rules: what the body's writes obey (the forced keys, whose rows it does not remove, and the schema).
    ///   - policy: what this writer adds to the rules, nil for nothing: the history it configures (without
    ///     one, the domain's own applies: see ``historyPolicy(configured:rules:generation:table:)``) and the
    ///     device that stamps the changes of syncing keys (``DomainTransaction/syncDevice``).
    ///   - committed: called once the transaction has committed, the store's lock still held, with what the
    ///     commit did to the store's fingerprint.
    ///   - asOneStatement: the body makes at most one statement that writes (a single key's value), which
    ///     then commits on its own, without `BEGIN IMMEDIATE` and `COMMIT` around it: SQLite takes the write
    ///     lock for the statement, with the same busy timeout. The fingerprint taken before it is then not
    ///     taken under the write lock, which changes nothing: a commit of another process in between makes
    ///     ours not the only one, and the view is only revalidated.
    @discardableResult
    func writeTransaction<T>(
        key: String? = nil, rules: WriteRules, policy: WritePolicy?, committed: (Commit) -> Void = { _ in },
        asOneStatement: Bool = false, _ body: (inout DomainTransaction) throws -> T
    ) throws -> T {
        if let unavailable {
            if case .readOnly(let suite, nil) = unavailable { throw DefaultsError.readOnly(suite: suite, key: key) }
            throw unavailable
        }
        return try withTable(key: key) { table, reentered in
            guard !reentered else { throw DefaultsError.nestedTransaction(suite: name) }
            try refuseWritingIfReplaced()
            var asOneStatement = asOneStatement
            do {
                if asOneStatement { try table.beginStatement() } else { try table.begin() }
            } catch {
                throw failure(error, key: key)
            }
            // Holding the write lock (or before the one statement takes it), the view now matches the
            // database (or is discarded).
            let before = view.withLock { view in
                view.revalidate(signal.fingerprint)
                return (generation: view.generation, fingerprint: view.fingerprint)
            }
            let recording: DomainTransaction.RecordedKeys?
            do {
                recording = try historyPolicy(
                    configured: policy?.history, rules: rules, generation: before.generation, table: table)
                // NB: a change that keeps history writes several statements, which must commit together.
                if recording != nil, asOneStatement {
                    try table.begin()
                    asOneStatement = false
                }
            } catch {
                if !asOneStatement { table.rollback() }
                throw failure(error, key: key)
            }
            var transaction = DomainTransaction(table: table, rules: rules, recording: recording)
            if let syncDevice = policy?.syncDevice { transaction.syncDevice = syncDevice }
            let result: T
            let wroteLog: Bool
            do {
                // NB: before the body: one statement commits inside it.
                let commitsBefore = table.connection.walCommitCount
                runsTransaction.store(true, ordering: .releasing)
                defer { runsTransaction.store(false, ordering: .releasing) }
                result = try body(&transaction)
                // NB: a body that caught a failed statement's error must not commit the rest: SQLite may
                // already have rolled back, leaving later statements to commit one by one.
                if let failed = table.transactionFailure { throw failed }
                if !asOneStatement { try table.commit() }
                wroteLog = table.connection.walCommitCount != commitsBefore
            } catch {
                // A statement that failed in autocommit rolled itself back.
                if !asOneStatement { table.rollback() }
                throw failure(error, key: key)
            }
            // The table a commit may have made is known at once, not at the next commit of another writer.
            if transaction.mayHaveMadeHistory { historyTableSeen.store(Self.historyTableUnknown, ordering: .relaxed) }
            Self.afterCommitForTesting?()
            let (changes, removedAll) = (transaction.changes, transaction.removedAll)
            let current = signal.fingerprint
            // NB: the write lock is released once COMMIT returns, so another process may have committed too
            // before `current` was read: the view is patched only when ours, known to have written, is the
            // one commit since `before`. A commit that wrote nothing never patches: the view is then only
            // revalidated, as for a read.
            let isOnlyCommit = signal.isOnlyCommit(wroteLog: wroteLog, between: before.fingerprint, and: current)
            view.withLock {
                $0.patch(changes, removedAll: removedAll, since: before, isOnlyCommit: isOnlyCommit, current: current)
            }
            committed(Commit(store: self, before: before.fingerprint, after: current, isOnlyCommit: isOnlyCommit))
            // Only a commit that wrote to a log asks for a checkpoint: never an in-memory store's.
            if wroteLog {
                headerAfterOwnCommit.withLock { $0 = isOnlyCommit ? current : nil }
                idleCheckpoint?.arm(commits: table.connection.walCommitCount)
            }
            return result
        }
    }

    /// What a transaction of this domain records: the writer's configured policy, every key's changes;
    /// else, where the schema marks keys as keeping history (``PreferenceSchema/Entry/keepsHistory``),
    /// those keys' changes with the standard bound; else, where the file holds the history table (a writer
    /// kept history), every key's changes with the standard bound: history is the domain's, not one
    /// writer's. Nil: nothing is recorded.
    ///
    /// Whether the file holds the table is asked of SQLite only when the view was discarded since it was
    /// last asked (`generation`: another process committed) and while it holds none: a domain without
    /// history that only this process writes asks once.
    private func historyPolicy(
        configured: Defaults.History?, rules: WriteRules, generation: Int, table: PreferencesTable
    ) throws -> DomainTransaction.RecordedKeys? {
        if let configured { return .init(bound: configured, everyKey: true, isConfigured: true) }
        if let schema = rules.schema, schema.marksKeysKeepingHistory {
            return .init(bound: .standard, everyKey: false, isConfigured: false)
        }
        let seen = historyTableSeen.load(ordering: .relaxed)
        if seen == generation { return nil }
        guard try seen == Self.historyTablePresent || table.hasHistoryTable() else {
            historyTableSeen.store(generation, ordering: .relaxed)
            return nil
        }
        // NB: never dropped: a file that holds the table holds it for good (a restore empties it).
        historyTableSeen.store(Self.historyTablePresent, ordering: .relaxed)
        return .init(bound: .standard, everyKey: true, isConfigured: false)
    }

    /// Runs between a transaction's `COMMIT` and the store's read of the WAL-index header: a seam for tests
    /// that force another process's commit into exactly that moment.
    @TaskLocal static var afterCommitForTesting: (@Sendable () -> Void)?
}
