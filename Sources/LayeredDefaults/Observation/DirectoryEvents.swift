import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Sleeps until a database file in some directories changes (Linux inotify) or another thread wakes
/// the sleeper: what lets observers see other processes' commits without polling.
///
/// It watches directories, not files, so that a database created later, deleted, or replaced by `mv`
/// is seen as well as a commit (which writes the database's `-wal`). Only events on the databases it
/// follows (``follow(databases:)``) and their companion files count.
///
/// One thread waits (``wait(until:listening:)``) and follows; any thread may wake it through
/// ``waker``. Where inotify is missing (not Linux, a file system or a limit without it) ``init()``
/// fails, or ``follow(databases:)`` reports the directories it could not watch: the caller then looks
/// on a timer instead.
final class DirectoryEvents {
    /// Wakes the thread waiting in ``DirectoryEvents/wait(until:listening:)``, from any thread; a wake
    /// made while nobody waits ends the next wait at once.
    struct Waker: Sendable {
        /// The writing end of the pipe the waiting thread polls.
        let descriptor: Int32

        /// Wakes the waiter.
        func wake() {
            var byte: UInt8 = 1
            // A full pipe (EAGAIN) has a wake pending already.
            _ = write(descriptor, &byte, 1)
        }
    }

    /// What ended a wait.
    struct Wakeup: Equatable {
        /// A ``Waker`` woke it.
        var woken = false
        /// A followed database (or its directory) changed.
        var changed = false
    }

    /// What ``follow(databases:)`` could not watch.
    struct Unwatched: Equatable {
        /// The directories that do not exist (or are not directories).
        var missing: Set<String> = []
        /// The directories that exist but could not be watched (a limit reached, a file system without
        /// inotify): their changes are seen only by looking.
        var failed: Set<String> = []

        /// True when every directory is watched.
        var isEmpty: Bool { missing.isEmpty && failed.isEmpty }
    }

    /// Wakes this instance's waiter.
    let waker: Waker
    /// The reading end of the waker's pipe.
    private let woken: Int32
    private let inotify: Int32
    /// The watch of each followed directory, the directory's device and inode when it was watched, and
    /// the database file names followed in it.
    private var watches: [String: (descriptor: Int32, identity: FileIdentity?, names: Set<String>)] = [:]
    /// The followed directories of each watch descriptor (two paths of one directory share one).
    private var directories: [Int32: Set<String>] = [:]

    /// The events each directory is watched for: a commit writes the `-wal` (IN_MODIFY), and a database
    /// appears, goes or is replaced (IN_CREATE, IN_DELETE, IN_MOVED_FROM, IN_MOVED_TO, IN_CLOSE_WRITE),
    /// or changes mode (IN_ATTRIB); the directory itself may go (IN_DELETE_SELF, IN_MOVE_SELF).
    #if os(Linux)
        private static let mask = UInt32(
            IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_ATTRIB
                | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
    #endif

    /// A watcher of no directory yet; nil where inotify or a pipe cannot be had.
    ///
    /// A pipe, not an eventfd: Glibc's module does not bring `sys/eventfd.h`.
    init?() {
        #if os(Linux)
            let inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
            guard inotify >= 0 else { return nil }
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else {
                close(inotify)
                return nil
            }
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            }
            self.inotify = inotify
            self.woken = ends[0]
            self.waker = Waker(descriptor: ends[1])
        #else
            return nil
        #endif
    }

    deinit {
        close(inotify)
        close(woken)
        close(waker.descriptor)
    }

    /// The name of a followed "database" that stands for every entry of its directory: a drop-in folder's.
    static let everyEntry = "*"

    /// Watches the directories of `databases` (paths of database files) and stops watching those of
    /// databases no longer among them; a directory missing before is tried again, and so is one whose
    /// path names another directory, or none, than was watched.
    ///
    /// NB: a watch follows its directory, not the path: moved away, it goes on reporting the moved
    /// directory; deleted while a process keeps it open, it reports nothing more, and never ends.
    /// - Returns: the directories not watched, and why.
    @discardableResult
    func follow<Paths: Sequence<String>>(databases: Paths) -> Unwatched {
        var wanted: [String: Set<String>] = [:]
        for path in databases {
            let url = URL(fileURLWithPath: path)
            wanted[url.deletingLastPathComponent().path, default: []].insert(url.lastPathComponent)
        }
        for directory in watches.keys where wanted[directory] == nil { unwatch(directory) }
        var unwatched = Unwatched()
        for (directory, names) in wanted {
            if let watch = watches[directory] {
                if watch.identity != nil && FileIdentity(ofFileAt: directory, followingLinks: true) == watch.identity {
                    watches[directory]?.names = names
                    continue
                }
                unwatch(directory)
            }
            #if os(Linux)
                let descriptor = inotify_add_watch(inotify, directory, Self.mask)
                guard descriptor >= 0 else {
                    if errno == ENOENT || errno == ENOTDIR {
                        unwatched.missing.insert(directory)
                    } else {
                        unwatched.failed.insert(directory)
                    }
                    continue
                }
                // Following a symbolic link, as the watch does.
                watches[directory] = (descriptor, FileIdentity(ofFileAt: directory, followingLinks: true), names)
                directories[descriptor, default: []].insert(directory)
            #endif
        }
        return unwatched
    }

    /// The directories watched now.
    var watchedDirectories: Set<String> { Set(watches.keys) }

    private func unwatch(_ directory: String) {
        guard let descriptor = watches.removeValue(forKey: directory)?.descriptor else { return }
        directories[descriptor]?.remove(directory)
        if directories[descriptor]?.isEmpty ?? false {
            directories[descriptor] = nil
            #if os(Linux)
                _ = inotify_rm_watch(inotify, descriptor)
            #endif
        }
    }

    /// Sleeps until the waker wakes it, a followed database changes (only while `listening`), or
    /// `deadline` passes (nil: no deadline).
    ///
    /// Not listening leaves the events queued, unread (the kernel merges repeats of one event), and
    /// so costs no wake-up: for a caller that will look at a known time anyway, as while a burst of
    /// commits goes on. The next listening wait reads them.
    func wait(until deadline: ContinuousClock.Instant?, listening: Bool) -> Wakeup {
        var wakeup = Wakeup()
        #if os(Linux)
            var descriptors = [
                pollfd(fd: woken, events: Int16(POLLIN), revents: 0),
                pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
            ]
            while true {
                // Whole milliseconds, rounded up, so a wait never ends before its deadline.
                let timeout = deadline.map { deadline -> Int32 in
                    let left = max(.zero, deadline - .now).components
                    return Int32(clamping: left.seconds * 1000 + (left.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
                }
                if poll(&descriptors, listening ? 2 : 1, timeout ?? -1) < 0 && errno == EINTR { continue }
                break
            }
            if descriptors[0].revents != 0 {
                var bytes = [UInt8](repeating: 0, count: 64)
                while read(woken, &bytes, bytes.count) > 0 {}
                wakeup.woken = true
            }
            if listening, descriptors[1].revents != 0 { wakeup.changed = readEvents() }
        #endif
        return wakeup
    }

    /// Reads every queued event; true when one concerns a followed database or a watched directory
    /// itself (or events were lost: the queue overflowed).
    private func readEvents() -> Bool {
        var changed = false
        #if os(Linux)
            // Room for many events; each is a header (wd, mask, cookie, len) and `len` bytes of name.
            let capacity = 16 * 1024
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
            defer { buffer.deallocate() }
            while true {
                let count = read(inotify, buffer, capacity)
                guard count > 0 else { break }
                var offset = 0
                let header = MemoryLayout<inotify_event>.size
                while offset + header <= count {
                    let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                    let nameStart = buffer.advanced(by: offset + header).assumingMemoryBound(to: CChar.self)
                    let name = event.len > 0 ? String(cString: nameStart) : ""
                    offset += header + Int(event.len)
                    if concerns(event, named: name) { changed = true }
                }
            }
        #endif
        return changed
    }

    #if os(Linux)
        /// True when `event` (on the entry `name` of its directory, "" for the directory itself) concerns
        /// a followed database: the database itself or one of its companion files (`-wal`, `-shm`,
        /// `-journal`). A watch the kernel ended (its directory gone) is forgotten, to be tried again.
        private func concerns(_ event: inotify_event, named name: String) -> Bool {
            if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { return true }
            guard let followed = directories[event.wd] else { return false }
            if event.mask & UInt32(IN_IGNORED) != 0 {
                for directory in followed { watches[directory] = nil }
                directories[event.wd] = nil
                return true
            }
            if name.isEmpty { return true }
            return followed.contains { directory in
                watches[directory]?.names.contains { name == $0 || name.hasPrefix($0 + "-") || $0 == Self.everyEntry } ?? false
            }
        }
    #endif
}
