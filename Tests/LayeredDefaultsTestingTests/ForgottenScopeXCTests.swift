import LayeredDefaultsCompatibility

#if canImport(XCTest)
    import LayeredDefaults
    import LayeredDefaultsTesting
    import XCTest

    /// Under XCTest, a forgotten scope recommends XCTest's helper, points at the test's own line and is
    /// reported once per test; failures are caught here by overriding `recordFailure`.
    final class ForgottenScopeXCTests: XCTestCase {
        private var failures: [(description: String, file: String, line: Int)] = []

        override func recordFailure(
            withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
        ) {
            failures.append((description, filePath, lineNumber))
        }

        func testAForgottenScopeNamesWithIsolatedDefaultsOnceAtTheTestsLine() throws {
            let line = #line + 1
            let settings = SettingsWithADefaultArgument()
            settings.defaults.set("dark", forKey: "theme")
            _ = try Defaults(suiteName: "com.example.forgotten")
            XCTAssertEqual(settings.defaults.configuration.location, .inMemory)
            let reported = failures
            failures = []
            XCTAssertEqual(reported.count, 1, "once per test: \(reported.map(\.description))")
            let failure = try XCTUnwrap(reported.first)
            XCTAssert(
                failure.description.contains(
                    "`Defaults.standard` was used in a test; inject a store or use `withIsolatedDefaults"))
            XCTAssertFalse(failure.description.contains("`.isolatedDefaults`"), "no Swift Testing trait under XCTest")
            XCTAssert(failure.description.contains("ForgottenScopeXCTests"), "names the test")
            XCTAssertEqual((failure.file as NSString).lastPathComponent, "ForgottenScopeXCTests.swift")
            XCTAssertEqual(failure.line, line, "the test's own line, not the default argument's")
        }

        func testADefaultLocationStoreFromAThreadFailsTheRunningCase() throws {
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var seenByAnotherInstance: PreferenceValue?? = .none
            Thread.detachNewThread {
                defer { done.signal() }
                guard let store = try? Defaults(suiteName: "com.example.thread") else { return }
                try? store.write("dark", forKey: "theme")
                seenByAnotherInstance = try? Defaults(suiteName: "com.example.thread").value(forKey: "theme")
            }
            done.wait()
            let reported = failures
            failures = []
            XCTAssertEqual(seenByAnotherInstance, .some(nil), "memory only: another instance sees nothing")
            XCTAssertEqual(reported.count, 1, "\(reported.map(\.description))")
            XCTAssert(reported.first?.description.contains("A store of the default location (`Location.default`)") == true)
        }
    }
#endif
