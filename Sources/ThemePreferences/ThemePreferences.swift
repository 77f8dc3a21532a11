import LayeredDefaults

/// Typed access to the theme preference of a ``Defaults`` store.
///
/// Creating it never writes: it registers ``Theme/system`` as the registration default, so a second
/// `ThemePreferences` over the same store reads the user's stored choice instead of resetting it.
///
/// ```swift
/// let preferences = ThemePreferences(defaults: defaults)
/// try preferences.save(.dark)     // stores the string "dark" in the persistent domain
/// preferences.theme               // .dark; `-theme light` on the command line overrides it
/// try preferences.reset()         // removes the key: reads .system again
/// ```
public struct ThemePreferences: Sendable {
    /// The key the theme is stored under.
    public static let key = "theme"

    /// The typed key of the theme: reads as ``Theme/system`` when nothing usable is stored.
    public static let themeKey = Defaults.Key<Theme>(key, default: .system)

    /// The store this wrapper reads and writes.
    public let defaults: Defaults

    /// Wraps `defaults`, registering ``Theme/system`` as its default theme.
    /// - Parameter defaults: the store to use; inject one (tests use an in-memory or isolated store).
    public init(defaults: Defaults = .standard) {
        self.defaults = defaults
        defaults.register([Self.key: .string(Theme.system.rawValue)])
    }

    /// The theme found by the search list (an argument `-theme light` wins); ``Theme/system`` when the
    /// value is missing, not a string, or not one of `system`, `light`, `dark`.
    public var theme: Theme {
        defaults[Self.themeKey]
    }

    /// The theme stored in the persistent domain, or nil when the user never chose one (or it was reset).
    public var storedTheme: Theme? {
        defaults.persistentValue(forKey: Self.key).map(Self.theme(from:))
    }

    /// Stores `theme` as the string of its raw value, committed when this returns.
    /// - Throws: ``DefaultsError`` when the store cannot be written; nothing changes then.
    public func save(_ theme: Theme) throws {
        try defaults.write(.string(theme.rawValue), forKey: Self.key)
    }

    /// Removes the stored theme, so it reads ``Theme/system`` (or an argument's override) again.
    /// - Throws: ``DefaultsError`` when the store cannot be written; nothing changes then.
    public func reset() throws {
        try defaults.write(nil, forKey: Self.key)
    }

    /// The theme a stored value stands for: ``Theme/system`` for anything that is not a known name.
    public static func theme(from value: PreferenceValue?) -> Theme {
        value.flatMap(Theme.init(preferenceValue:)) ?? .system
    }
}
