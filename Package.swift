// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "LayeredDefaults",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LayeredDefaults", targets: ["LayeredDefaults"]),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .target(name: "LayeredDefaults", dependencies: ["CSQLite"]),
        .executableTarget(name: "defaults-fixture", dependencies: ["LayeredDefaults"]),
        .testTarget(name: "LayeredDefaultsTests", dependencies: ["LayeredDefaults", "defaults-fixture"]),
    ],
    swiftLanguageModes: [.v6]
)
