#if canImport(Darwin)
    import Darwin
#else
    import Glibc
#endif

/// What a drop-in folder holds now: the names of its drop-in files in lexical order, and a hash of the
/// status of the folder and of each file (identity, size, modification and change times), which moves
/// when a file is added, changed, renamed or removed. A sync folder is looked at the same way, with its
/// own files' names (see ``SyncFolderWatch``).
///
/// It costs one `opendir`, the directory's reads and one `stat` a file; nothing is opened to be read.
/// Symbolic links are followed (configuration management, Nix above all, links its files into place).
struct FolderFingerprint {
    /// The suffix of a drop-in file's name.
    static let fileSuffix = ".conf"
    /// A file changed within this many seconds of a look cannot be told from a change made right after
    /// it in the same tick of the file system's clock: the look has no ``hash`` then.
    static let settlingSeconds = 2

    /// The drop-in files' names, in lexical order (of their bytes): the later file wins.
    let names: [String]
    /// The hash of the status of the folder and its files; nil when the folder cannot be listed, or when
    /// one of them changed too recently to be trusted (see ``settlingSeconds``): a look then differs
    /// from every other.
    let hash: UInt64?
    /// The same hash whether or not a file changed too recently; nil only when the folder cannot be listed.
    let statusHash: UInt64?

    /// True for the name of a drop-in file: `*.conf`, not hidden (an editor's or a tool's temporary file
    /// starts with a dot).
    static func isDropInName(_ name: String) -> Bool {
        name.hasSuffix(fileSuffix) && name.count > fileSuffix.count && !name.hasPrefix(".")
    }

    /// Looks at the folder at `path` now, at the entries whose names `isIncluded` accepts (drop-in files
    /// by default), and at the folder's own status unless `folderStatus` is false (a folder where other
    /// files come and go: the sync folder, where this device's own file is renamed in).
    init(
        of path: String, including isIncluded: (String) -> Bool = FolderFingerprint.isDropInName, folderStatus: Bool = true
    ) {
        var hasher = Hasher()
        var settled = true
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        func add(_ status: stat) {
            hasher.combine(UInt64(status.st_dev))
            hasher.combine(UInt64(status.st_ino))
            hasher.combine(UInt64(status.st_mode))
            hasher.combine(UInt64(bitPattern: Int64(status.st_size)))
            hasher.combine(UInt64(bitPattern: Int64(status.st_mtim.tv_sec)))
            hasher.combine(UInt64(bitPattern: Int64(status.st_mtim.tv_nsec)))
            hasher.combine(UInt64(bitPattern: Int64(status.st_ctim.tv_sec)))
            hasher.combine(UInt64(bitPattern: Int64(status.st_ctim.tv_nsec)))
            let latest = max(status.st_mtim.tv_sec, status.st_ctim.tv_sec)
            if Int(now.tv_sec) - Int(latest) < Self.settlingSeconds { settled = false }
        }
        var status = stat()
        guard stat(path, &status) == 0, let directory = opendir(path) else {
            names = []
            hash = nil
            statusHash = nil
            return
        }
        if folderStatus { add(status) }
        var found: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if isIncluded(name) { found.append(name) }
        }
        closedir(directory)
        found.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for name in found {
            hasher.combine(name)
            if stat(path + "/" + name, &status) == 0 {
                add(status)
            } else {
                hasher.combine(UInt64(bitPattern: Int64(errno)))
            }
        }
        names = found
        statusHash = UInt64(bitPattern: Int64(hasher.finalize()))
        hash = settled ? statusHash : nil
    }
}
