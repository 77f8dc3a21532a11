import Foundation
import LayeredDefaults
import Testing

#if canImport(XCTest)
    import XCTest
#endif
#if canImport(Runtime)
    import Runtime
#endif

/// The guard on `Defaults.standard` in a test process: outside an isolated scope, `standard` is never the
/// real store but a throwaway in-memory one, and while a test runs, using it fails that test.
///
/// It is installed when the process loads (by the C target `LayeredDefaultsTestingLoader`), so every test
/// process that links `LayeredDefaultsTesting` is guarded, even a test that never calls it. "A test runs"
/// means: a Swift Testing test runs on the calling task (`Test.current`), or an XCTest case runs in the
/// process. A use where neither is known (a Swift Testing test's detached task or thread of its own while
/// no XCTest case runs, code run before or after the tests) still gets an in-memory store, and a line on
/// standard error instead of a test failure. A test process that does not link this library is not guarded.
enum StandardGuard {
    /// What a test failure says when it used `Defaults.standard` outside an isolated scope.
    static let message = "`Defaults.standard` was used in a test; inject a store or use `.isolatedDefaults`"

    /// The store `Defaults.standard` is outside an isolated scope: a fresh in-memory store, after
    /// reporting the use to the running test (or, when no running test is known, to standard error).
    @Sendable static func replacement() -> Defaults? {
        let caller = callSite()
        let place = caller.map { ", called from \($0.function) at \($0.location)" } ?? ""
        if let test = RunningTest.current {
            var site = test.site
            if let location = caller?.location { site.runtimeLocation = location }
            IssueReporter.live.fail(message + " (test \(test.name)\(place))", site)
        } else {
            FileHandle.standardError.write(
                Data(
                    ("LayeredDefaultsTesting: `Defaults.standard` was used outside an isolated scope "
                        + "where no running test is known\(place); it is a throwaway in-memory store\n").utf8))
        }
        // NB: a fresh domain each time, of no file: the write goes nowhere the user or the next test sees.
        do {
            return try Defaults(
                suiteName: IsolatedDefaults.makeSuiteName(prefix: IsolatedDefaults.suiteNamePrefix),
                configuration: .init(location: .inMemory, arguments: [], systemDirectories: []))
        } catch {
            // NB: nil would mean the real store; an in-memory store of a valid name cannot fail to open.
            fatalError("LayeredDefaultsTesting could not open an in-memory store in place of Defaults.standard: \(error)")
        }
    }

    #if canImport(Runtime) && os(Linux)
        /// The images of the process, captured once by ``captureImagesAtLoad()``, for every backtrace.
        ///
        /// NB: on Linux, capturing images probes the start of every mapped file, and crashes the process
        /// when another thread unmaps one meanwhile, as SQLite does whenever a connection closes
        /// (swiftlang/swift#92089; a test process crashed so in 2 of 52 runs). Captured when the process
        /// loads, no other thread runs; the tests' code is in the executable, mapped by then.
        private static let images = ImageMap.capture()
    #endif

    /// Captures the process's images now (on Linux; elsewhere capturing them is safe at any time).
    static func captureImagesAtLoad() {
        #if canImport(Runtime) && os(Linux)
            _ = images
        #endif
    }

    /// The function and line that used `Defaults.standard`: the first frame of the call stack, with a
    /// source location, outside this package's libraries. Nil when the binary has no debug information.
    private static func callSite() -> (function: String, location: SourceLocation)? {
        #if canImport(Runtime)
            #if os(Linux)
                let backtrace = try? Backtrace.capture(limit: 48, images: images).symbolicated(with: images)
            #else
                guard #available(macOS 26, *) else { return nil }
                let backtrace = try? Backtrace.capture(limit: 48).symbolicated()
            #endif
            guard let frames = backtrace?.frames else { return nil }
            for frame in frames where !frame.isSwiftThunk {
                guard let symbol = frame.symbol, let location = symbol.sourceLocation else { continue }
                let path = location.path
                if path.contains("/Sources/LayeredDefaults/") || path.contains("/Sources/LayeredDefaultsTesting/") { continue }
                let file = (path as NSString).lastPathComponent
                // NB: a SwiftPM target's sources sit in a directory named for it: the best guess at the module.
                let module = ((path as NSString).deletingLastPathComponent as NSString).lastPathComponent
                return (
                    symbol.name,
                    SourceLocation(
                        fileID: "\(module)/\(file)", filePath: path, line: location.line, column: max(location.column, 1))
                )
            }
        #endif
        return nil
    }
}

/// The test running now, as far as the test frameworks tell.
struct RunningTest: Sendable {
    /// The test's name.
    let name: String
    /// Where a failure about it is reported: the test's declaration.
    let site: CallSite

    /// The Swift Testing test of the calling task, else the XCTest case running in the process, else nil.
    static var current: RunningTest? {
        if let test = Test.current {
            let location = test.sourceLocation
            return RunningTest(
                name: test.name, site: CallSite(fileID: "", filePath: "", line: 0, column: 0, runtimeLocation: location))
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
        private let running = Lock<RunningTest?>(nil)

        var current: RunningTest? { running.withLock { $0 } }

        func testCaseWillStart(_ testCase: XCTestCase) {
            // NB: XCTest does not say where a case is declared: its failure names the case, at no line.
            let test = RunningTest(name: testCase.name, site: CallSite(fileID: "", filePath: "", line: 0, column: 0))
            running.withLock { $0 = test }
        }

        func testCaseDidFinish(_ testCase: XCTestCase) {
            running.withLock { $0 = nil }
        }
    }
#endif

/// Installs the guard; called once when the process loads (see `LayeredDefaultsTestingLoader`).
@_cdecl("layered_defaults_testing_install_standard_guard")
func installStandardGuard() {
    StandardGuard.captureImagesAtLoad()
    Defaults.installStandardGuard(StandardGuard.replacement)
    #if canImport(XCTest)
        XCTestObservationCenter.shared.addTestObserver(XCTestCaseTracker.shared)
    #endif
}
