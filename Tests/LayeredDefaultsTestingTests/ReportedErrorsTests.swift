import LayeredDefaults
import LayeredDefaultsTesting
import Testing

extension Defaults.Key<Int> {
    fileprivate static let tabWidth = Defaults.Key("tabWidth", default: 4)
    fileprivate static let declaredTabWidth = Defaults.Key("tabWidth", default: 4, summary: "The tab width")
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

    @Test(.isolatedDefaults) func aStoreOpenedInTheScopeWithTheDefaultHandlerReportsToIt() async throws {
        // The README's way: a store of its own suite and schema, the default location and error handler,
        // reading a value its schema refuses (written before the schema applied).
        try Defaults(suiteName: "com.example.reported", configuration: .init(arguments: []))
            .write("wide", forKey: "tabWidth")
        let schema = try PreferenceSchema(suiteName: "com.example.reported", version: 1, keys: .declaredTabWidth)
        let own = try Defaults(suiteName: "com.example.reported", configuration: .init(schema: schema))
        #expect(own[.tabWidth] == 4)
        let afterTheSchemas = IsolatedDefaults.reportedErrors
        #expect(afterTheSchemas.count == 1)
        #expect(afterTheSchemas.first.map { "\($0)".contains("com.example.reported") } == true)

        let elsewhere = try Defaults(
            suiteName: "com.example.elsewhere", configuration: .init(location: .inMemory, arguments: []))
        try elsewhere.write("wide", forKey: "tabWidth")
        async let fromChild = elsewhere[.tabWidth]
        #expect(await fromChild == 4, "a child task of the scope reports to it too")
        #expect(
            IsolatedDefaults.reportedErrors
                == afterTheSchemas + [.mismatchedValue(suite: "com.example.elsewhere", key: "tabWidth", type: "Int")])
    }

    @Test func aStoreOfItsOwnHandlerKeepsItsErrors() throws {
        let kept = Lock<[DefaultsError]>([])
        try withIsolatedDefaults(.inMemory) { _, _ in
            let defaults = try Defaults(
                suiteName: "com.example.handled",
                configuration: .init(location: .inMemory, arguments: []) { error in kept.withLock { $0.append(error) } })
            try defaults.write("wide", forKey: "tabWidth")
            #expect(defaults[.tabWidth] == 4)
            #expect(IsolatedDefaults.reportedErrors.isEmpty)
        }
        #expect(kept.withLock { $0.count } == 1)
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
