import Foundation
import Synchronization

/// The schema that applies to one domain of one ``Defaults`` instance: the one its configuration gives,
/// else the installed file's (the user's, else the first system directory's that has one).
///
/// The installed file is read when first needed and kept while its file is unchanged: a read uses the
/// schema as last read, and each write looks at the files again (an `lstat` each, up to the first that
/// exists), so a newer schema installed by another process applies to the next write of a running one.
/// A file that cannot be used (malformed, unsafe, unreadable) is reported once per state of the file and
/// not used: the domain is then as one without a schema; but where the same file gave a schema before
/// (a file copied over in place is read half-written for a moment), that schema still applies. Files
/// already read in this process, unchanged since, are not parsed again.
final class ApplicableSchema: Sendable {
    /// Where the schema comes from.
    private enum Source {
        /// Given by the configuration: it never changes.
        case configured(PreferenceSchema)
        /// The installed files, searched in order: those of the suite under the root (none in memory),
        /// then under each system directory; with `systemFirst` (a system-wide layer's store), the system
        /// directories' first.
        case installed(rootPath: String?, systemDirectoryPaths: [String], systemFirst: Bool)
    }

    /// What was last read: the files' states then, and the schema they gave.
    private struct Loaded {
        /// The paths of the installed files, in the order searched.
        let files: [String]
        /// The states of ``files`` up to the first that existed (the one read), nil for each missing one.
        var states: [FileState?]
        var schema: PreferenceSchema?

        /// True when the files are as they were when read: each up to the one read is still missing, and
        /// that one is the same file, unchanged. (Nothing is allocated: this runs in every write.)
        var isCurrent: Bool {
            for (file, state) in zip(files, states) where ApplicableSchema.state(of: file) != state { return false }
            return true
        }
    }

    /// The identity, size and times of a file: a file replaced or rewritten in place changes them.
    private struct FileState: Equatable {
        let device: UInt64, inode: UInt64, size: Int64, modified: timespec, changed: timespec

        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
            size = Int64(status.st_size)
            modified = status.st_mtim
            changed = status.st_ctim
        }

        static func == (a: FileState, b: FileState) -> Bool {
            a.device == b.device && a.inode == b.inode && a.size == b.size && a.modified.tv_sec == b.modified.tv_sec
                && a.modified.tv_nsec == b.modified.tv_nsec && a.changed.tv_sec == b.changed.tv_sec
                && a.changed.tv_nsec == b.changed.tv_nsec
        }
    }

    private let source: Source
    private let suiteName: String
    private let report: @Sendable (DefaultsError) -> Void
    private let loaded = Lock<Loaded?>(nil)
    /// Whether a schema applies, for a read's fast path: 0 not known yet, 1 none, 2 one.
    private let applies = Atomic<UInt8>(0)
    /// How many times the schema that applies changed (another was read): part of every stamp, so that
    /// answers found under the old one are not kept.
    private let changeCount = Atomic<Int>(0)

    /// How many times the schema that applies changed since the store was opened.
    @inline(__always) var generation: Int { changeCount.load(ordering: .acquiring) }

    /// The schema of `suiteName` for a store at `rootPath` (nil in memory) searching the system directories
    /// at `systemDirectoryPaths` (paths without a trailing slash): `configured` when given, else the
    /// installed one; `report` receives a file that cannot be used.
    init(
        suiteName: String, configured: PreferenceSchema?, rootPath: String?, systemDirectoryPaths: [String],
        systemFirst: Bool = false, report: @escaping @Sendable (DefaultsError) -> Void
    ) {
        self.suiteName = suiteName
        self.report = report
        if let configured {
            source = .configured(configured)
            applies.store(2, ordering: .relaxed)
        } else {
            // The paths are made at the first read, not here: opening a store must not pay for them.
            source = .installed(rootPath: rootPath, systemDirectoryPaths: systemDirectoryPaths, systemFirst: systemFirst)
        }
    }

    /// The schema of `suiteName` for a store at `rootPath` (nil in memory) set up by `configuration`:
    /// `configured` when given; else the installed one, searched under the root and then the system
    /// directories, or for a system-wide layer's store (``Defaults/Configuration/systemLayer``, an
    /// administrator's) under the system directories first and then the writing user's root: the rule of
    /// the domain, wherever it is written.
    convenience init(
        suiteName: String, configuration: Defaults.Configuration, configured: PreferenceSchema?, rootPath: String?
    ) {
        if let systemLayer = configuration.systemLayer {
            self.init(
                suiteName: suiteName, configured: configured,
                rootPath: systemLayer.userRoot.map { StoreRegistry.withoutTrailingSlash($0.path) },
                systemDirectoryPaths: systemLayer.systemDirectories.map { StoreRegistry.withoutTrailingSlash($0.path) },
                systemFirst: true, report: configuration.errorHandler)
        } else {
            self.init(
                suiteName: suiteName, configured: configured, rootPath: rootPath,
                systemDirectoryPaths: configuration.systemDirectoryPaths, report: configuration.errorHandler)
        }
    }

    /// True when it is known that no schema applies (as last read): a read's fast path, one atomic load.
    @inline(__always) var isKnownAbsent: Bool { applies.load(ordering: .acquiring) == 1 }

    /// The schema for a read: the configured one, or the installed one as last read (read now the
    /// first time).
    var forReading: PreferenceSchema? {
        switch applies.load(ordering: .acquiring) {
        case 1: return nil
        case 0: return revalidated(onlyIfUnread: true)
        default: return current
        }
    }

    /// The schema for a write: the files are looked at again, and read again when they changed.
    var forWriting: PreferenceSchema? { revalidated(onlyIfUnread: false) }

    private var current: PreferenceSchema? {
        switch source {
        case .configured(let schema): schema
        case .installed: loaded.withLock { $0?.schema }
        }
    }

    /// The installed schema, read again when the files changed since last read (or, with
    /// `onlyIfUnread`, only when never read).
    private func revalidated(onlyIfUnread: Bool) -> PreferenceSchema? {
        guard case .installed(let rootPath, let systemDirectoryPaths, let systemFirst) = source else { return current }
        let (schema, failure) = loaded.withLock { loaded -> (PreferenceSchema?, DefaultsError?) in
            if let loaded, onlyIfUnread || loaded.isCurrent { return (loaded.schema, nil) }
            let files =
                loaded?.files
                ?? Defaults.schemaFiles(
                    of: suiteName, rootPath: rootPath, systemDirectoryPaths: systemDirectoryPaths, systemFirst: systemFirst)
            var states: [FileState?] = []
            for file in files {
                states.append(Self.state(of: file))
                if states.last! != nil { break }
            }
            var schema: PreferenceSchema?
            var failure: DefaultsError?
            // The last state is the first file that exists, if any does.
            if case .some(.some(let state)) = states.last {
                let file = files[states.count - 1]
                do throws(DefaultsError) {
                    schema = try Self.schema(inFile: file, state: state, suiteName: suiteName)
                } catch {
                    failure = error
                    // NB: a file being copied over in place reads half-written for a moment: the schema last
                    // read from that same file still applies (what was installed there is still the rule).
                    if let loaded, loaded.states.count == states.count { schema = loaded.schema }
                }
            }
            if loaded?.schema != schema { changeCount.add(1, ordering: .releasing) }
            loaded = Loaded(files: files, states: states, schema: schema)
            applies.store(schema == nil ? 1 : 2, ordering: .releasing)
            return (schema, failure)
        }
        if let failure { report(failure) }
        return schema
    }

    /// The schemas read in this process, by file, with the state each file was in: a store opened later
    /// (every `Defaults` instance has its own) reuses one, unparsed, while its file is unchanged.
    private static let parsed = Lock<[String: (state: FileState, schema: PreferenceSchema)]>([:])

    /// The schema in `file`, whose state is `state`: the one read before in that state, else read now.
    private static func schema(
        inFile file: String, state: FileState, suiteName: String
    ) throws(DefaultsError)
        -> PreferenceSchema?
    {
        if let known = parsed.withLock({ $0[file] }), known.state == state { return known.schema }
        guard let schema = try Defaults.schema(inFile: file, suiteName: suiteName) else { return nil }
        parsed.withLock { parsed in
            if parsed.count >= 64 { parsed.removeAll() }
            parsed[file] = (state, schema)
        }
        return schema
    }

    /// The state of the file at `path` (`lstat`), nil when nothing is there.
    private static func state(of path: String) -> FileState? {
        var status = stat()
        return path.withCString { lstat($0, &status) } == 0 ? FileState(status) : nil
    }
}
