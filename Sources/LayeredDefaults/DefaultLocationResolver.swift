import Foundation

/// What ``Location/default`` resolves to in a process that installed a resolver: the seam through which
/// `LayeredDefaultsTesting` keeps every store of the default location out of the user's real home in a
/// test process. Without one (an app), the default location is read from the environment.
///
/// `package`, not public: only a library of this package installs one, when its process loads, so an
/// app cannot move the default location behind its own code's back, and the core knows nothing of tests.
package struct DefaultLocationResolver: Sendable {
    /// The directory of the default location (nil: memory only), resolved when a store is created.
    package var root: @Sendable () -> URL?
    /// The default system directories, or nil to read them from the environment (`XDG_CONFIG_DIRS`).
    var systemDirectories: @Sendable () -> [URL]?

    /// A resolver of the two closures.
    package init(root: @escaping @Sendable () -> URL?, systemDirectories: @escaping @Sendable () -> [URL]?) {
        self.root = root
        self.systemDirectories = systemDirectories
    }

    /// The installed resolver, if any.
    private static let hook = InstalledHook<DefaultLocationResolver>()

    /// The installed resolver, or nil when the environment decides (no resolver is installed).
    package static var installed: DefaultLocationResolver? { hook.value }

    /// Installs `resolver` for the whole process; a later call replaces it.
    package static func install(_ resolver: DefaultLocationResolver) { hook.install(resolver) }
}
