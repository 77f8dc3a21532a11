import LayeredDefaults

#if canImport(XCTest)
    import XCTest
#endif

/// Installs the guards of a test process: on `Defaults.standard` (``StandardGuard``) and on where
/// `Location.default` resolves (``DefaultLocationGuard``) and on the default error handler (to the scope's
/// collector); called once when the process loads, before any
/// test (see `LayeredDefaultsTestingLoader`).
@_cdecl("layered_defaults_testing_install_guards")
func installTestProcessGuards() {
    CallerFrame.captureImagesAtLoad()
    Defaults.installStandardGuard(StandardGuard.replacement)
    DefaultLocationResolver.install(DefaultLocationGuard.resolver)
    // A store opened inside a scope with the default error handler reports to the scope's collector.
    Defaults.installDefaultErrorRoute { IsolatedScope.current?.errors.record }
    #if canImport(XCTest)
        XCTestObservationCenter.shared.addTestObserver(XCTestCaseTracker.shared)
    #endif
}
