import Foundation
import PackageTestSupport
import Testing

/// The arguments that make the fixture drop to an unprivileged user when the tests run as root (root
/// ignores file permissions, so a read-only test would prove nothing), and the user it drops to.
enum Unprivileged {
    /// The user and group `nobody` (65534) on Linux.
    static let id: uid_t = 65534
    /// True when the tests run as root and children must drop privileges.
    static var isNeeded: Bool { geteuid() == 0 }
    /// The fixture's leading options.
    static var fixtureOptions: [String] { isNeeded ? ["--as-user", String(id)] : [] }

    /// Where a test that runs an unprivileged child makes its directory: the system's temporary
    /// directory when the child can reach it (every directory on its path lets others search it, or no
    /// child drops privileges), else the first of `/tmp` and `/var/tmp` it can reach; nil when none.
    ///
    /// NB: as root, `$TMPDIR` may lie inside a private (0700) directory, e.g. one `mktemp -d` made: the
    /// child could not even reach its own test's directory there.
    static let reachableBase: URL? = {
        let temporary = FileManager.default.temporaryDirectory
        guard isNeeded else { return temporary }
        return [temporary, URL(fileURLWithPath: "/tmp"), URL(fileURLWithPath: "/var/tmp")].first(where: isReachable)
    }()

    /// Whether every directory from `/` down to `directory` lets others (the unprivileged user) search it.
    private static func isReachable(_ directory: URL) -> Bool {
        var path = directory.resolvingSymlinksInPath().path
        while true {
            var status = stat()
            guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_mode & S_IXOTH != 0 else {
                return false
            }
            guard path != "/", !path.isEmpty else { return true }
            path = (path as NSString).deletingLastPathComponent
        }
    }

    /// Runs `body` with a fresh directory of the test's own, in ``reachableBase``, removed afterwards.
    /// - Throws: `body`'s error, or an error making the directory. (A test that needs it is disabled,
    ///   naming why, when ``reachableBase`` is nil: see `ConditionTrait.reachableByAnUnprivilegedChild`.)
    static func withRoot<T>(_ body: (URL) throws -> T) throws -> T {
        try withTemporaryRoot(under: reachableBase ?? FileManager.default.temporaryDirectory, body)
    }

    /// Hands `directory` and everything in it to the unprivileged user (when running as root).
    static func handOver(_ directory: URL) {
        guard isNeeded else { return }
        chown(directory.path, id, id)
        for case let relative as String in FileManager.default.enumerator(atPath: directory.path) ?? .init() {
            lchown(directory.appendingPathComponent(relative).path, id, id)
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Skips a test that runs an unprivileged child when no directory the child can reach exists,
    /// naming why (as root, with `$TMPDIR`, `/tmp` and `/var/tmp` all private).
    static var reachableByAnUnprivilegedChild: Self {
        .enabled(
            if: Unprivileged.reachableBase != nil,
            "runs a child as the unprivileged user, which can reach neither $TMPDIR nor /tmp nor /var/tmp")
    }
}
