/// The app's colour scheme preference.
public enum Theme: String, Sendable, Hashable, CaseIterable, Codable {
    /// Follow the system's appearance. What any missing, mistyped or unknown stored value reads as.
    case system
    /// Always light.
    case light
    /// Always dark.
    case dark
}
