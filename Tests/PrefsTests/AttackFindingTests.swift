import Foundation
import LayeredDefaults
import Testing
@testable import prefs

/// Findings of a hostile test pass: each test fails on the code it was written against.
@Suite struct AttackFindingTests {
    /// An import whose JSON holds two canonically equivalent keys (NFC and NFD "é") keeps the first and
    /// silently drops the other's value, with success; it should be refused, changing nothing.
    @Test func importWithCanonicallyEquivalentKeysIsRefused() throws {
        try withTestRoot { root throws in
            root.prefs("write", "app", "keep", "v")
            let json = Data("{\"\u{E9}\":{\"string\":\"one\"},\"e\u{301}\":{\"string\":\"two\"}}".utf8)
            let result = root.prefs("import", "app", "-", input: json)
            #expect(result.status == .usage)
            #expect(try root.stored("app") == ["keep": "v"])
        }
    }
}
