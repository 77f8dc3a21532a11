// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "MyApp",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../LayeredDefaults")  // or .package(url: "<its git URL>", branch: "main")
    ],
    targets: [
        .target(
            name: "MyApp",
            dependencies: [
                .product(name: "LayeredDefaults", package: "LayeredDefaults"),
                .product(name: "ThemePreferences", package: "LayeredDefaults"),
                .product(name: "LayeredDefaultsCompatibility", package: "LayeredDefaults"),
            ]),
        .testTarget(
            name: "MyAppTests",
            dependencies: [
                "MyApp",
                .product(name: "LayeredDefaultsTesting", package: "LayeredDefaults"),
                .product(name: "ThemePreferencesTesting", package: "LayeredDefaults"),
            ]),
    ]
)
