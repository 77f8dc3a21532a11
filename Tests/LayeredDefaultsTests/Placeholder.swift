import Testing
@testable import LayeredDefaults
@Test func placeholder() {}
