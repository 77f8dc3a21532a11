import Foundation
import PackageTestSupport

/// The arguments that make the fixture drop to an unprivileged user when the tests run as root (root
/// ignores file permissions, so a read-only test would prove nothing), and the user it drops to.
enum Unprivileged {
    /// The user and group `nobody` (65534) on Linux.
    static let id: uid_t = 65534
    /// True when the tests run as root and children must drop privileges.
    static var isNeeded: Bool { geteuid() == 0 }
    /// The fixture's leading options.
    static var fixtureOptions: [String] { isNeeded ? ["--as-user", String(id)] : [] }

    /// Hands `directory` and everything in it to the unprivileged user (when running as root).
    static func handOver(_ directory: URL) {
        guard isNeeded else { return }
        chown(directory.path, id, id)
        for case let relative as String in FileManager.default.enumerator(atPath: directory.path) ?? .init() {
            lchown(directory.appendingPathComponent(relative).path, id, id)
        }
    }
}
