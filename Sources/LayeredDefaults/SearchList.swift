import Synchronization

#if canImport(Darwin)
    import Darwin
#else
    import Glibc
#endif

/// The search list of one ``Defaults``: its seven layers in search order, the count of changes made
/// through the instance (which, with the stores' fingerprints, makes its ``ChangeStamp``), and the
/// instance's resolved answers (``ResolvedAnswers``); and the search itself.
///
/// The layers, first match wins: the managed domain, the argument domain, the persistent domain, the
/// suites, the global domain, the system domain, the registration domain (see <doc:SearchOrder>).
final class SearchList: Sendable {
    /// The instance's persistent domain.
    let persistent: DomainStore
    /// The managed domain: the suite's files under the system directories that existed when the instance
    /// was created, in search order; empty (the common case) when there are none.
    let managed: [DomainStore]
    /// Why a managed file that exists could not be opened, if one could not: every write then fails.
    let managedFailure: DefaultsError?
    /// The layers that can change after creation, and the stores searched.
    let layers: Lock<Layers>
    /// Whether the argument domain holds any key; stored while holding ``layers`` whenever the arguments
    /// change, so a hot read skips that lock when there are none.
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

    /// Held by the one thread that opens the global domain (see ``withLayers(_:)``).
    private let globalOpening = Lock(())
    private let registry: StoreRegistry
    private let suiteName: String
    private let errorHandler: @Sendable (DefaultsError) -> Void

    /// The layers of the search list that can change after creation, and the stores it searches.
    struct Layers {
        var arguments: [String: PreferenceValue]
        var registration: [String: PreferenceValue] = [:]
        /// Volatile domains set by name (Foundation's `setVolatileDomain(_:forName:)`): kept, never searched.
        var volatileDomains: [String: [String: PreferenceValue]] = [:]
        /// Searched suites, in search order.
        var suites: [DomainStore] { didSet { rebuildStores() } }
        /// The global domain, opened by the first call that searches past the persistent domain (see
        /// ``SearchList/withLayers(_:)``): nil until then.
        var global: DomainStore? = nil { didSet { rebuildStores() } }
        /// The system domain: the suite's files under the system directories, in search order.
        let system: [DomainStore]
        /// The persistent stores in search order: the persistent domain, the suites, the global domain
        /// (once opened), the system domain; rebuilt whenever one of those changes.
        private(set) var stores: [DomainStore] = []
        private let persistent: DomainStore

        init(persistent: DomainStore, arguments: [String: PreferenceValue], suites: [DomainStore], system: [DomainStore]) {
            self.persistent = persistent
            self.arguments = arguments
            self.suites = suites
            self.system = system
            rebuildStores()
        }

        /// Sets ``stores`` from the layers, ``persistent`` first, each store once.
        private mutating func rebuildStores() {
            var seen = Set<ObjectIdentifier>()
            stores = ([persistent] + suites + (global.map { [$0] } ?? []) + system).filter {
                seen.insert(ObjectIdentifier($0)).inserted
            }
        }
    }

    init(
        suiteName: String, configuration: Defaults.Configuration, registry: StoreRegistry, persistent: DomainStore,
        suites: [DomainStore]
    ) {
        self.suiteName = suiteName
        self.registry = registry
        self.persistent = persistent
        self.errorHandler = configuration.errorHandler
        let system = Defaults.systemLayers(of: suiteName, configuration: configuration, excluding: persistent)
        let layers = Layers(
            persistent: persistent, arguments: ArgumentDomain.parse(configuration.arguments), suites: suites,
            system: system.system)
        self.managed = system.managed
        self.managedFailure = system.managedFailure
        self.schema = ApplicableSchema(
            suiteName: suiteName, configured: configuration.schema, rootPath: registry.rootPath,
            systemDirectoryPaths: configuration.systemDirectoryPaths, report: configuration.errorHandler)
        self.hasArguments = Atomic(!layers.arguments.isEmpty)
        self.layers = Lock(layers)
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

    /// What `body` reads from the layers, under their lock, once the search list is complete: the first
    /// call opens the global domain (an instance whose reads all find their key in its own domain never
    /// pays for it). A global domain that cannot be opened is reported to the error handler once and
    /// searched as an empty domain that refuses writes.
    /// The stores the search list has open now: like ``withLayers(_:)``'s, but without the global domain
    /// while no search has opened it (and so never creating its file).
    var openStores: [DomainStore] { layers.withLock { $0.stores } }

    func withLayers<T>(_ body: (Layers) -> T) -> T {
        if let result = layers.withLock({ $0.global == nil ? nil : body($0) }) { return result }
        openGlobalDomain()
        return layers.withLock { body($0) }
    }

    /// Changes the layers with `body`, under their lock. The caller posts the change
    /// (``Defaults/postChange()``).
    func change<T>(_ body: (inout Layers) -> T) -> T {
        layers.withLock { layers in
            let result = body(&layers)
            hasArguments.store(!layers.arguments.isEmpty, ordering: .releasing)
            return result
        }
    }

    /// The stamp of every layer: the managed domain and every store searched.
    var stamp: ChangeStamp {
        let count = changeCount
        let stores = withLayers { $0.stores }
        return ChangeStamp(changes: count, stores: managed + stores)
    }

    /// The count of the changes through the instance (``changes``) and of the schemas it read: what a
    /// stamp holds. Both only grow, so their sum moves whenever either does.
    @inline(__always) var changeCount: Int { changes.load(ordering: .acquiring) &+ schema.generation }

    /// Records a change through the instance of `keys` (nil: of any key), after ``Defaults/postChange()``'s
    /// caller made it: a commit of its own (`commit`) to the persistent domain keeps the resolved answers
    /// of the other keys; anything else forgets them. Then counts the change.
    func recordChange<Keys: Sequence<String>>(of keys: Keys?, commit: DomainStore.Commit?) {
        resolved.withLock { answers in
            if let commit, commit.store === persistent {
                answers.apply(
                    commitTo: persistent, changing: keys, changes: changeCount, before: commit.before, after: commit.after,
                    isOnlyCommit: commit.isOnlyCommit)
            } else {
                answers.forgetAll()
            }
            // NB: counted while the answers' lock is held, so that no search stamps a state between the two.
            changes.add(1, ordering: .releasing)
        }
    }

    /// Puts the global domain in the search list, unless it is already: the one thread that does opens
    /// it, holding ``globalOpening`` (others wait for it), and never holds ``layers`` while opening.
    ///
    /// NB: a failure is reported once the global domain is in place and no lock is held: an error handler
    /// that reads this instance (a logger asking a "verbose" key) must not wait for its own caller.
    private func openGlobalDomain() {
        let failure: DefaultsError? = globalOpening.withLock { _ in
            guard layers.withLock({ $0.global == nil }) else { return nil }
            let global: DomainStore
            var failure: DefaultsError?
            do {
                global = try registry.store(named: Defaults.globalDomain)!
            } catch {
                failure = DefaultsError.wrapping(error, suite: Defaults.globalDomain)
                global = .inMemory(name: Defaults.globalDomain, unavailable: failure)
            }
            layers.withLock { layers in
                layers.global = global
            }
            // The stores searched changed: a stamp taken before does not cover the global domain.
            changes.add(1, ordering: .releasing)
            return failure
        }
        if let failure { report(failure) }
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
    /// Outside a transaction's body, a search of the instance's own rules (no `declared`) is answered by
    /// ``resolved`` while nothing changed since it was found: one look-up.
    @inline(__always)
    func search(
        _ key: String, declared: DeclaredEntry? = nil, schemaDefault: Bool = true, failed: (any Error) throws -> Void
    ) rethrows -> PreferenceValue? {
        // The hot path: one atomic load (no store lock held), the count, the answers' lock and one look-up.
        // Not from inside a transaction's body: there, the search must reach the stores, so that what a body
        // may read does not depend on what is remembered (another writable store refuses it).
        guard declared == nil, schemaDefault, !StoreLock.isAnyHeldByCurrentThread else {
            return try searchChecked(key, declared: declared?.entry, schemaDefault: schemaDefault, failed: failed)
        }
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
        // The stores searched now, without opening the global domain: a search that opens it counts a
        // change, and the stamp taken before it is stale.
        let basis =
            epoch.map(ResolvedAnswers.Basis.epoch)
            ?? .stamp(ChangeStamp(changes: count, stores: managed + layers.withLock { $0.stores }))
        var complete = true
        let found = try searchChecked(key, declared: nil, schemaDefault: true, remembered: true, failed: failed) {
            complete = false
        }
        if complete { resolved.withLock { $0.remember(found, forKey: key, under: basis) } }
        return found
    }

    /// ``search(_:declared:schemaDefault:failed:)`` through the layers; `skipped` runs for a domain that
    /// could not be read or a row that could not be decoded. `remembered`: the caller keeps the answer
    /// (in ``resolved``), so the stores' views do not keep what their queries found (see
    /// ``storedValue(_:in:asReadOnlyLayer:remembered:failed:skipped:)``).
    private func searchChecked(
        _ key: String, declared: PreferenceSchema.Entry?, schemaDefault: Bool, remembered: Bool = false,
        failed: (any Error) throws -> Void, skipped: () -> Void = {}
    ) rethrows -> PreferenceValue? {
        let schemaEntry = schema.forReading?.entry(named: key)
        guard let entry = schemaEntry ?? declared else {
            return try searchLayers(key, argumentType: nil, remembered: remembered, failed: failed, skipped: skipped)
        }
        // NB: a forced value reads as itself: the administrator's rule comes before any schema (a user's
        // own schema file must not undo it).
        if !managed.isEmpty, let forced = try managedValue(key, remembered: remembered, failed: failed, skipped: skipped) {
            return forced
        }
        if let found = try searchLayers(
            key, argumentType: entry.type, searchingManaged: false, remembered: remembered, failed: failed, skipped: skipped)
        {
            if entry.accepts(found) { return found }
            reportOnce(.storedValueNotAccepted(suite: suiteName, key: key, accepts: entry.acceptedPhrase), key: key)
        }
        return schemaDefault ? schemaEntry?.defaultValue : nil
    }

    /// The first value of `key` in the layers (the managed domain unless `searchingManaged` is false),
    /// the registration domain last; an argument read as `argumentType` when given (see
    /// ``PreferenceSchema/ValueType/value(ofArgument:)``).
    private func searchLayers(
        _ key: String, argumentType: PreferenceSchema.ValueType?, searchingManaged: Bool = true, remembered: Bool,
        failed: (any Error) throws -> Void, skipped: () -> Void
    ) rethrows -> PreferenceValue? {
        if searchingManaged, !managed.isEmpty,
            let forced = try managedValue(key, remembered: remembered, failed: failed, skipped: skipped)
        {
            return forced
        }
        if hasArguments.load(ordering: .acquiring), let argument = layers.withLock({ $0.arguments[key] }) {
            return argumentType.map { $0.value(ofArgument: argument) } ?? argument
        }
        if let value = try storedValue(key, in: persistent, remembered: remembered, failed: failed, skipped: skipped) {
            return value
        }
        let (stores, system, registered) = withLayers { ($0.stores, $0.system, $0.registration[key]) }
        for store in stores.dropFirst() {
            let isSystem = Self.contains(system, store)
            if let value = try storedValue(
                key, in: store, asReadOnlyLayer: isSystem, remembered: remembered, failed: failed, skipped: skipped)
            {
                return value
            }
        }
        return registered
    }

    /// True when `store` is one of `layer`'s (by identity): whether a store of the search is a read-only
    /// layer (the system domain), to be read from a body without waiting.
    private static func contains(_ layer: [DomainStore], _ store: DomainStore) -> Bool {
        !layer.isEmpty && layer.contains { $0 === store }
    }

    /// The value of `key` in the managed domain (the first of its files that holds it), or nil; `remembered`
    /// and `skipped` as for ``storedValue(_:in:asReadOnlyLayer:remembered:failed:skipped:)``.
    func managedValue(
        _ key: String, remembered: Bool = false, failed: (any Error) throws -> Void, skipped: () -> Void = {}
    ) rethrows
        -> PreferenceValue?
    {
        for store in managed {
            if let value = try storedValue(
                key, in: store, asReadOnlyLayer: true, remembered: remembered, failed: failed, skipped: skipped)
            {
                return value
            }
        }
        return nil
    }

    /// The value of `key` in `store`. A row that cannot be decoded reads as missing and is reported
    /// (it is left untouched); any other failure goes to `failed`. Either way `skipped` runs first.
    /// `asReadOnlyLayer` (the managed and system domains): from inside a transaction's body, read
    /// without waiting instead of refused (see ``DomainStore/FromAnotherTransaction``). `remembered`: the
    /// caller keeps the answer, so the store's view does not keep what a query found (one table of the
    /// values read, not two).
    func storedValue(
        _ key: String, in store: DomainStore, asReadOnlyLayer: Bool = false, remembered: Bool = false,
        failed: (any Error) throws -> Void, skipped: () -> Void = {}
    ) rethrows -> PreferenceValue? {
        do {
            return try store.value(
                forKey: key, fromAnotherTransaction: asReadOnlyLayer ? .answeredWithoutWaiting : .refused,
                keepingQueried: !remembered)
        } catch let error as DefaultsError where error.isUndecodableValue {
            skipped()
            report(error)
        } catch {
            skipped()
            try failed(error)
        }
        return nil
    }

    /// Every key of the search list with the value ``search(_:declared:schemaDefault:failed:)`` would find;
    /// `failed` as there: the schema's defaults for the keys no domain holds, and a value the schema
    /// refuses replaced by its default (reported once).
    func resolve(failed: (any Error) throws -> Void) rethrows -> [String: PreferenceValue] {
        let (arguments, stores, system, registration) = withLayers { ($0.arguments, $0.stores, $0.system, $0.registration) }
        let schema = self.schema.forReading
        var merged = registration
        for store in stores.reversed() {
            try merge(store, asReadOnlyLayer: Self.contains(system, store), into: &merged, failed: failed)
        }
        for (key, argument) in arguments {
            merged[key] = schema?.entry(named: key)?.type.map { $0.value(ofArgument: argument) } ?? argument
        }
        if let schema {
            for entry in schema.keys {
                if let found = merged[entry.name] {
                    if entry.accepts(found) { continue }
                    reportOnce(
                        .storedValueNotAccepted(suite: suiteName, key: entry.name, accepts: entry.acceptedPhrase), key: entry.name
                    )
                }
                merged[entry.name] = entry.defaultValue
            }
        }
        // NB: last, unchecked: a forced value reads as itself, whatever the schema says.
        for store in managed.reversed() { try merge(store, asReadOnlyLayer: true, into: &merged, failed: failed) }
        return merged
    }

    /// Merges the values of `store` into `merged`, above what it holds; see ``resolve(failed:)`` and, for
    /// `asReadOnlyLayer`, ``storedValue(_:in:asReadOnlyLayer:failed:skipped:)``.
    private func merge(
        _ store: DomainStore, asReadOnlyLayer: Bool, into merged: inout [String: PreferenceValue],
        failed: (any Error) throws -> Void
    ) rethrows {
        do {
            let (values, undecodable) = try store.allValues(
                fromAnotherTransaction: asReadOnlyLayer ? .answeredWithoutWaiting : .refused)
            undecodable.forEach(report)
            // The first domain that holds anything is taken whole: the result then shares the storage
            // of the store's view (copy-on-write) instead of copying a large domain key by key.
            if merged.isEmpty { merged = values } else { merged.merge(values) { _, new in new } }
        } catch {
            try failed(error)
        }
    }
}
