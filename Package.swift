// swift-tools-version:6.1
import PackageDescription

/// README.md's top-level Swift blocks, each an executable of its own that ReadmeExamples runs.
let readmeSamples = ["Tour", "TypedKeys", "Observation", "Schemas"].map { block in
    (name: "readme-" + block.lowercased(), path: "Tests/ReadmeSamples/" + block)
}

let package = Package(
    name: "LayeredDefaults",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LayeredDefaults", targets: ["LayeredDefaults"]),
        .library(name: "LayeredDefaultsCompatibility", targets: ["LayeredDefaultsCompatibility"]),
        .library(name: "ThemePreferences", targets: ["ThemePreferences"]),
        .library(name: "LayeredDefaultsTesting", targets: ["LayeredDefaultsTesting"]),
        .library(name: "ThemePreferencesTesting", targets: ["ThemePreferencesTesting"]),
        .executable(name: "prefs", targets: ["prefs"]),
        .executable(name: "theme-demo", targets: ["theme-demo"]),
    ],
    targets: [
        // The store and what sits on it.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        // Preference values and their formats (property lists, old-style text, tagged JSON): no store.
        .target(name: "LayeredDefaultsValues"),
        .target(name: "LayeredDefaults", dependencies: ["LayeredDefaultsValues", "CSQLite"]),
        // Foundation's `UserDefaults` names, each a short adapter over the core.
        .target(name: "LayeredDefaultsCompatibility", dependencies: ["LayeredDefaults"]),
        .target(name: "ThemePreferences", dependencies: ["LayeredDefaults"]),
        .target(name: "LayeredDefaultsTesting", dependencies: ["LayeredDefaults", "LayeredDefaultsTestingLoader"]),
        // NB: C, for its load-time constructor: it installs the testing library's guard on `Defaults.standard`.
        .target(name: "LayeredDefaultsTestingLoader"),
        .target(name: "ThemePreferencesTesting", dependencies: ["ThemePreferences", "LayeredDefaultsTesting"]),

        // Executables. ToolSupport ships with prefs; the benchmarks use it too.
        .target(name: "ToolSupport"),
        .executableTarget(name: "prefs", dependencies: ["LayeredDefaults", "LayeredDefaultsCompatibility", "ToolSupport"]),
        .executableTarget(name: "theme-demo", dependencies: ["ThemePreferences", "LayeredDefaults"]),

        // The benchmark and the multi-process soak test: not shipped, so outside Sources/.
        .executableTarget(
            name: "prefs-bench", dependencies: ["LayeredDefaults", "LayeredDefaultsCompatibility", "CSQLite", "ToolSupport"],
            path: "Benchmarks/prefs-bench"),
        .executableTarget(name: "prefs-soak", dependencies: ["LayeredDefaults", "ToolSupport"], path: "Benchmarks/prefs-soak"),

        // Tests.
        .target(name: "PackageTestSupport", dependencies: ["LayeredDefaults", "ToolSupport"], path: "Tests/PackageTestSupport"),
        // The child process of the multi-process tests, found beside them by name (`BuiltProducts`).
        .executableTarget(
            name: "defaults-fixture", dependencies: ["LayeredDefaults", "LayeredDefaultsCompatibility", "CSQLite"],
            path: "Tests/defaults-fixture"),
        .testTarget(
            name: "LayeredDefaultsTests",
            dependencies: [
                "LayeredDefaults", "LayeredDefaultsCompatibility", "LayeredDefaultsTesting", "defaults-fixture",
                "PackageTestSupport",
            ]),
        .testTarget(
            name: "LayeredDefaultsCompatibilityTests",
            dependencies: ["LayeredDefaultsCompatibility", "LayeredDefaults", "LayeredDefaultsTesting", "PackageTestSupport"]),
        .testTarget(
            name: "ThemePreferencesTests",
            dependencies: ["ThemePreferences", "ThemePreferencesTesting", "defaults-fixture", "PackageTestSupport"]),
        .testTarget(
            name: "LayeredDefaultsTestingTests",
            dependencies: [
                "LayeredDefaultsTesting", "LayeredDefaults", "LayeredDefaultsCompatibility", "ThemePreferences",
                "PackageTestSupport",
            ]),
        .testTarget(name: "PrefsTests", dependencies: ["prefs", "LayeredDefaults", "PackageTestSupport"]),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["prefs", "theme-demo", "defaults-fixture", "LayeredDefaults", "CSQLite", "PackageTestSupport"],
            path: "IntegrationTests"),
        .testTarget(
            name: "ReadmeExamples",
            dependencies: ["LayeredDefaults", "PackageTestSupport"]
                + readmeSamples.map { Target.Dependency(stringLiteral: $0.name) }),
        // NB: README.md's Swift blocks, verbatim, one file a module, so that each compiles with only the
        // imports it shows (ReadmeExamples checks them equal to the README and runs them). The manifest
        // block, Tests/ReadmeSamples/Manifest, is a package of its own.
        .testTarget(
            name: "ReadmeTestingSample",
            dependencies: ["LayeredDefaults", "LayeredDefaultsTesting"], path: "Tests/ReadmeSamples/Testing"),
        .testTarget(
            name: "NotesAppExampleTests",
            dependencies: ["LayeredDefaults", "LayeredDefaultsTesting", "defaults-fixture", "PackageTestSupport"]),
        // NB: its Harness/ folder is also compiled into the libFuzzer binaries of scripts/fuzz.sh.
        .testTarget(name: "FuzzRegressionTests", dependencies: ["prefs", "LayeredDefaults"]),
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                "LayeredDefaults", "LayeredDefaultsCompatibility", "defaults-fixture", "prefs-soak", "PackageTestSupport",
                "ToolSupport",
            ]),
    ] + readmeSamples.map { .executableTarget(name: $0.name, dependencies: ["LayeredDefaults"], path: $0.path) },
    swiftLanguageModes: [.v6]
)
