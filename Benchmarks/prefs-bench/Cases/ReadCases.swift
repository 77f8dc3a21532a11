/// Work items 1-3: reads from memory.
///
/// Each read loop cycles through ``Workload/poolSize`` random keys of the domain (the same keys for
/// every peer) after every key of the domain has been read once: the "hot" state. Each key of a pool
/// is made anew (``Workload/freshPool(of:seed:)``), as an app's is: no lookup compares by the identity
/// of a string the store or the floor kept.
enum ReadCases {
    /// The peers that read.
    static let readers: [PeerKind] = [.ours, .foundation, .sqlite] + PeerKind.floors

    /// The label of the hot read of a string with short keys.
    static let shortKeysLabel = "hot read, string, short keys"

    /// Item 1: `string(forKey:)` and `integer(forKey:)` of a random stored key (13-15 bytes at 1,000
    /// keys), and `string(forKey:)` in a domain of short keys (4-6 bytes): hashing a key is most of
    /// the floor's cost, and its cost grows with the key.
    static func hotRead(_ run: BenchRun) throws -> [Row] {
        var rows: [Row] = []
        for size in run.sizes {
            let workload = Workload(size: size)
            let strings = try Workload.freshPool(of: workload.strings.map(\.key), seed: 1)
            let integers = try Workload.freshPool(of: workload.integers.map(\.key), seed: 2)
            let shortWorkload = Workload(size: size, keyLength: .short)
            let shortStrings = try Workload.freshPool(of: shortWorkload.strings.map(\.key), seed: 1)
            var stringRow = Row(caseID: "hot-read", item: 1, label: "hot read, string", keys: size, unit: .nanoseconds)
            var integerRow = Row(caseID: "hot-read", item: 1, label: "hot read, int", keys: size, unit: .nanoseconds)
            var shortRow = Row(caseID: "hot-read", item: 1, label: shortKeysLabel, keys: size, unit: .nanoseconds)
            for kind in run.peers(readers) {
                let peer = try run.open(kind, suite: run.suite(kind, "hot-read", size), workload: workload)
                warm(peer, workload)
                stringRow[kind] = measureStringReads(peer, strings, run.settings)
                integerRow[kind] = measureIntegerReads(peer, integers, run.settings)
                let short = try run.open(kind, suite: run.suite(kind, "hot-read-short", size), workload: shortWorkload)
                warm(short, shortWorkload)
                shortRow[kind] = measureStringReads(short, shortStrings, run.settings)
            }
            rows += [stringRow, integerRow, shortRow]
        }
        return rows
    }

    /// Item 2: a read that falls through every domain to the registration domain, and one of a key
    /// that no domain holds (measured before anything is registered), as an app meets them: the domain opened anew after it was filled, then
    /// read key by key (see ``PeerKind/open(suite:in:workload:asAnAppMeetsIt:)``).
    ///
    /// The floors' registered default is their two-level read (a miss in the domain's dictionary of
    /// the row's size, then a hit in the registration's 1,000 keys, each under its own lock); their
    /// missing key, a miss in the domain's dictionary of the row's size.
    static func fallThrough(_ run: BenchRun) throws -> [Row] {
        let registered = (0..<1000).map(Workload.registeredKey)
        let registration = Dictionary(uniqueKeysWithValues: registered.map { ($0, "registered") })
        let missing = (0..<1000).map(Workload.missingKey)
        let registeredPool = try Workload.freshPool(of: registered, seed: 3)
        let missingPool = try Workload.freshPool(of: missing, seed: 4)
        var rows: [Row] = []
        for size in run.sizes {
            let workload = Workload(size: size)
            var registeredRow = Row(caseID: "fallthrough", item: 2, label: "registered default", keys: size, unit: .nanoseconds)
            var missingRow = Row(caseID: "fallthrough", item: 2, label: "missing key", keys: size, unit: .nanoseconds)
            for kind in run.peers(readers) {
                let peer = try run.open(
                    kind, suite: run.suite(kind, "fallthrough", size), workload: workload, asAnAppMeetsIt: true)
                warm(peer, workload)
                // NB: the missing key first, before anything is registered: a miss of the domain alone,
                // the floor's one hash and one look-up (as `--child profile missing` measures it). Each
                // key is first read with an instance of its own (a store keeps the instance it was first
                // asked with), so the measured lookups never give the store one it kept.
                for key in missing { _ = peer.string(forKey: Workload.madeAnew(key)) }
                missingRow[kind] = measureStringReads(peer, missingPool, run.settings)
                if kind != .sqlite {
                    try peer.register(registration)
                    for key in registered { _ = peer.string(forKey: Workload.madeAnew(key)) }
                    registeredRow[kind] = measureStringReads(peer, registeredPool, run.settings)
                }
            }
            rows += [registeredRow, missingRow]
        }
        return rows
    }

    /// Item 3: the read of a key right after writing it (ours and SQLite: a durable write; Foundation:
    /// `set`). Only the read is timed; it must return the new value.
    static func readAfterWrite(_ run: BenchRun) throws -> [Row] {
        var rows: [Row] = []
        for size in run.sizes {
            let workload = Workload(size: size)
            let keys = try Workload.freshPool(of: workload.strings.map(\.key), seed: 5)
            var row = Row(caseID: "read-after-write", item: 3, label: "read after write, string", keys: size, unit: .nanoseconds)
            for kind in run.peers(WriteCases.writers) {
                let peer = try run.open(kind, suite: run.suite(kind, "read-after-write", size), workload: workload)
                warm(peer, workload)
                row[kind] = try measureEach(run.settings) { index in
                    let key = keys[index & (Workload.poolSize - 1)]
                    let value = "after-\(index)"
                    try peer.plainWrite(value, forKey: key)
                    let start = monotonicNanoseconds()
                    let read = peer.string(forKey: key)
                    let elapsed = monotonicNanoseconds() - start
                    guard read == value else {
                        throw PeerError.failed(kind, "read \(read ?? "nil") right after writing \(value)")
                    }
                    return elapsed
                }
            }
            rows.append(row)
        }
        return rows
    }

    /// Reads every key of the domain once.
    static func warm(_ peer: any Peer, _ workload: Workload) {
        var checksum = 0
        for (key, _) in workload.strings { checksum &+= peer.string(forKey: key)?.utf8.count ?? 0 }
        for (key, _) in workload.integers { checksum &+= peer.integer(forKey: key) }
        consume(checksum)
    }

    /// ns per `string(forKey:)` over `pool`.
    static func measureStringReads(_ peer: any Peer, _ pool: [String], _ settings: MeasureSettings) -> Sample {
        measure(settings) { range in
            var checksum = 0
            for index in range { checksum &+= peer.string(forKey: pool[index & (Workload.poolSize - 1)])?.utf8.count ?? 0 }
            consume(checksum)
        }
    }

    /// ns per `integer(forKey:)` over `pool`.
    static func measureIntegerReads(_ peer: any Peer, _ pool: [String], _ settings: MeasureSettings) -> Sample {
        measure(settings) { range in
            var checksum = 0
            for index in range { checksum &+= peer.integer(forKey: pool[index & (Workload.poolSize - 1)]) }
            consume(checksum)
        }
    }
}
