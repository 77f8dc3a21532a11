import CSQLite
import Foundation

/// The `--stalled-sync <ms>` option: every sync SQLite asks for (`xSync`) sleeps that long first, as on
/// a slow or busy disk. A commit with `synchronous = FULL` syncs its log after writing its frames and
/// before it publishes them in the WAL-index header, so such a commit stalls between the two.
///
/// Made with a VFS of its own, the default from then on, that opens every file through SQLite's own
/// default VFS and gives it the same methods but a sleeping `xSync`.
enum StalledSync {
    typealias Methods = UnsafePointer<sqlite3_io_methods>

    /// Each table of methods the default VFS gave a file, and the same with the sleeping `xSync`.
    ///
    /// NB: several: the unix VFS gives a database file the methods of its locking style and every other
    /// file (a log, a journal) those without locks.
    nonisolated(unsafe) private static var tables: [(original: Methods, stalled: Methods)] = []
    nonisolated(unsafe) private static var delay: useconds_t = 0
    nonisolated(unsafe) private static var base: UnsafeMutablePointer<sqlite3_vfs>?

    /// Makes every later sync of every connection of this process sleep `milliseconds` first.
    static func install(milliseconds: Int) {
        guard let found = sqlite3_vfs_find(nil) else { fail("--stalled-sync: SQLite has no default VFS", status: 3) }
        base = found
        delay = useconds_t(milliseconds) * 1000
        let vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        vfs.initialize(to: found.pointee)
        vfs.pointee.pNext = nil
        vfs.pointee.zName = UnsafePointer(strdup("stalled-sync"))
        vfs.pointee.xOpen = { _, name, file, flags, outFlags in
            guard let base = StalledSync.base, let file else { return SQLITE_CANTOPEN }
            let code = base.pointee.xOpen(base, name, file, flags, outFlags)
            if let opened = file.pointee.pMethods { file.pointee.pMethods = StalledSync.stalled(opened) }
            return code
        }
        guard sqlite3_vfs_register(vfs, 1) == SQLITE_OK else { fail("--stalled-sync: cannot register the VFS", status: 3) }
    }

    /// The methods `original` with a sleeping `xSync`.
    ///
    /// NB: unguarded: the fixture opens its files on its main thread, each kind once before any other
    /// thread of it (an idle checkpoint's) syncs one.
    private static func stalled(_ original: Methods) -> Methods {
        if let known = tables.first(where: { $0.original == original }) { return known.stalled }
        let stalled = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
        stalled.initialize(to: original.pointee)
        stalled.pointee.xSync = { file, flags in
            usleep(StalledSync.delay)
            let methods = file?.pointee.pMethods
            guard let original = StalledSync.tables.first(where: { $0.stalled == methods })?.original else { return SQLITE_IOERR }
            return original.pointee.xSync(file, flags)
        }
        tables.append((original, UnsafePointer(stalled)))
        return UnsafePointer(stalled)
    }
}
