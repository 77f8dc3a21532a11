import LayeredDefaults

/// Typed access to the theme preference of a `Defaults` store.
///
/// Creating it never writes, and registers nothing: the typed key's default, ``Theme/system``, is what
/// a missing, mistyped or unknown stored value reads as.
///
/// ```swift
/// let preferences = ThemePreferences(defaults: defaults)
/// try preferences.save(.dark)     // stores the string "dark" in the persistent domain
/// preferences.theme               // .dark; `-theme light` on the command line overrides it
/// try preferences.reset()         // removes the key: reads .system again
/// ```
public struct ThemePreferences: Sendable {
    /// The typed key of the theme, stored as the string `"theme"`: reads as ``Theme/system`` when
    /// nothing usable is stored.
    public static let key = Defaults.Key<Theme>(
        "theme", default: .system, summary: "The colour scheme: the system's appearance, or always light or dark")

    /// The version of ``schema(suiteName:)``: raised whenever the theme's key changes.
    public static let schemaVersion = 1

    /// The schema of the theme's key in `suiteName`, for `Defaults.Domain.installSchema(_:)`: its
    /// choices `system`, `light`, `dark` and its default, `system`, for `prefs describe` and the refusal
    /// of `prefs write` outside them.
    /// - Throws: `DefaultsError.invalidSuiteName(_:)` for an invalid suite name.
    public static func schema(suiteName: String) throws -> PreferenceSchema {
        try PreferenceSchema(suiteName: suiteName, version: schemaVersion, keys: key)
    }

    /// The store this wrapper reads and writes.
    public let defaults: Defaults

    /// Wraps `defaults`.
    /// - Parameter defaults: the store to use; inject one (tests use an in-memory or isolated store).
    public init(defaults: Defaults = .standard) {
        self.defaults = defaults
    }

    /// The theme found by the search list (an argument `-theme light` wins); ``Theme/system`` when the
    /// value is missing, not a string, or not one of `system`, `light`, `dark`, or when the store
    /// cannot be read (the error goes to the store's error handler).
    public var theme: Theme {
        defaults[Self.key]
    }

    /// The theme stored in the persistent domain, or nil when the user never chose one (or it was
    /// reset); a stored value that is not a known theme reads as ``Theme/system``.
    /// - Throws: `DefaultsError` when the store cannot be read.
    public var storedTheme: Theme? {
        get throws { try defaults.persistentValue(forKey: Self.key.name).map { Theme(preferenceValue: $0) ?? .system } }
    }

    /// Stores `theme`, committed when this returns.
    /// - Throws: `DefaultsError` when the store cannot be written; nothing changes then.
    public func save(_ theme: Theme) throws {
        try defaults.write(theme, for: Self.key)
    }

    /// Removes the stored theme, so it reads ``Theme/system`` (or an argument's override) again.
    /// - Throws: `DefaultsError` when the store cannot be written; nothing changes then.
    public func reset() throws {
        try defaults.reset(Self.key)
    }
}
