import LayeredDefaults

/// The app's colour scheme preference, stored as its raw value (`"system"`, `"light"`, `"dark"`).
public enum Theme: String, Sendable, Hashable, CaseIterable, Codable, PreferenceRepresentable {
    /// Follow the system's appearance. What any missing, mistyped or unknown stored value reads as.
    case system
    /// Always light.
    case light
    /// Always dark.
    case dark
}
