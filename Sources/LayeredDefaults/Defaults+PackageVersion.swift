extension Defaults {
    /// The version of the LayeredDefaults package this library was built from, in semantic-versioning
    /// form (`major.minor.patch`).
    ///
    /// It is the package's one version: `prefs --version` prints it, and it is the latest release
    /// heading of the package's `CHANGELOG.md` (a test checks both).
    ///
    /// ```swift
    /// print("LayeredDefaults", Defaults.packageVersion)  // LayeredDefaults 0.2.0
    /// ```
    public static let packageVersion = "0.2.0"
}
