import Foundation
import LayeredDefaults
import Testing

#if canImport(XCTest)
    import XCTest
#endif

/// The test running now, as far as the test frameworks tell.
struct RunningTest: Sendable {
    /// The framework a test runs under: it decides which isolation helper a message recommends.
    enum Framework: Sendable {
        case swiftTesting
        case xcTest
    }

    /// The test's name.
    let name: String
    /// Where a failure about it is reported when no better place is known: the test's declaration.
    let site: CallSite
    /// Which framework runs it.
    let framework: Framework
    /// Tells this run of the test from every other: what "once per test" counts by.
    let identity: String
    /// The file the test is declared in, when known: its own lines are the best place for a failure.
    let filePath: String?
    /// The name its function has in a backtrace's symbols (`Type.method(`), when that is how it is told.
    let symbolPrefix: String?

    /// The Swift Testing test of the calling task, else the XCTest case running in the process, else nil.
    static var current: RunningTest? {
        if let test = Test.current {
            let location = test.sourceLocation
            return RunningTest(
                name: test.name, site: CallSite(fileID: "", filePath: "", line: 0, column: 0, runtimeLocation: location),
                framework: .swiftTesting, identity: "swift-testing:\(test.id)", filePath: location.filePath,
                symbolPrefix: nil)
        }
        #if canImport(XCTest)
            return XCTestCaseTracker.shared.current
        #else
            return nil
        #endif
    }
}

#if canImport(XCTest)
    /// Follows XCTest's cases through its observation center: the case running now, if any.
    final class XCTestCaseTracker: NSObject, XCTestObservation, Sendable {
        static let shared = XCTestCaseTracker()

        /// The running case and what is known of it.
        ///
        /// NB: unchecked, for the XCTestCase, which is not Sendable: it is only asked to record a failure,
        /// as XCTFail asks it from whatever thread calls XCTFail.
        private struct Running: @unchecked Sendable {
            let testCase: XCTestCase
            let test: RunningTest
        }
        private let running = Lock<Running?>(nil)
        /// How many cases have started: each run of a case is told apart by it.
        private let started = Lock(0)

        var current: RunningTest? { running.withLock { $0?.test } }

        func testCaseWillStart(_ testCase: XCTestCase) {
            let serial = started.withLock {
                $0 += 1
                return $0
            }
            // NB: XCTest does not say where a case is declared: its failure names the case, at no line,
            // unless a frame of the case's own method is found in the call stack (see `CallerFrame`).
            // Its name is `Class.method` on Linux, `-[Class method]` on Apple platforms.
            let words = testCase.name.split(whereSeparator: { " .[]-".contains($0) })
            let test = RunningTest(
                name: testCase.name, site: CallSite(fileID: "", filePath: "", line: 0, column: 0), framework: .xcTest,
                identity: "xctest:\(serial):\(testCase.name)", filePath: nil,
                symbolPrefix: words.count >= 2 ? "\(words[words.count - 2]).\(words[words.count - 1])(" : nil)
            running.withLock { $0 = Running(testCase: testCase, test: test) }
        }

        func testCaseDidFinish(_ testCase: XCTestCase) {
            running.withLock { $0 = nil }
        }

        /// Records `message` as a failure of the running case at `location`; false when no case runs.
        func recordFailure(_ message: String, at location: SourceLocation) -> Bool {
            guard let testCase = running.withLock({ $0?.testCase }) else { return false }
            #if os(Linux)
                testCase.recordFailure(withDescription: message, inFile: location.filePath, atLine: location.line, expected: true)
            #else
                // NB: XCTFail takes a static file name; the location goes into the message instead.
                XCTFail("\(message) (at \(location.filePath):\(location.line))")
            #endif
            return true
        }
    }
#endif
