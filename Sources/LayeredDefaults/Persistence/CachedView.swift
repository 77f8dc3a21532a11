/// The in-memory view of one domain: values known to be stored (or known to be absent), valid for one
/// ``ChangeSignal/Fingerprint`` of its file.
///
/// Its rules: a lookup first revalidates against the current fingerprint (another commit discards
/// everything); what a query read is remembered only when no discard happened since the query began
/// (``generation``); and a commit of ours patches the view in place only when it was the one commit
/// since the view was last revalidated, else the view is just revalidated.
struct CachedView {
    /// How many keys known to be absent the view keeps: reading ever more distinct missing keys must not
    /// grow it without bound. Past it, the absent keys are forgotten (the stored values are kept).
    static let absentLimit = 4096

    /// The stored values known, by key.
    private(set) var values: [String: PreferenceValue] = [:]
    /// Keys known to be absent, at most ``absentLimit``; none in a complete view (a key not in ``values``
    /// is absent there).
    ///
    /// Apart from ``values``, not as `PreferenceValue?` entries in it: a complete view can then keep the
    /// very dictionary a whole-domain read returned (copy-on-write shares its storage), instead of a copy.
    private(set) var absent: Set<String> = []
    /// True when ``values`` holds every stored key: a key not in it is absent.
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
    @inline(__always) mutating func revalidate(_ current: ChangeSignal.Fingerprint) {
        guard current != fingerprint else { return }
        values.removeAll()
        absent.removeAll()
        isComplete = false
        fingerprint = current
        generation += 1
    }

    /// What the view knows of one key.
    enum Lookup: Equatable {
        /// The key's stored value (nil: known to be absent).
        case known(PreferenceValue?)
        /// Not known: the file must be asked.
        case unknown
    }

    /// What the view knows of `key`, after revalidating against `current`.
    @inline(__always) mutating func lookUp(_ key: String, current: ChangeSignal.Fingerprint) -> Lookup {
        revalidate(current)
        if let value = values[key] { return .known(value) }
        return isComplete || absent.contains(key) ? .known(nil) : .unknown
    }

    /// Remembers `value` for `key`, read by a query that began in `generation`, unless the view was
    /// discarded since.
    mutating func remember(_ value: PreferenceValue?, forKey key: String, readIn generation: Int) {
        guard generation == self.generation else { return }
        set(value, forKey: key)
    }

    /// Remembers every stored value, read by a query that began in `generation`, unless the view was
    /// discarded since: the view is then complete, and shares `values`' storage.
    mutating func rememberAll(_ values: [String: PreferenceValue], readIn generation: Int) {
        guard generation == self.generation else { return }
        self.values = values
        absent.removeAll()
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
            values.removeAll()
            absent.removeAll()
            isComplete = true
        }
        for (key, value) in changes { set(value, forKey: key) }
        fingerprint = current
    }

    /// Records `value` for `key` (nil: known absent), keeping ``absent`` within ``absentLimit``.
    private mutating func set(_ value: PreferenceValue?, forKey key: String) {
        guard let value else {
            values.removeValue(forKey: key)
            // A complete view needs no absent key: a key not in it is absent.
            guard !isComplete else { return }
            if absent.count >= Self.absentLimit { absent.removeAll(keepingCapacity: true) }
            absent.insert(key)
            return
        }
        values[key] = value
        if !absent.isEmpty { absent.remove(key) }
    }
}
