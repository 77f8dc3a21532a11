import Testing
@testable import prefs
@Suite struct Placeholder { @Test func builds() { #expect(Prefs.commands.count == 11) } }
