import Synchronization

/// A process-wide value installed once by another module of this package (the testing library, when a
/// test process loads) and consulted on a hot path: while none is installed, reading it costs one atomic
/// load and never takes the lock.
///
/// ```swift
/// static let guardHook = InstalledHook<@Sendable () -> Defaults?>()
/// if let replacement = guardHook.value?() { return replacement }
/// ```
final class InstalledHook<Value: Sendable>: Sendable {
    private let installed = Lock<Value?>(nil)
    /// Whether ``installed`` holds a value: an app, which installs none, never takes the lock.
    private let isInstalled = Atomic<Bool>(false)

    /// A hook with nothing installed.
    init() {}

    /// The installed value, or nil when none is.
    var value: Value? {
        guard isInstalled.load(ordering: .acquiring) else { return nil }
        return installed.withLock { $0 }
    }

    /// Installs `value`; a later call replaces it.
    func install(_ value: Value) {
        installed.withLock { $0 = value }
        isInstalled.store(true, ordering: .releasing)
    }
}
