import Foundation

/// The package's built executables (`defaults-fixture`, `prefs`, `theme-demo`, `prefs-soak`), which
/// SwiftPM puts next to the running test bundle: the multi-process tests launch them as children.
public enum BuiltProducts {
    /// The directory holding the built products.
    public static let directory: URL = {
        #if os(macOS)
            for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                return bundle.bundleURL.deletingLastPathComponent()
            }
            fatalError("no test bundle")
        #else
            return Bundle.main.bundleURL
        #endif
    }()

    /// The built executable `product`.
    public static func url(of product: String) -> URL {
        directory.appendingPathComponent(product)
    }
}
