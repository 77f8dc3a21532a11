// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "LayeredDefaults",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LayeredDefaults", targets: ["LayeredDefaults"]),
        .library(name: "ThemePreferences", targets: ["ThemePreferences"]),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .target(name: "LayeredDefaults", dependencies: ["CSQLite"]),
        .target(name: "ThemePreferences", dependencies: ["LayeredDefaults"]),
        .executableTarget(name: "defaults-fixture", dependencies: ["LayeredDefaults"]),
        .executableTarget(name: "prefs-bench", dependencies: ["LayeredDefaults", "CSQLite"]),
        .testTarget(name: "LayeredDefaultsTests", dependencies: ["LayeredDefaults", "defaults-fixture"]),
        .testTarget(name: "ThemePreferencesTests", dependencies: ["ThemePreferences"]),
    ],
    swiftLanguageModes: [.v6]
)
