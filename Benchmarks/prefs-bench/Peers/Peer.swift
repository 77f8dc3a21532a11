import Foundation

/// A store under test, driven through the operations the cases need.
///
/// A peer that cannot do an operation (the dictionary has no disk, raw SQLite no registration
/// domain) throws ``PeerError/unsupported(_:_:)``; the case list asks each peer only for what it has.
protocol Peer: AnyObject {
    /// Which peer this is.
    var kind: PeerKind { get }
    /// The string of `key`, or nil.
    func string(forKey key: String) -> String?
    /// The integer of `key`, or 0.
    func integer(forKey key: String) -> Int
    /// Stores `value` for `key`, committed to disk when it returns.
    func write(_ value: String, forKey key: String) throws
    /// Removes `key`, committed to disk when it returns.
    func remove(forKey key: String) throws
    /// The plain write a program makes before reading back: durable for ours and SQLite, Foundation's
    /// `set` without `synchronize()`.
    func plainWrite(_ value: String, forKey key: String) throws
    /// Stores every pair through the peer's batch API, committed to disk when it returns.
    func writeBatch(_ pairs: [(key: String, value: String)]) throws
    /// Adds `values` to the registration domain.
    func register(_ values: [String: String]) throws
}

extension Peer {
    func write(_ value: String, forKey key: String) throws { throw PeerError.unsupported(kind, "write") }
    func remove(forKey key: String) throws { throw PeerError.unsupported(kind, "remove") }
    func plainWrite(_ value: String, forKey key: String) throws { try write(value, forKey: key) }
    func writeBatch(_ pairs: [(key: String, value: String)]) throws { throw PeerError.unsupported(kind, "batch") }
    func register(_ values: [String: String]) throws { throw PeerError.unsupported(kind, "register") }
}

/// The peers, in the order of the report's columns.
enum PeerKind: String, CaseIterable, Codable, Sendable {
    /// LayeredDefaults.
    case ours
    /// Foundation's `UserDefaults`, as shipped with the toolchain.
    case foundation = "Foundation"
    /// Raw SQLite through its C API: the floor of our storage layer.
    case sqlite = "SQLite"
    /// A `Mutex`-guarded Swift dictionary: the floor of a cached read.
    case floor = "dict floor"
    /// The same dictionary guarded by a `pthread_mutex_t`: the floor with the C library's lock.
    case pthreadFloor = "pthread floor"

    /// The dictionary floors, which have no file.
    static let floors: [PeerKind] = [.floor, .pthreadFloor]

    /// The peer's part of a suite name: one word.
    var tag: String {
        switch self {
        case .floor: "floor"
        case .pthreadFloor: "pthread-floor"
        default: rawValue.lowercased()
        }
    }

    /// Opens the domain `suite` of this peer in `sandbox`; with `workload`, first fills it with those
    /// pairs (untimed setup) and checks that a string and an integer read back.
    ///
    /// - Parameter asAnAppMeetsIt: ours only: fill the domain through an instance that is then let go,
    ///   and open the domain anew, so that nothing has read the whole domain (filling it through
    ///   `replacePersistentValues` leaves the cached view complete, where a miss costs less than in
    ///   an app that reads key by key after its launch).
    /// - Throws: ``PeerError`` or the peer's error.
    func open(
        suite: String, in sandbox: Sandbox, workload: Workload? = nil, asAnAppMeetsIt: Bool = false
    ) throws
        -> any Peer
    {
        let peer: any Peer
        switch self {
        case .ours:
            if asAnAppMeetsIt, let workload {
                // NB: the registry holds stores weakly: once this instance is gone, its store and cached
                // view close, and the instance below opens the file as a new process would.
                try OursPeer(suite: suite, directory: sandbox.oursDirectory).populate(workload)
                peer = try OursPeer(suite: suite, directory: sandbox.oursDirectory)
                break
            }
            let ours = try OursPeer(suite: suite, directory: sandbox.oursDirectory)
            if let workload { try ours.populate(workload) }
            peer = ours
        case .foundation:
            // NB: the file is written before `UserDefaults` first looks at the domain; filling a domain
            // through `setPersistentDomain` is quadratic on Linux (10,000 keys take seconds).
            if let workload { try FoundationPeer.populate(sandbox.foundationFile(of: suite), with: workload) }
            peer = try FoundationPeer(suite: suite)
        case .sqlite:
            let path = sandbox.sqliteDirectory.appendingPathComponent(suite + ".sqlite3").path
            // NB: the library makes and fills the file (and is gone before the peer opens it), so the peer
            // works on exactly our table layout, in WAL mode.
            if let workload { try OursPeer(suite: suite, directory: sandbox.sqliteDirectory).populate(workload) }
            peer = try RawSQLitePeer(path: path)
        case .floor:
            peer = DictionaryFloor(workload: workload)
        case .pthreadFloor:
            peer = PthreadDictionaryFloor(workload: workload)
        }
        if let workload, let first = workload.strings.first, let last = workload.integers.last {
            guard peer.string(forKey: first.key) == first.value, peer.integer(forKey: last.key) == last.value else {
                throw PeerError.failed(self, "the domain of \(workload.size) keys does not read back")
            }
        }
        return peer
    }
}

/// A peer could not do what a case asked.
enum PeerError: Error, CustomStringConvertible {
    /// The peer has no such operation.
    case unsupported(PeerKind, String)
    /// The operation failed.
    case failed(PeerKind, String)

    var description: String {
        switch self {
        case .unsupported(let kind, let operation): "\(kind.rawValue) cannot \(operation)"
        case .failed(let kind, let reason): "\(kind.rawValue): \(reason)"
        }
    }
}
