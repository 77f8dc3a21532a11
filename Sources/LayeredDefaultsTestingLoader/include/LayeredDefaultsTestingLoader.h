// LayeredDefaultsTestingLoader has no API: linking it installs the guards on `Defaults.standard` and on
// where `Location.default` resolves when the test process loads (see loader.c).
