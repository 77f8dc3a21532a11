import Foundation
import Testing

extension Trait where Self == TimeLimitTrait {
    /// The time a test of the suite may take before it fails as hung: `minutes`, or ten times that in a
    /// build with ThreadSanitizer or AddressSanitizer (e.g. `scripts/check-races.sh`).
    ///
    /// NB: Swift Testing's clock also counts the time a test waits for one of the cooperative pool's
    /// threads (one a core, and the tests' blocking work holds them), so a limit bounds the whole run
    /// as much as the test. A sanitizer makes the whole run about three and a half times slower: under
    /// one, tests that are not slow passed a minute waiting for the others.
    public static func hangLimit(minutes: Int) -> Self {
        .timeLimit(.minutes(isSanitized ? minutes * 10 : minutes))
    }
}

/// Whether this process was built with a sanitizer: its runtime, linked into the executable, exports
/// its entry point.
private let isSanitized: Bool = {
    let executable = dlopen(nil, RTLD_NOW)
    defer { if let executable { dlclose(executable) } }
    let entryPoints: [String] = ["__tsan_init", "__asan_init"]
    return entryPoints.contains { dlsym(executable, $0) != nil }
}()
