import Synchronization

/// One domain of a ``Defaults`` instance: its name, its file, and its store once the file exists.
///
/// A domain's file is made by its first commit, never by opening, observing, searching, reading,
/// listing or explaining: while there is none, the domain reads as empty, and each search looks whether
/// another process made it since (one `lstat`), so its first commit is seen at once. A write to a domain
/// without a file runs first on an empty domain in memory, under the same rules: a change they refuse,
/// or one that leaves the domain empty, makes nothing (see ``writeTransaction(key:rules:committed:asOneStatement:_:)``).
final class DomainSlot: Sendable {
    /// The domain's name.
    let name: String
    /// The domain's file, or nil in memory: worked out when first asked (a real path, which costs an open).
    var path: String? {
        if let path = (opened.load() ?? absent.load())?.path { return path }
        return registry?.filePath(of: name)
    }
    /// Where the domain lives; nil for a slot of a store given open.
    private let registry: StoreRegistry?
    /// What the writes through this slot add to the domain's rules (the history and sync device of the
    /// instance whose own domain it is, or a restore's history); unset when they add nothing.
    private let policy = SetOnce<WritePolicy>()
    /// True for the global domain: a file that cannot be opened is reported once and searched as an empty
    /// domain that refuses writes, rather than failing every search.
    private let substitutesFailure: Bool
    /// Called once the stores searched changed (the store opened, or the stand-in of a missing file made),
    /// no lock held, with the error a substituted failure hides: the search list counts the change.
    private let didChange: @Sendable (DefaultsError?) -> Void
    private let opened = SetOnce<DomainStore>()
    /// The stand-in of a file that did not exist when the domain was last looked for: its fingerprint
    /// moves once the file is there (see ``ChangeSignal``), so a stamp that covers it goes stale.
    private let absent = SetOnce<DomainStore>()
    /// Held by the one thread opening the store: others wait for it. It guards the slot's other state
    /// too (one lock to make and free with every instance, not three).
    private let opening = Lock(Guarded())

    /// What ``opening`` guards.
    private struct Guarded {
        /// The error a substituted store hides (see ``substitutesFailure``).
        var substituted: DefaultsError?
        /// The domains in memory that first commits are running their bodies on (see
        /// ``writeTransaction(key:rules:committed:asOneStatement:_:)``): a read from inside such a body sees it.
        var scratches: [DomainStore] = []
    }

    /// Why the domain is searched as empty: its file could not be opened (see ``substitutesFailure``).
    var substitutedFailure: DefaultsError? { opening.withLock { $0.substituted } }

    /// A slot of a store already open.
    init(_ store: DomainStore) {
        name = store.name
        registry = nil
        substitutesFailure = false
        didChange = { _ in }
        _ = opened.storeIfNil(store)
    }

    /// A slot of the domain `name` in `registry`; nothing is opened until ``store()`` is asked.
    init(
        name: String, registry: StoreRegistry, substitutesFailure: Bool = false, policy: WritePolicy? = nil,
        didChange: @escaping @Sendable (DefaultsError?) -> Void = { _ in }
    ) {
        self.name = name
        self.registry = registry
        if let policy { _ = self.policy.storeIfNil(policy) }
        self.substitutesFailure = substitutesFailure
        self.didChange = didChange
    }

    /// What a stamp covers and observation watches now: the store, or the stand-in of its missing file;
    /// nil while the domain was never looked for. Nothing is opened to answer.
    var watchedStore: DomainStore? { opened.load() ?? absent.load() }

    /// True when `store` is ``watchedStore``'s identity; asked at every commit, retaining nothing.
    func isWatching(_ store: ObjectIdentifier) -> Bool {
        opened.holds(store) || opened.isEmpty && absent.holds(store)
    }

    /// The store, opened now when its file exists; nil when the domain has no file (nothing is created).
    /// - Throws: what opening throws (a corrupt, foreign or unsafe file); the next call tries again.
    func store() throws -> DomainStore? {
        if let store = opened.load() { return store }
        var changed = false
        var hidden: DefaultsError?
        let store: DomainStore? = try opening.withLock { guarded in
            if let scratch = guarded.scratches.first(where: \.isLockedByCurrentThread) { return scratch }
            guard let registry else { return nil }
            if let store = opened.load() { return store }
            let found: DomainStore?
            do {
                // In memory there is no file to make: the store is made when first asked.
                found = try registry.store(named: name, create: registry.rootPath == nil)
            } catch  where substitutesFailure {
                let failure = DefaultsError.wrapping(error, suite: name)
                hidden = failure
                guarded.substituted = failure
                found = .inMemory(name: name, unavailable: failure)
            }
            if let found {
                changed = true
                return opened.storeIfNil(found)
            }
            if absent.load() == nil, let path = registry.filePath(of: name) {
                changed = true
                _ = absent.storeIfNil(.absent(name: name, path: path))
            }
            return nil
        }
        if changed { didChange(hidden) }
        return store
    }

    /// `body` of ``store()``, the store borrowed once it is open (not retained: the slot keeps it), or
    /// `withoutFile` when the domain has no file.
    /// - Throws: what ``store()`` throws, and what the closure run throws.
    @inline(__always)
    func withStore<T>(_ body: (DomainStore) throws -> T, withoutFile: () throws -> T) throws -> T {
        try opened.withLoaded(body) {
            guard let store = try store() else { return try withoutFile() }
            return try body(store)
        }
    }

    /// Sets what the writes through this slot add to the domain's rules, once, before the first write: an
    /// instance's own domain learns its sync device after its file was looked for.
    func adopt(_ policy: WritePolicy) {
        _ = self.policy.storeIfNil(policy)
    }

    /// The store, its file made now when missing: for a first commit, and for tests that reach the store's
    /// connection.
    func madeStore() throws -> DomainStore {
        if let store = opened.load() { return store }
        let store = try opening.withLock { _ in
            try opened.load() ?? opened.storeIfNil(registry!.store(named: name, create: true)!)
        }
        didChange(nil)
        return store
    }

    /// Runs `body` in one write transaction on the domain (see ``DomainStore/writeTransaction(key:rules:policy:committed:asOneStatement:_:)``),
    /// making its file first when it has none and the body leaves something in it.
    ///
    /// Without a file, `body` runs on an empty domain in memory under `rules`: what it throws is thrown
    /// and nothing is made; a domain it leaves empty is not made either. Otherwise the file is made and,
    /// in one transaction, given what the body left (its rows and migration records), the rules checked
    /// again. Should another process have committed to the new file first, `body` runs again, on that
    /// commit: a body is a function of what it reads.
    func writeTransaction<T>(
        key: String? = nil, rules: WriteRules, committed: (DomainStore.Commit) -> Void = { _ in },
        asOneStatement: Bool = false, _ body: (inout DomainTransaction) throws -> T
    ) throws -> T {
        let policy = policy.load()
        let written: T? = try withStore { store in
            try store.writeTransaction(
                key: key, rules: rules, policy: policy, committed: committed, asOneStatement: asOneStatement, body)
        } withoutFile: {
            nil
        }
        if let written { return written }
        let scratch = DomainStore.inMemory(name: name)
        opening.withLock { $0.scratches.append(scratch) }
        let result: T
        do {
            defer { opening.withLock { $0.scratches.removeAll { $0 === scratch } } }
            result = try scratch.writeTransaction(
                key: key, rules: rules, policy: policy, asOneStatement: asOneStatement, body)
        }
        let (values, migrations, clocks) = try scratch.reading { table in
            (try table.allValues().values, try table.migrationNames(), try table.syncedChanges())
        }
        guard !values.isEmpty || !migrations.isEmpty, registry != nil else { return result }
        // The history the body recorded (or a restore brought) comes along as it is, and covers the keys
        // the replay writes: they are not recorded again. (One look at the scratch's tables, at a domain's
        // first commit only.)
        let entries = try scratch.reading { try $0.allHistory() }
        let store = try madeStore()
        return try store.writeTransaction(key: key, rules: rules, policy: policy, committed: committed) { transaction in
            guard try transaction.isEmpty else { return try body(&transaction) }
            if !entries.isEmpty { try transaction.adoptHistory(entries, covering: values.keys) }
            for (key, value) in values.sorted(by: { $0.key < $1.key }) {
                // A synced change keeps the clock the body gave it (a merged one its device's).
                transaction.arrivingClock = clocks[StoredKey.form(of: key)]?.clock
                try transaction.write(value, forKey: key)
            }
            transaction.arrivingClock = nil
            if !migrations.isEmpty { try transaction.replaceMigrationRecords(with: migrations) }
            return result
        }
    }
}
