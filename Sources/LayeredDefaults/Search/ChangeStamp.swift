/// What the values a search finds depend on, taken at one moment: the count of changes made through the
/// instance (``SearchList/changes``: a registration, the arguments, the suites, the global domain's
/// opening, a write) and the fingerprint of each store searched. Nothing a read could see has changed
/// while the stamp is current.
///
/// The one stamp of the package: the resolved answers (``ResolvedAnswers``) are valid for one, an
/// observation re-reads when the stamp of every layer moved.
struct ChangeStamp: Equatable {
    /// ``SearchList/changes`` when the stamp was taken.
    private(set) var changes: Int
    /// The stores the stamp covers, in search order.
    private let stores: [DomainStore]
    /// How many of ``stores`` come before the global domain's: all that an answer found in the managed,
    /// argument or persistent domain or a suite depends on (see ``isCurrent(changes:deep:)``).
    private let shallowCount: Int
    /// Their fingerprints when it was taken, in the same order.
    private var fingerprints: [ChangeSignal.Fingerprint]

    /// The stamp of `stores` now, with `changes` read before their fingerprints; the first `shallowCount`
    /// (all when nil) are those before the global domain's.
    init(changes: Int, stores: some Sequence<DomainStore>, shallowCount: Int? = nil) {
        self.changes = changes
        self.stores = Array(stores)
        self.shallowCount = shallowCount ?? self.stores.count
        self.fingerprints = self.stores.map(\.fingerprint)
    }

    /// True when `changes` is still the count and no store committed since the stamp was taken.
    ///
    /// Every read outside a transaction asks it: two arrays side by side, indexed, so that no element
    /// is copied out (a tuple of a store and its fingerprint was, with a retain, at each read).
    @inline(__always) func isCurrent(changes current: Int) -> Bool { isCurrent(changes: current, deep: true) }

    /// ``isCurrent(changes:)`` for an answer that depends on the stores before the global domain's alone
    /// (`deep` false: found in the managed, argument or persistent domain or a suite), or on them all: a
    /// global domain without a file, whose stand-in asks the file system (one `lstat`), is asked only by
    /// the answers found past it.
    @inline(__always) func isCurrent(changes current: Int, deep: Bool) -> Bool {
        guard current == changes else { return false }
        for index in 0..<(deep ? stores.count : shallowCount) where stores[index].fingerprint != fingerprints[index] {
            return false
        }
        return true
    }

    /// Makes this the stamp after a commit to the store of identity `store` that took its fingerprint
    /// from `before` to `after` and the count from `changes` to `changes + 1`, when it was current then
    /// (that count, and that fingerprint of `store`); returns false, changing nothing, otherwise.
    mutating func advance(
        changes: Int, store: ObjectIdentifier, from before: ChangeSignal.Fingerprint, to after: ChangeSignal.Fingerprint
    ) -> Bool {
        guard self.changes == changes, let index = stores.firstIndex(where: { ObjectIdentifier($0) == store }),
            fingerprints[index] == before
        else { return false }
        self.changes = changes + 1
        fingerprints[index] = after
        return true
    }

    static func == (a: ChangeStamp, b: ChangeStamp) -> Bool {
        a.changes == b.changes && a.shallowCount == b.shallowCount && a.fingerprints == b.fingerprints
            && a.stores.count == b.stores.count
            && zip(a.stores, b.stores).allSatisfy { $0 === $1 }
    }
}
