/// The in-memory view of one domain: values known to be stored (or known to be absent), valid for one
/// ``ChangeSignal/Fingerprint`` of its file.
///
/// Its rules: a look first revalidates against the current fingerprint (another commit discards
/// everything); what a query read is remembered only when no discard happened since the query began
/// (``generation``); and a commit of ours patches the view in place only when it was the one commit
/// since the view was last revalidated, else the view is just revalidated.
struct CachedView {
    /// How many keys known to be absent the view keeps: reading ever more distinct missing keys must not
    /// grow it without bound. Past it, the absent keys are forgotten (the stored values are kept).
    static let absentLimit = 4096

    /// The values known, by key: `.some(nil)` is a key known to be absent.
    private(set) var entries: [String: PreferenceValue?] = [:]
    /// How many of ``entries`` are keys known to be absent; at most ``absentLimit``.
    private(set) var absentCount = 0
    /// True when ``entries`` holds every stored key: a key not in it is absent.
    private(set) var isComplete: Bool
    /// The fingerprint of the file's state the view describes.
    private(set) var fingerprint: ChangeSignal.Fingerprint
    /// Incremented whenever the view is discarded, so a read that raced with it does not repopulate it.
    private(set) var generation = 0

    /// An empty view of the state `fingerprint`; `isComplete` for a domain known to hold nothing.
    init(isComplete: Bool, fingerprint: ChangeSignal.Fingerprint) {
        self.isComplete = isComplete
        self.fingerprint = fingerprint
    }

    /// Discards the view when `current` is not the fingerprint it describes.
    mutating func revalidate(_ current: ChangeSignal.Fingerprint) {
        guard current != fingerprint else { return }
        entries.removeAll()
        absentCount = 0
        isComplete = false
        fingerprint = current
        generation += 1
    }

    /// What the view knows of `key` (after revalidating against `current`): `.some(value)` (nil: known
    /// absent), or nil when it does not know and the file must be asked.
    mutating func lookUp(_ key: String, current: ChangeSignal.Fingerprint) -> PreferenceValue?? {
        revalidate(current)
        if let entry = entries[key] { return .some(entry) }
        return isComplete ? .some(nil) : nil
    }

    /// Remembers `value` for `key`, read by a query that began in `generation`, unless the view was
    /// discarded since.
    mutating func remember(_ value: PreferenceValue?, forKey key: String, readIn generation: Int) {
        guard generation == self.generation else { return }
        set(value, forKey: key)
    }

    /// Remembers every stored value, read by a query that began in `generation`, unless the view was
    /// discarded since: the view is then complete.
    mutating func rememberAll(_ values: [String: PreferenceValue], readIn generation: Int) {
        guard generation == self.generation else { return }
        entries = values.mapValues { .some($0) }
        absentCount = 0
        isComplete = true
    }

    /// Applies a commit of ours: `changes` in order (nil: removed), after removing every key when
    /// `removedAll`, when `isOnlyCommit` (ours was the one commit since `before`, the generation and
    /// fingerprint the view had when the transaction began); else revalidates against `current`.
    mutating func patch(
        _ changes: [(key: String, value: PreferenceValue?)], removedAll: Bool,
        since before: (generation: Int, fingerprint: ChangeSignal.Fingerprint),
        isOnlyCommit: Bool, current: ChangeSignal.Fingerprint
    ) {
        guard generation == before.generation, isOnlyCommit else { return revalidate(current) }
        if removedAll {
            entries.removeAll()
            absentCount = 0
            isComplete = true
        }
        for (key, value) in changes { set(value, forKey: key) }
        fingerprint = current
    }

    /// Records `value` for `key` (nil: known absent), keeping ``absentCount`` exact and within ``absentLimit``.
    private mutating func set(_ value: PreferenceValue?, forKey key: String) {
        let old: PreferenceValue??
        if value == nil, isComplete {
            // NB: a complete view needs no absent entry: a key not in it is absent.
            old = entries.removeValue(forKey: key)
        } else {
            if value == nil, absentCount >= Self.absentLimit {
                entries = entries.filter { $0.value != nil }
                absentCount = 0
            }
            old = entries.updateValue(value, forKey: key)
            if value == nil { absentCount += 1 }
        }
        if case .some(.none) = old { absentCount -= 1 }
    }
}
