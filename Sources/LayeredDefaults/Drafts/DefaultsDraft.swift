import Synchronization

extension Defaults {
    /// A new, empty draft of this instance's persistent domain: edits that its reads see and that reach
    /// the store only when ``DefaultsDraft/apply(overwritingConflicts:)`` commits them all at once.
    ///
    /// ```swift
    /// let draft = defaults.draft()
    /// draft[.fontSize] = 16       // the store still reads the old size
    /// try draft.apply()           // one transaction: every edit, or none
    /// ```
    /// - Returns: a new draft with no edits; it writes nothing until it is applied.
    public func draft() -> DefaultsDraft { DefaultsDraft(defaults: self) }
}

/// Edits of a domain held apart from the store until they are applied or reverted, as a settings
/// dialog's Apply and Cancel need: GSettings' `delay`, `apply`, `revert` and `has-unapplied`.
///
/// Made by ``Defaults/draft()``. Until ``apply(overwritingConflicts:)``:
/// - **Nothing reaches the store** or any other process, and no file is made.
/// - **Reads see the edits over the store's current values**: ``value(forKey:)`` and the typed-key
///   subscript read an edited key as the store would read it were the edit its persistent value (a
///   forced value or a launch argument still wins; a removal reads through to the layers below), and an
///   unedited key as the store reads it now, changes of other instances and processes included.
/// - **A conflict** is an edited key whose persistent value another instance or process changed since
///   the draft's first edit of it (``conflicts``). ``apply(overwritingConflicts:)`` overwrites it by
///   default (the dialog's edit is the last write, as GSettings' apply does); pass false to refuse the
///   apply instead (``DefaultsDraft/ConflictError``, nothing written).
///
/// `apply` commits every edit in one transaction through the store's one write path, so the domain's
/// rules apply to each (forced keys, the schema, a value's limits): one edit refused refuses them all,
/// nothing changes, and the draft keeps its edits. A draft is `Sendable`; its edits are its own, never
/// shared with another draft of the same store. See <doc:Drafts>.
public final class DefaultsDraft: Sendable {
    /// The store this draft edits.
    public let defaults: Defaults

    /// One edit: the value the draft gives the key, and the key's persistent value when the draft first
    /// edited it (a later change of that value by anyone else is a conflict).
    struct Edit: Sendable {
        var value: PreferenceValue?
        var base: PreferenceValue?
        /// A typed key's own entry, applied where the domain's schema does not declare the key.
        var declared: PreferenceSchema.Entry?
        /// Tells this edit from a later one of the same key (see ``apply(overwritingConflicts:)``).
        var id: Int
    }

    struct State {
        var edits: [String: Edit] = [:]
        var nextID = 0
        var listeners: [Int: @Sendable (Set<String>?) -> Void] = [:]
    }

    let state = Lock(State())

    init(defaults: Defaults) { self.defaults = defaults }

    // MARK: Edits

    /// Edits `key`: the draft reads `value` for it from now on (nil removes it: the layers below the
    /// persistent domain show through); the store is not written.
    ///
    /// The key's persistent value now is remembered the first time the draft edits it, to tell a
    /// conflict (see ``conflicts``). The domain's rules are checked when the draft is applied.
    /// - Throws: ``DefaultsError`` when the persistent domain cannot be read.
    public func write(_ value: PreferenceValue?, forKey key: String) throws {
        try edit(key, value: value, declared: nil)
    }

    /// Edits the typed `key`: the draft reads `value` for it from now on (an optional key's nil removes
    /// it, as ``reset(_:)`` does).
    /// - Throws: ``DefaultsError/unencodableValue(suite:key:type:)``, or ``DefaultsError`` when the
    ///   persistent domain cannot be read.
    public func write<Value>(_ value: Value, for key: Defaults.Key<Value>) throws {
        try edit(key.name, value: try defaults.storedForm(of: value, for: key), declared: key.declaredEntry?.entry)
    }

    /// Edits the typed `key` to its removal: once applied, the store reads its default again.
    /// - Throws: ``DefaultsError`` when the persistent domain cannot be read.
    public func reset<Value>(_ key: Defaults.Key<Value>) throws {
        try edit(key.name, value: nil, declared: key.declaredEntry?.entry)
    }

    /// The typed `key`'s value as the draft reads it; setting it edits the draft, as
    /// ``write(_:for:)`` does, and sends an error to ``Defaults/Configuration/errorHandler``, as the
    /// store's typed-key subscript does.
    public subscript<Value>(key: Defaults.Key<Value>) -> Value {
        get {
            guard let edit = edit(of: key.name) else { return defaults[key] }
            let found = defaults.searchList.search(
                key.name, persistentRow: edit.value, declared: edit.declared ?? key.declaredEntry?.entry, failed: defaults.report)
            return defaults.typedValue(found, for: key) ?? key.defaultValue
        }
        set { _ = defaults.reportingErrors { try write(newValue, for: key) } }
    }

    private func edit(_ key: String, value: PreferenceValue?, declared: PreferenceSchema.Entry?) throws {
        // NB: read before the lock is taken: a store's read may wait for its lock, and the draft's lock
        // is a leaf. A first edit racing another first edit of the same key keeps the earlier base.
        let stored = edit(of: key) == nil ? try defaults.persistentValue(forKey: key) : nil
        state.withLock { state in
            let base = state.edits[key].map(\.base) ?? stored
            state.nextID += 1
            state.edits[key] = Edit(value: value, base: base, declared: declared, id: state.nextID)
        }
        notify([key])
    }

    private func edit(of key: String) -> Edit? { state.withLock { $0.edits[key] } }

    // MARK: Reading

    /// The value of `key` as the draft reads it: the store's search with the draft's edit of the key as
    /// its persistent value (a removal reads through to the layers below), or the store's value now
    /// when the draft did not edit it.
    /// - Throws: ``DefaultsError`` when a domain that must be searched cannot be read.
    public func value(forKey key: String) throws -> PreferenceValue? {
        guard let edit = edit(of: key) else { return try defaults.value(forKey: key) }
        return try defaults.searchList.search(key, persistentRow: edit.value, declared: edit.declared) { throw $0 }
    }

    /// True while the draft holds edits that were neither applied nor reverted (GSettings' `has-unapplied`).
    public var hasUnappliedEdits: Bool { state.withLock { !$0.edits.isEmpty } }

    /// The keys the draft edited, sorted.
    public var editedKeys: [String] { state.withLock { $0.edits.keys.sorted() } }

    /// The edited keys whose persistent value changed since the draft first edited them (another
    /// instance or process wrote them meanwhile), sorted: what
    /// ``apply(overwritingConflicts:)`` would overwrite.
    /// - Throws: ``DefaultsError`` when the persistent domain cannot be read.
    public var conflicts: [String] {
        get throws {
            let edits = state.withLock { $0.edits }
            return try edits.filter { try defaults.persistentValue(forKey: $0.key) != $0.value.base }.keys.sorted()
        }
    }

    // MARK: Applying

    /// Why ``apply(overwritingConflicts:)`` refused: edited keys another instance or process changed
    /// since the draft edited them. Names the keys, never a value.
    public struct ConflictError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The domain.
        public let suite: String
        /// The conflicting keys, sorted.
        public let keys: [String]

        /// Says which keys of which domain changed, and what to do next.
        public var description: String {
            "Suite '\(suite)': \(keys.map { "'\($0)'" }.joined(separator: ", ")) changed in the store since the draft "
                + "edited them; read them again, or apply overwriting them"
        }
    }

    /// Commits every edit in one transaction of the store (its one write path: forced keys, the schema,
    /// a value's limits apply to each), then empties the draft.
    ///
    /// Whole or nothing: when any edit is refused, this throws the store's error, which names its key,
    /// nothing is written (no file is made for a domain that had none), and the draft keeps every edit.
    ///
    /// ```swift
    /// try draft.apply()                           // the draft's edits win over changes made meanwhile
    /// try draft.apply(overwritingConflicts: false)  // or refuse them: ConflictError
    /// ```
    /// - Parameter overwritingConflicts: true (the default) writes the edits over any change made to
    ///   their keys since they were edited, the last writer winning; false throws ``ConflictError``
    ///   instead when there is one, checked in the same transaction, so nothing is overwritten unseen.
    /// - Throws: ``ConflictError``, or the ``DefaultsError`` of ``Defaults/transaction(_:)`` and
    ///   ``DomainTransaction/write(_:forKey:)`` (``DefaultsError/forced(suite:key:)``,
    ///   ``DefaultsError/valueNotAccepted(suite:key:accepts:)``...); nothing changes then.
    public func apply(overwritingConflicts: Bool = true) throws {
        let edits = state.withLock { $0.edits }
        guard !edits.isEmpty else { return }
        let ordered = edits.sorted { $0.key < $1.key }
        try defaults.transaction { domain in
            if !overwritingConflicts {
                let conflicting = try ordered.filter { try domain.value(forKey: $0.key) != $0.value.base }.map(\.key)
                if !conflicting.isEmpty { throw ConflictError(suite: defaults.suiteName, keys: conflicting) }
            }
            for (key, edit) in ordered { try domain.write(edit.value, forKey: key, declared: edit.declared) }
        }
        // Only the edits committed: one made by another thread while the transaction ran is not applied.
        forget(edits)
    }

    /// Drops every edit: the draft reads what the store reads again (GSettings' `revert`).
    public func revert() { forget(state.withLock { $0.edits }) }

    /// Drops the edits of `edits` that were not replaced since, then tells the draft's observers.
    private func forget(_ edits: [String: Edit]) {
        state.withLock { state in
            for (key, edit) in edits where state.edits[key]?.id == edit.id { state.edits[key] = nil }
        }
        notify(Set(edits.keys))
    }
}
