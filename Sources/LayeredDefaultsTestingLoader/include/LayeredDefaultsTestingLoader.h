// LayeredDefaultsTestingLoader has no API: linking it installs the guard on `Defaults.standard` when the
// test process loads (see loader.c).
