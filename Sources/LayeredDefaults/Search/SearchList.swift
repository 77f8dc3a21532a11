import Synchronization

#if canImport(Darwin)
    import Darwin
#else
    import Glibc
#endif

/// The search list of one ``Defaults``: its layers in search order (``SearchLayer``, one shape), the
/// count of changes made through the instance (which, with the stores' fingerprints, makes its
/// ``ChangeStamp``), and the instance's resolved answers (``ResolvedAnswers``); and the search itself.
///
/// The layers, first match wins: the managed domain (its databases, then its drop-in folders), the
/// argument domain, the persistent domain, the suites, the global domain, the system domain (the same),
/// the registration domain, the schema's defaults (see <doc:SearchOrder>). The search, the merged view, the stamp and what observation watches are one loop
/// over them each.
final class SearchList: Sendable {
    /// The instance's persistent domain.
    let persistent: DomainSlot
    /// The managed domain: the suite's files under the system directories that existed when the instance
    /// was created, in search order; empty (the common case) when there are none.
    let managed: [DomainStore]
    /// Why a managed file that exists could not be opened, if one could not: every write then fails.
    let managedFailure: DefaultsError?
    /// The managed domain's drop-in folders that existed when the instance was created, in search order;
    /// empty (the common case) when there are none (see <doc:DropIns>).
    let managedDropIns: [DropInFolder]
    /// True when the managed layer forces no key and cannot fail (no file, no drop-in folder, no failure):
    /// the common case, whose writes then copy none of the three.
    let forcesNothing: Bool
    /// The layers, some of which can change after creation.
    let layers: Lock<Layers>
    /// Whether the argument domain holds any key; stored while holding ``layers`` whenever the arguments
    /// change, so a typed key's read can tell cheaply that no argument may need its type.
    let hasArguments: Atomic<Bool>
    /// Counts the changes made through the instance and the global domain's opening, incremented after
    /// each (see ``Defaults/postChange()``): the count of every ``ChangeStamp``.
    let changes = Atomic<Int>(0)
    /// What the instance's searches found, valid for one stamp of every layer.
    let resolved = Lock(ResolvedAnswers())
    /// The schema of the persistent domain: its defaults are the last layer, and a value it refuses
    /// reads as its default.
    let schema: ApplicableSchema
    /// The keys whose value could not be used and was reported (see ``reportOnce(_:key:)``).
    private let reportedKeys = Lock<Set<String>>([])

    private let suiteName: String
    private let errorHandler: @Sendable (DefaultsError) -> Void

    /// The layers of the search list, the ones that can change after creation kept apart.
    struct Layers {
        var arguments: [String: PreferenceValue] { didSet { rebuild() } }
        var registration: [String: PreferenceValue] = [:] { didSet { rebuild() } }
        /// Volatile domains set by name (Foundation's `setVolatileDomain(_:forName:)`): kept, never searched.
        var volatileDomains: [String: [String: PreferenceValue]] = [:]
        /// Searched suites, in search order.
        var suites: [DomainSlot] { didSet { rebuild() } }
        /// The layers in search order; rebuilt whenever one of those above changes.
        private(set) var list: [any SearchLayer] = []
        /// The layers of ``list`` a search asks: those that can hold a value (see ``SearchLayer/isEmpty``).
        private(set) var searched: [any SearchLayer] = []
        /// The global domain: set once, right after the search list is made (its slot reports to it).
        var global: StoreLayer? = nil { didSet { rebuild() } }
        private let managed: StoreLayer, persistent: StoreLayer, system: StoreLayer
        /// The drop-in layers right after the managed and the system databases; nil without folders.
        private let managedDropIns: DropInLayer?, systemDropIns: DropInLayer?
        private let schemaDefault: SchemaDefaultLayer

        init(
            system layers: Defaults.SystemLayers, arguments: [String: PreferenceValue], persistent: DomainSlot,
            suites: [DomainSlot], schema: ApplicableSchema
        ) {
            self.managed = StoreLayer(
                layer: .managed, domains: layers.managed.map(DomainSlot.init), isReadOnly: true,
                failures: layers.managedFailures)
            self.arguments = arguments
            self.persistent = StoreLayer(layer: .persistent, domains: [persistent], isReadOnly: false)
            self.suites = suites
            self.system = StoreLayer(
                layer: .system, domains: layers.system.map(DomainSlot.init), isReadOnly: true, failures: layers.systemFailures)
            self.schemaDefault = SchemaDefaultLayer(schema: schema)
            self.managedDropIns =
                layers.managedDropIns.isEmpty ? nil : DropInLayer(layer: .managed, folders: layers.managedDropIns, schema: schema)
            self.systemDropIns =
                layers.systemDropIns.isEmpty ? nil : DropInLayer(layer: .system, folders: layers.systemDropIns, schema: schema)
            // NB: ``list`` is made once, when the global domain is set right after (its `didSet`).
        }

        /// Sets ``list`` from the layers. A suite that is the persistent domain or the global domain is
        /// left out: each domain is searched once, at its first place.
        private mutating func rebuild() {
            // One array, made at its size: opening a domain builds it.
            var list: [any SearchLayer] = []
            list.reserveCapacity(9 + suites.count)
            list.append(managed)
            if let managedDropIns { list.append(managedDropIns) }
            list.append(ValuesLayer.of(.arguments, arguments))
            list.append(persistent)
            if !suites.isEmpty {
                var seen: Set<String> = [persistent.domains[0].name, Defaults.globalDomain]
                for suite in suites where seen.insert(suite.name).inserted {
                    list.append(StoreLayer(layer: .suite(suite.name), domains: [suite], isReadOnly: false))
                }
            }
            if let global { list.append(global) }
            list.append(system)
            if let systemDropIns { list.append(systemDropIns) }
            list.append(ValuesLayer.of(.registration, registration))
            list.append(schemaDefault)
            self.list = list
            var searched: [any SearchLayer] = []
            searched.reserveCapacity(list.count)
            for layer in list where !layer.isEmpty { searched.append(layer) }
            self.searched = searched
        }
    }

    init(
        suiteName: String, configuration: Defaults.Configuration, registry: StoreRegistry, persistent: DomainSlot,
        suites: [DomainSlot]
    ) {
        self.suiteName = suiteName
        self.persistent = persistent
        self.errorHandler = configuration.errorHandler
        let system = Defaults.systemLayers(
            of: suiteName, configuration: configuration, excluding: persistent.watchedStore, root: registry.rootPath)
        self.managed = system.managed
        self.managedFailure = system.managedFailure
        self.managedDropIns = system.managedDropIns
        self.forcesNothing = system.managed.isEmpty && system.managedFailure == nil && system.managedDropIns.isEmpty
        let schema = ApplicableSchema(
            suiteName: suiteName, configuration: configuration, configured: configuration.schema, rootPath: registry.rootPath)
        self.schema = schema
        let arguments = ArgumentDomain.parse(configuration.arguments)
        self.hasArguments = Atomic(!arguments.isEmpty)
        self.layers = Lock(
            Layers(
                system: system, arguments: arguments, persistent: persistent, suites: suites, schema: schema))
        // The global domain is opened by the first search that gets past the domains above it; one that
        // cannot be opened is reported once and searched as an empty domain that refuses writes.
        // NB: unowned, not weak: the slot lives in this list's layers and is asked only through its
        // searches, so never after it; and a weak reference gives the list a side table, which every retain
        // and release of it then goes through, and which opening made and closing freed.
        let global = DomainSlot(name: Defaults.globalDomain, registry: registry, substitutesFailure: true) {
            [unowned self] hidden in
            // The stores searched changed: a stamp taken before does not cover the global domain.
            changes.add(1, ordering: .releasing)
            if let hidden { report(hidden) }
        }
        layers.withLock { $0.global = StoreLayer(layer: .global, domains: [global], isReadOnly: false) }
    }

    /// Sends `error` to the configuration's error handler, as an error of this suite; nothing when the
    /// calling thread is inside an error handler already.
    ///
    /// NB: a handler that reads (a logger asking a "verbose" key) may meet an error in turn, and that
    /// error reported would call the handler again, without end: inside a transaction's body every read
    /// that falls through to another writable suite is refused. So the handler's own errors are dropped.
    func report(_ error: any Error) {
        guard pthread_getspecific(Self.reporting) == nil else { return }
        pthread_setspecific(Self.reporting, UnsafeRawPointer(bitPattern: 1))
        defer { pthread_setspecific(Self.reporting, nil) }
        errorHandler(DefaultsError.wrapping(error, suite: suiteName))
    }

    /// Sends `error` about `key` to the error handler the first time this instance meets a value of that
    /// key name it cannot use, never again: a value read on every frame must not flood the handler.
    func reportOnce(_ error: DefaultsError, key: String) {
        if reportedKeys.withLock({ $0.insert(key).inserted }) { report(error) }
    }

    /// Set while the calling thread runs an error handler (see ``report(_:)``).
    private static let reporting: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    // MARK: The layers

    /// The layers in search order, as they are now.
    var list: [any SearchLayer] { layers.withLock { $0.list } }

    /// The layers a search asks, in search order: ``list`` without those that hold nothing (an empty
    /// argument or registration domain, a managed or system layer without files), whose answers it would
    /// pass over anyway, each a call and an answer made and destroyed.
    var searched: [any SearchLayer] { layers.withLock { $0.searched } }

    /// The stores the search list has open now, in search order: what a stamp covers and observation
    /// watches. Nothing is opened to answer (so no file is created).
    var watchedStores: [DomainStore] { list.flatMap(\.watchedStores) }

    /// Changes the layers with `body`, under their lock. The caller posts the change
    /// (``Defaults/postChange()``).
    func change<T>(_ body: (inout Layers) -> T) -> T {
        layers.withLock { layers in
            let result = body(&layers)
            hasArguments.store(!layers.arguments.isEmpty, ordering: .releasing)
            return result
        }
    }

    /// The stamp of every store open now.
    var stamp: ChangeStamp {
        let count = changeCount
        return currentStamp(changes: count)
    }

    /// The stamp of the stores read so far, with `changes` (read before their fingerprints), those before
    /// the global domain's counted apart (see ``ChangeStamp/isCurrent(changes:deep:)``).
    private func currentStamp(changes count: Int) -> ChangeStamp {
        // One pass: the first read after opening takes it.
        var stores: [DomainStore] = []
        var shallow: Int?
        for layer in list {
            if shallow == nil, case .global = layer.layer { shallow = stores.count }
            let watched = layer.watchedStores
            if stores.isEmpty { stores = watched } else if !watched.isEmpty { stores += watched }
        }
        return ChangeStamp(changes: count, stores: stores, shallowCount: shallow ?? stores.count)
    }

    /// The count of the changes through the instance (``changes``) and of the schemas it read: what a
    /// stamp holds. Both only grow, so their sum moves whenever either does.
    @inline(__always) var changeCount: Int { changes.load(ordering: .acquiring) &+ schema.generation }

    /// Records a change through the instance of `keys` (nil: of any key), after ``Defaults/postChange()``'s
    /// caller made it: a commit of its own (`commit`) to the persistent domain keeps the resolved answers
    /// of the other keys; anything else forgets them. Then counts the change.
    func recordChange<Keys: Sequence<String>>(of keys: Keys?, commit: DomainStore.Commit?) {
        // The commit's parts go under the lock, not the commit: each copy of it retained its store, through
        // the store's side table (it is weakly referenced), and the closure made two.
        let own: (store: ObjectIdentifier, before: ChangeSignal.Fingerprint, after: ChangeSignal.Fingerprint, isOnly: Bool)? =
            if let commit, persistent.isWatching(ObjectIdentifier(commit.store)) {
                (ObjectIdentifier(commit.store), commit.before, commit.after, commit.isOnlyCommit)
            } else {
                nil
            }
        resolved.withLock { answers in
            if let own {
                answers.apply(
                    commitTo: own.store, changing: keys, changes: changeCount, before: own.before, after: own.after,
                    isOnlyCommit: own.isOnly)
            } else {
                answers.forgetAll()
            }
            // NB: counted while the answers' lock is held, so that no search stamps a state between the two.
            changes.add(1, ordering: .releasing)
        }
    }

    // MARK: Searching

    /// The search for `key`; `failed` decides what a domain that cannot be read does: throw (the
    /// throwing API), or report it and search on (the API that does not throw).
    ///
    /// The key's entry in the domain's schema, else `declared` (a typed key's own), decides what a value
    /// found may be: one it refuses reads as the schema's default (reported once); an argument, which is
    /// text, is read as the entry's type first. When no domain holds the key, the schema's default is the
    /// last layer (unless `schemaDefault` is false: then nil).
    ///
    /// Outside a transaction's body, a search is answered by ``resolved`` while nothing changed since it
    /// was found: one look-up. A typed key's own entry (`declared`) is applied to that answer where the
    /// answer cannot depend on it (no argument to type, no forced value to leave unchecked).
    @inline(__always)
    func search(
        _ key: String, declared: DeclaredEntry? = nil, schemaDefault: Bool = true, failed: (any Error) throws -> Void
    ) rethrows -> PreferenceValue? {
        // The hot path: one atomic load (no store lock held), the count, the answers' lock and one look-up.
        // Not from inside a transaction's body: there, the search must reach the stores, so that what a body
        // may read does not depend on what is remembered (another writable store refuses it).
        guard schemaDefault, !StoreLock.isAnyHeldByCurrentThread else {
            return try searchChecked(key, declared: declared, schemaDefault: schemaDefault, failed: failed)
        }
        guard let declared else { return try resolvedSearch(key, failed: failed) }
        return try declaredSearch(key, declared: declared, failed: failed)
    }

    /// ``search(_:declared:schemaDefault:failed:)`` of a key with an entry of its own: through the resolved
    /// answers when the schema declares the key (its entry wins), or when no argument and no forced value
    /// can make the answer depend on `declared` (then checked against it); else through the layers.
    @inline(never)
    private func declaredSearch(
        _ key: String, declared: DeclaredEntry, failed: (any Error) throws -> Void
    ) rethrows -> PreferenceValue? {
        if schema.forReading?.entry(named: key) != nil { return try resolvedSearch(key, failed: failed) }
        guard managed.isEmpty, managedDropIns.isEmpty, !hasArguments.load(ordering: .acquiring) else {
            return try searchChecked(key, declared: declared, schemaDefault: true, failed: failed)
        }
        let found = try resolvedSearch(key, failed: failed)
        if let found, !declared.entry.accepts(found) {
            reportOnce(.storedValueNotAccepted(suite: suiteName, key: key, accepts: declared.entry.acceptedPhrase), key: key)
            return nil
        }
        return found
    }

    /// The search of the instance's own rules, answered by ``resolved`` while nothing changed.
    @inline(__always)
    private func resolvedSearch(_ key: String, failed: (any Error) throws -> Void) rethrows -> PreferenceValue? {
        let count = changeCount
        switch resolved.withLock({ $0.answer(forKey: key, changes: count) }) {
        case .answered(let answer): return answer
        case .unanswered(let epoch): return try searchRemembering(key, changes: count, epoch: epoch, failed: failed)
        }
    }

    /// The search of ``search(_:declared:schemaDefault:failed:)``, remembered in ``resolved`` under the
    /// stamp current before it began unless it skipped a domain it could not read or a row it could not
    /// decode (the next read then tries, and reports, again): the answers' own stamp when it is current
    /// (`epoch` is theirs then, see ``ResolvedAnswers/Basis/epoch(_:)``), else one taken now of
    /// `changes` and the layers' fingerprints.
    @inline(never)
    private func searchRemembering(
        _ key: String, changes count: Int, epoch: Int?, failed: (any Error) throws -> Void
    ) rethrows
        -> PreferenceValue?
    {
        // The stores open now: a search that opens another (the global domain) counts a change, and the
        // stamp taken before it is stale.
        let basis = epoch.map(ResolvedAnswers.Basis.epoch) ?? .stamp(currentStamp(changes: count))
        var complete = true
        var deep = true
        let found = try searchChecked(key, declared: nil, schemaDefault: true, remembered: true, deep: &deep, failed: failed) {
            complete = false
        }
        if complete { resolved.withLock { $0.remember(found, forKey: key, deep: deep, under: basis) } }
        return found
    }

    /// ``search(_:declared:schemaDefault:failed:)`` through the layers, one loop; `skipped` runs for a
    /// domain that could not be read or a row that could not be decoded. `remembered`: the caller keeps
    /// the answer (in ``resolved``), so the stores' views do not keep what their queries found. `deep`
    /// is set to whether the answer came from past the suites (the global domain and below).
    /// `persistentRow`, when given, stands for the persistent domain's row of the key (nil: none): a
    /// draft's read of a key it edited (see ``DefaultsDraft``).
    ///
    /// Never inlined: the hot read (``search(_:declared:schemaDefault:failed:)``) calls it only on its
    /// slow paths, and the layer loop inlined there cost every read its registers and a stack guard.
    @inline(never)
    func searchChecked(
        _ key: String, declared: DeclaredEntry?, schemaDefault: Bool, remembered: Bool = false,
        persistentRow: PreferenceValue?? = nil, deep: UnsafeMutablePointer<Bool>? = nil,
        failed: (any Error) throws -> Void, skipped: () -> Void = {}
    ) rethrows -> PreferenceValue? {
        let schemaEntry = schema.forReading?.entry(named: key)
        // `declared` by reference: an entry as a parameter was copied field by field at every search.
        let entry = schemaEntry ?? declared?.entry
        // Taken once: `entry?.type` in the loop copied the whole entry at each layer.
        let type = entry?.type
        for layer in searched where schemaDefault || layer.layer != .schemaDefault {
            let answer =
                if let row = persistentRow, layer.layer == .persistent {
                    row.map { LayerAnswer.found($0, origin: nil) } ?? .missing(origin: nil, noFile: false)
                } else {
                    layer.answer(forKey: key, as: type, remembered: remembered)
                }
            switch answer {
            case .found(let value, _):
                switch layer.layer {
                case .managed, .arguments, .persistent, .suite: deep?.pointee = false
                default: deep?.pointee = true
                }
                // NB: a forced value reads as itself: the administrator's rule comes before any schema (a
                // user's own schema file must not undo it).
                guard let entry, !layer.forces, !entry.accepts(value) else { return value }
                reportOnce(.storedValueNotAccepted(suite: suiteName, key: key, accepts: entry.acceptedPhrase), key: key)
                return schemaDefault ? schemaEntry?.defaultValue : nil
            case .missing:
                continue
            case .failed(let error, _, let undecodable):
                skipped()
                if undecodable { report(error) } else { try failed(error) }
            }
        }
        return nil
    }

    /// The value of `key` in the managed domain (the first of its files that holds it, then of its
    /// drop-in folders), or nil.
    func managedValue(_ key: String, failed: (any Error) throws -> Void) rethrows -> PreferenceValue? {
        for store in managed {
            if let value = try storedValue(key, in: store, isReadOnly: true, failed: failed) { return value }
        }
        guard !managedDropIns.isEmpty else { return nil }
        let schema = schema.forReading
        return managedDropIns.lazy.compactMap { $0.reading(schema: schema).settings[key]?.value }.first
    }

    /// The value of `key` in `store` alone (the persistent domain's own value): an undecodable row is
    /// reported and reads as missing; `failed` as for a search.
    func storedValue(
        _ key: String, in store: DomainStore, isReadOnly: Bool = false, failed: (any Error) throws -> Void
    ) rethrows -> PreferenceValue? {
        switch StoreLayer.answer(forKey: key, in: store, isReadOnly: isReadOnly, remembered: false) {
        case .found(let value, _): return value
        case .missing: return nil
        case .failed(let error, _, let undecodable):
            if undecodable { report(error) } else { try failed(error) }
            return nil
        }
    }

    /// Every key of the search list with the value ``search(_:declared:schemaDefault:failed:)`` would find;
    /// `failed` as there: the schema's defaults for the keys no domain holds, and a value the schema
    /// refuses replaced by its default (reported once). The layers laid over one another, the last first.
    func resolve(failed: (any Error) throws -> Void) rethrows -> [String: PreferenceValue] {
        let schema = self.schema.forReading
        var merged: [String: PreferenceValue] = [:]
        var checked = false
        for layer in list.reversed() {
            // NB: a forced value reads as itself, whatever the schema says: checked before it is laid over.
            if layer.forces, !checked {
                check(&merged, against: schema)
                checked = true
            }
            let found = layer.values(typedBy: schema)
            found.undecodable.forEach(report)
            if let failure = found.failure { try failed(failure) }
            merged.lay(found.values)
        }
        if !checked { check(&merged, against: schema) }
        return merged
    }

    /// Replaces each value of `merged` that `schema` refuses with the key's default (reported once).
    private func check(_ merged: inout [String: PreferenceValue], against schema: PreferenceSchema?) {
        for entry in schema?.keys ?? [] {
            guard let found = merged[entry.name], !entry.accepts(found) else { continue }
            reportOnce(.storedValueNotAccepted(suite: suiteName, key: entry.name, accepts: entry.acceptedPhrase), key: entry.name)
            merged[entry.name] = entry.defaultValue
        }
    }
}
