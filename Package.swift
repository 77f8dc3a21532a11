// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "LayeredDefaults",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LayeredDefaults", targets: ["LayeredDefaults"]),
        .library(name: "ThemePreferences", targets: ["ThemePreferences"]),
        .library(name: "LayeredDefaultsTesting", targets: ["LayeredDefaultsTesting"]),
        .library(name: "ThemePreferencesTesting", targets: ["ThemePreferencesTesting"]),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .target(name: "LayeredDefaults", dependencies: ["CSQLite"]),
        .target(name: "ThemePreferences", dependencies: ["LayeredDefaults"]),
        .target(name: "ThemePreferencesTesting", dependencies: ["ThemePreferences", "LayeredDefaultsTesting"]),
        .executableTarget(name: "defaults-fixture", dependencies: ["LayeredDefaults"]),
        .testTarget(name: "LayeredDefaultsTests", dependencies: ["LayeredDefaults", "defaults-fixture"]),
        .testTarget(name: "ThemePreferencesTests", dependencies: ["ThemePreferences", "ThemePreferencesTesting", "defaults-fixture"]),
        .target(name: "LayeredDefaultsTesting", dependencies: ["LayeredDefaults"]),
        .testTarget(name: "LayeredDefaultsTestingTests", dependencies: ["LayeredDefaultsTesting", "LayeredDefaults"]),
    ],
    swiftLanguageModes: [.v6]
)
