import Foundation
import Testing

#if canImport(XCTest)
    import XCTest
#endif

/// Where a test tool was called from: the call site a failure points at.
struct CallSite: Sendable {
    var fileID: StaticString
    var filePath: StaticString
    var line: UInt
    var column: UInt
    /// A site known only at run time (a test's declaration, from `Test.current`): Swift Testing reports
    /// there, and the static parts above are empty.
    var runtimeLocation: SourceLocation? = nil

    /// The call site as Swift Testing's source location.
    ///
    /// NB: Swift Testing traps on a location of no file or line; a site that has none (a running XCTest
    /// case's, when it finished meanwhile) is reported here instead.
    var sourceLocation: SourceLocation {
        if let runtimeLocation { return runtimeLocation }
        guard "\(fileID)".contains("/"), line > 0 else {
            return SourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
        }
        return SourceLocation(fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: max(Int(column), 1))
    }
}

extension CallSite {
    /// A site known, if at all, only at run time: `location`, else nowhere in particular.
    init(unknownAt location: SourceLocation?) {
        self.init(fileID: "", filePath: "", line: 0, column: 0, runtimeLocation: location)
    }
}

/// How the test tools fail the running test: Swift Testing when a Swift Testing test is running,
/// XCTest otherwise (when it is available).
struct IssueReporter: Sendable {
    /// Fails the running test with `message`, pointing at the call site.
    var fail: @Sendable (_ message: String, _ site: CallSite) -> Void
    /// Shows `message` without failing: a known issue in Swift Testing, a line on standard output otherwise.
    var note: @Sendable (_ message: String, _ site: CallSite) -> Void

    /// Reports to the test framework that is running.
    static let live = IssueReporter(
        fail: { message, site in
            // NB: `Test.current` is a task-local value, set while a Swift Testing test runs on this task.
            if Test.current != nil {
                Issue.record(Comment(rawValue: message), sourceLocation: site.sourceLocation)
                return
            }
            #if canImport(XCTest)
                if let location = site.runtimeLocation {
                    if XCTestCaseTracker.shared.recordFailure(message, at: location) { return }
                } else if XCTestCaseTracker.shared.current != nil {
                    XCTFail(message, file: site.filePath, line: site.line)
                    return
                }
            #endif
            // NB: off a Swift Testing test's task (a detached task, another thread) `Test.current` is nil
            // too: the issue then belongs to the Swift Testing run, if one is active (else it is dropped).
            Issue.record(Comment(rawValue: message), sourceLocation: site.sourceLocation)
        },
        note: { message, site in
            if Test.current != nil {
                withKnownIssue(Comment(rawValue: "Skipped assertions (exhaustivity is off)"), sourceLocation: site.sourceLocation)
                {
                    Issue.record(Comment(rawValue: message), sourceLocation: site.sourceLocation)
                }
                return
            }
            // NB: XCTest on Linux has no XCTExpectFailure; printing is what is left.
            print("\(site.filePath):\(site.line): \(message)")
        }
    )
}

/// Fails the running test with `message`: a Swift Testing `Issue` while a Swift Testing test runs,
/// else `XCTFail`. For test doubles of your own (e.g. an unimplemented client's closures).
/// - Parameters:
///   - message: what went wrong; name the closure or call that should not have happened.
///   - fileID: the file the failure is reported in: pass your caller's, so it points at the test.
///   - filePath: the file path the failure is reported in.
///   - line: the line the failure is reported at.
///   - column: the column the failure is reported at.
public func reportTestFailure(
    _ message: String,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    IssueReporter.live.fail(message, CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Fails the running test with `message`, pointing at the running test's declaration: for a test double
/// reached through a property (`MyClient.unimplemented`), which cannot know its caller's line. Falls back
/// to the given site when no running test is known.
/// - Parameters:
///   - message: what went wrong; name the closure or call that should not have happened.
///   - fallbackFileID: the file the failure is reported in when no running test is known.
///   - fallbackFilePath: the file path the failure is reported in when no running test is known.
///   - line: the line the failure is reported at when no running test is known.
///   - column: the column the failure is reported at when no running test is known.
public func reportTestFailureAtRunningTest(
    _ message: String,
    fallbackFileID: StaticString = #fileID, fallbackFilePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    let site =
        RunningTest.current?.site ?? CallSite(fileID: fallbackFileID, filePath: fallbackFilePath, line: line, column: column)
    IssueReporter.live.fail(message, site)
}
