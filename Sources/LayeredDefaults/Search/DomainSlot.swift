import Synchronization

/// A domain of the search list: its store, opened when first needed.
///
/// The persistent domain and the suites are opened with the instance; the global domain by the first
/// search that gets past them (an instance whose reads all find their key in its own domain never pays
/// for it); the managed and system domains hold only the files that existed when the instance was made.
final class DomainSlot: Sendable {
    /// The domain's name.
    let name: String
    /// The domain's file, or nil in memory.
    let path: String?
    /// Opens the store: called by at most one thread at a time, until it succeeds.
    private let open: @Sendable () throws -> DomainStore
    /// Called once the store opened is in place, no lock held: the search list counts the change (a stamp
    /// taken before does not cover the new store).
    private let didOpen: @Sendable () -> Void
    private let opened = AtomicLazyReference<DomainStore>()
    /// Held by the one thread opening the store: others wait for it.
    private let opening = Lock(())

    /// A slot of a store already open.
    init(_ store: DomainStore) {
        name = store.name
        path = store.path
        open = { store }
        didOpen = {}
        _ = opened.storeIfNil(store)
    }

    /// A slot of `name` that `open` opens when first needed; `didOpen` runs after.
    init(
        name: String, path: String?, open: @escaping @Sendable () throws -> DomainStore,
        didOpen: @escaping @Sendable () -> Void
    ) {
        self.name = name
        self.path = path
        self.open = open
        self.didOpen = didOpen
    }

    /// The store, when it is open: nothing is opened to answer.
    var openStore: DomainStore? { opened.load() }

    /// The store, opened now when it is not yet (`openedNow` is then true).
    /// - Throws: what opening throws; the next call tries again.
    func store() throws -> DomainStore? {
        if let store = opened.load() { return store }
        let (store, openedNow) = try opening.withLock { _ in
            if let store = opened.load() { return (store, false) }
            return (opened.storeIfNil(try open()), true)
        }
        if openedNow { didOpen() }
        return store
    }
}
