// Runs when the test process loads, before any test: installs LayeredDefaultsTesting's guards on
// `Defaults.standard` and on where `Location.default` resolves, so a test that never calls the testing
// library is guarded too.
#include "LayeredDefaultsTestingLoader.h"

// Defined in Swift by LayeredDefaultsTesting (TestProcessGuards.swift), with @_cdecl.
extern void layered_defaults_testing_install_guards(void);

__attribute__((constructor)) static void layered_defaults_testing_load(void) {
    layered_defaults_testing_install_guards();
}
