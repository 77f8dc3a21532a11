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
    /// The stores the stamp covers, with their fingerprints when it was taken.
    private(set) var stores: [(store: DomainStore, fingerprint: ChangeSignal.Fingerprint)]

    /// The stamp of `stores` now, with `changes` read before their fingerprints.
    init(changes: Int, stores: some Sequence<DomainStore>) {
        self.changes = changes
        self.stores = stores.map { ($0, $0.fingerprint) }
    }

    /// True when `changes` is still the count and no store committed since the stamp was taken.
    func isCurrent(changes current: Int) -> Bool {
        current == changes && stores.allSatisfy { $0.store.fingerprint == $0.fingerprint }
    }

    /// This stamp after a commit to `store` that took its fingerprint from `before` to `after` and the count
    /// from `changes` to `changes + 1`; nil when the stamp was not current then (another count, or
    /// another fingerprint of `store`).
    func advancing(
        changes: Int, store: DomainStore, from before: ChangeSignal.Fingerprint, to after: ChangeSignal.Fingerprint
    ) -> ChangeStamp? {
        guard self.changes == changes, let index = stores.firstIndex(where: { $0.store === store }),
            stores[index].fingerprint == before
        else { return nil }
        var advanced = self
        advanced.changes = changes + 1
        advanced.stores[index].fingerprint = after
        return advanced
    }

    static func == (a: ChangeStamp, b: ChangeStamp) -> Bool {
        a.changes == b.changes && a.stores.count == b.stores.count
            && zip(a.stores, b.stores).allSatisfy { $0.store === $1.store && $0.fingerprint == $1.fingerprint }
    }
}
