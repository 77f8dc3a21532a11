import LayeredDefaults

/// The theme as a swappable capability, for features that depend on it: inject a ``ThemeClient``
/// instead of a store.
///
/// ```swift
/// struct SettingsModel { var theme: ThemeClient }
/// let live = SettingsModel(theme: .live(ThemePreferences(defaults: defaults)))
/// let preview = SettingsModel(theme: .inMemory(.dark))
/// ```
/// In tests, start from `ThemeClient.unimplemented` (in `ThemePreferencesTesting`) and override only
/// the closures the test expects to be called.
public struct ThemeClient: Sendable {
    /// The current theme.
    public var load: @Sendable () -> Theme
    /// Stores a theme. Throws the store's error; nothing changes then.
    public var save: @Sendable (Theme) throws -> Void
    /// Removes the stored theme, so it reads ``Theme/system`` again. Throws the store's error.
    public var reset: @Sendable () throws -> Void
    /// The theme after each change that alters it.
    public var changes: @Sendable () -> AsyncStream<Theme>

    /// A client made of the given closures.
    public init(
        load: @escaping @Sendable () -> Theme,
        save: @escaping @Sendable (Theme) throws -> Void,
        reset: @escaping @Sendable () throws -> Void,
        changes: @escaping @Sendable () -> AsyncStream<Theme>
    ) {
        self.load = load
        self.save = save
        self.reset = reset
        self.changes = changes
    }

    /// The client of a real store, through `preferences`.
    public static func live(_ preferences: ThemePreferences) -> ThemeClient {
        ThemeClient(
            load: { preferences.theme },
            save: { try preferences.save($0) },
            reset: { try preferences.reset() },
            changes: { preferences.defaults.changes(of: .key(ThemePreferences.key), initial: false) })
    }

    /// A client that keeps the theme in memory, for previews and tests: starts at `initial`, `reset`
    /// returns to ``Theme/system``, `changes` emits after each call that alters the theme.
    public static func inMemory(_ initial: Theme = .system) -> ThemeClient {
        let state = InMemoryTheme(initial)
        return ThemeClient(
            load: { state.theme },
            save: { state.set($0) },
            reset: { state.set(.system) },
            changes: { state.changes() })
    }
}

/// The state of ``ThemeClient/inMemory(_:)``.
private final class InMemoryTheme: Sendable {
    private let state: Lock<(theme: Theme, subscribers: [Int: AsyncStream<Theme>.Continuation], next: Int)>

    init(_ theme: Theme) { state = Lock((theme, [:], 0)) }

    var theme: Theme { state.withLock { $0.theme } }

    func set(_ theme: Theme) {
        let subscribers = state.withLock { state -> [AsyncStream<Theme>.Continuation] in
            guard state.theme != theme else { return [] }
            state.theme = theme
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.yield(theme) }
    }

    func changes() -> AsyncStream<Theme> {
        let (stream, continuation) = AsyncStream.makeStream(of: Theme.self)
        let id = state.withLock { state in
            state.next += 1
            state.subscribers[state.next] = continuation
            return state.next
        }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) } }
        return stream
    }
}
