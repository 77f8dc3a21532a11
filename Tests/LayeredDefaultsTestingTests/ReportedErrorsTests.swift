import LayeredDefaults
import LayeredDefaultsTesting
import Testing

extension Defaults.Key<Int> {
    fileprivate static let tabWidth = Defaults.Key("tabWidth", default: 4)
}

/// The isolation helpers collect what their store reports to its error handler, for the test to check.
@Suite struct ReportedErrorsTests {
    /// Stores a value of another type under `tabWidth` and reads it typed: one reported error.
    private func readAMismatchedValue(_ defaults: Defaults) throws -> [DefaultsError] {
        try defaults.write("wide", forKey: "tabWidth")
        #expect(defaults[.tabWidth] == 4)
        return [.mismatchedValue(suite: defaults.suiteName, key: "tabWidth", type: "Int")]
    }

    @Test(.isolatedDefaults) func theTraitCollectsTheStoresErrors() throws {
        #expect(IsolatedDefaults.reportedErrors.isEmpty)
        let expected = try readAMismatchedValue(.standard)
        #expect(IsolatedDefaults.reportedErrors == expected)
    }

    @Test(.isolatedDefaults(.inMemory)) func theInMemoryTraitCollectsThemToo() throws {
        let expected = try readAMismatchedValue(.standard)
        #expect(IsolatedDefaults.reportedErrors == expected)
    }

    @Test func theHelpersCollectTheirStoresErrors() async throws {
        try withIsolatedDefaults { defaults, _ in
            let expected = try readAMismatchedValue(defaults)
            #expect(IsolatedDefaults.reportedErrors == expected)
        }
        try withIsolatedDefaults(.inMemory) { defaults, _ in
            let expected = try readAMismatchedValue(defaults)
            #expect(IsolatedDefaults.reportedErrors == expected)
        }
        try await withIsolatedDefaults { defaults, _ in
            let expected = try readAMismatchedValue(defaults)
            async let fromChild = IsolatedDefaults.reportedErrors
            #expect(await fromChild == expected, "a child task reads the scope's")
        }
    }

    @Test func eachScopeHasItsOwn() throws {
        try withIsolatedDefaults(.inMemory) { outer, _ in
            let expected = try readAMismatchedValue(outer)
            try withIsolatedDefaults(.inMemory) { _, _ in #expect(IsolatedDefaults.reportedErrors.isEmpty) }
            #expect(IsolatedDefaults.reportedErrors == expected)
        }
    }

    @Test func readingThemOutsideAScopeFailsTheTest() {
        var read: [DefaultsError]?
        let log = expectIssues { read = IsolatedDefaults.reportedErrors }
        #expect(read == [])
        #expect(
            log.messages == [
                "`IsolatedDefaults.reportedErrors` was read outside an isolated scope; read it inside `.isolatedDefaults` or `withIsolatedDefaults`"
            ])
    }
}
