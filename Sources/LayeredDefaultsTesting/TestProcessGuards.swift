import LayeredDefaults

#if canImport(XCTest)
    import XCTest
#endif

/// Installs the guards of a test process: on `Defaults.standard` (``StandardGuard``) and on where
/// `Location.default` resolves (``DefaultLocationGuard``); called once when the process loads, before any
/// test (see `LayeredDefaultsTestingLoader`).
@_cdecl("layered_defaults_testing_install_guards")
func installTestProcessGuards() {
    CallerFrame.captureImagesAtLoad()
    Defaults.installStandardGuard(StandardGuard.replacement)
    DefaultLocationResolver.install(DefaultLocationGuard.resolver)
    #if canImport(XCTest)
        XCTestObservationCenter.shared.addTestObserver(XCTestCaseTracker.shared)
    #endif
}
