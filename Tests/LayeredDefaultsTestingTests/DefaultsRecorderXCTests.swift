import LayeredDefaultsCompatibility

#if canImport(XCTest)
    import LayeredDefaults
    import LayeredDefaultsTesting
    import Testing
    import XCTest

    /// The recorder under XCTest: failures go to `XCTFail`, caught here by overriding `recordFailure`.
    final class DefaultsRecorderXCTests: XCTestCase {
        private var failures: [(description: String, file: String, line: Int)] = []
        private var capturing = false

        override func recordFailure(
            withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
        ) {
            guard capturing else {
                return super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
            }
            failures.append((description, filePath, lineNumber))
        }

        func testAssertedChangesPass() throws {
            XCTAssertNil(Test.current, "no Swift Testing test is running here")
            try withIsolatedDefaults(.inMemory) { defaults, _ in
                let recorder = try DefaultsRecorder(defaults)
                try recorder.assert(during: { try defaults.write("dark", forKey: "theme") }) { $0["theme"] = "dark" }
                recorder.finish()
            }
        }

        func testAnUnassertedWriteFailsThroughXCTFail() throws {
            var finishLine = 0
            try withIsolatedDefaults(.inMemory) { defaults, _ in
                let recorder = try DefaultsRecorder(defaults)
                defaults.set("4111-1111-1111-1111", forKey: "cardNumber")
                capturing = true
                finishLine = #line + 1
                recorder.finish()
                capturing = false
            }
            XCTAssertEqual(failures.count, 1)
            XCTAssertTrue(failures.first?.description.contains("+ \"cardNumber\": string (value not shown)") == true)
            XCTAssertFalse(failures.first?.description.contains("4111") == true)
            XCTAssertTrue(failures.first?.file.hasSuffix("DefaultsRecorderXCTests.swift") == true)
            XCTAssertEqual(failures.first?.line, finishLine)
        }

        func testStandardOutsideAScopeFailsNamingTheCaseAndCallSite() throws {
            capturing = true
            let useLine = #line + 1
            let used = Defaults.standard
            capturing = false
            XCTAssertEqual(failures.count, 1)
            let description = failures.first?.description ?? ""
            XCTAssertTrue(
                description.contains("`Defaults.standard` was used in a test; inject a store or use `withIsolatedDefaults"),
                description)
            XCTAssertTrue(failures.first?.file.hasSuffix("DefaultsRecorderXCTests.swift") == true)
            XCTAssertEqual(failures.first?.line, useLine, "the failure is at the test's line")
            XCTAssertTrue(description.contains("testStandardOutsideAScopeFailsNamingTheCaseAndCallSite"), description)
            XCTAssertTrue(description.contains("DefaultsRecorderXCTests.swift:\(useLine):"), description)
            XCTAssertEqual(used.configuration.location, .inMemory, "the write goes nowhere")
        }

        func testWithIsolatedDefaultsIsStandardInside() throws {
            try withIsolatedDefaults { defaults, _ in
                XCTAssertTrue(Defaults.standard === defaults)
            }
        }
    }
#endif
