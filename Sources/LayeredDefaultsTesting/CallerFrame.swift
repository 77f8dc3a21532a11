import Foundation
import Testing

#if canImport(Runtime)
    import Runtime
#endif

/// The frame of the call stack a report about a forgotten scope points at, found by symbolicating a
/// backtrace: where the test's own code made the call, and which door of the library it went through.
struct CallerFrame: Sendable {
    /// The function that made the call, as the symbol names it.
    let function: String
    /// Where that function made it.
    let location: SourceLocation
    /// The library's entry point it called, e.g. `Defaults.repair(suiteName:location:)`, when known.
    let door: String?

    /// The frame of `test`'s own code that led here: the first frame in the test's file (Swift Testing;
    /// at the test's declaration when that frame has no line) or of the test's method (XCTest); else the
    /// first frame outside this package's libraries. Nil when the binary has no debug information.
    static func find(for test: RunningTest?) -> CallerFrame? {
        #if canImport(Runtime)
            #if os(Linux)
                let backtrace = try? Backtrace.capture(limit: 64, images: images).symbolicated(with: images)
            #else
                guard #available(macOS 26, *) else { return nil }
                let backtrace = try? Backtrace.capture(limit: 64).symbolicated()
            #endif
            guard let frames = backtrace?.frames else { return nil }
            var door: String?
            var outside: CallerFrame?
            for frame in frames {
                guard let symbol = frame.symbol, let source = symbol.sourceLocation else { continue }
                // NB: code the compiler made (a default argument's generator, ...) has line 0: no place to point at.
                // The test's own frame has line 0 too where it calls an initializer's default argument (the
                // call takes the argument's place, in the app's file): the test's declaration is then the
                // nearest place known in the test's file, nearer than the argument's line in the app.
                guard source.line > 0 else {
                    if let test, test.filePath == source.path, let declaration = test.site.runtimeLocation {
                        return CallerFrame(function: symbol.name, location: declaration, door: door)
                    }
                    continue
                }
                let path = source.path
                if path.contains("/Sources/LayeredDefaultsTesting/") { continue }
                if path.contains("/Sources/LayeredDefaults/") {
                    // NB: the outermost frame of the core before the caller's is the entry point it called;
                    // for an initializer that is its allocating entry point, which counts as a thunk.
                    if outside == nil { door = entryPoint(symbol.name) }
                    continue
                }
                if frame.isSwiftThunk { continue }
                let file = (path as NSString).lastPathComponent
                // NB: a SwiftPM target's sources sit in a directory named for it: the best guess at the module.
                let module = ((path as NSString).deletingLastPathComponent as NSString).lastPathComponent
                let found = CallerFrame(
                    function: symbol.name,
                    location: SourceLocation(
                        fileID: "\(module)/\(file)", filePath: path, line: source.line, column: max(source.column, 1)),
                    door: door)
                if outside == nil { outside = found }
                guard let test else { break }
                if path == test.filePath || test.symbolPrefix.map(symbol.name.contains) == true { return found }
            }
            return outside
        #else
            return nil
        #endif
    }

    /// A demangled symbol's name as Swift code calls it: `Defaults.repair(suiteName:location:)` for
    /// `static LayeredDefaults.Defaults.repair(suiteName: Swift.String, location: ...) throws -> ...`, and
    /// `Defaults.init(suiteName:configuration:)` for `Defaults.__allocating_init(suiteName:configuration:)`.
    static func entryPoint(_ symbol: String) -> String {
        var name = Substring(symbol)
        for prefix in ["static ", "LayeredDefaults."] where name.hasPrefix(prefix) { name = name.dropFirst(prefix.count) }
        if let range = name.range(of: ".__allocating_init(") {
            name = name[..<range.lowerBound] + ".init(" + name[range.upperBound...]
        }
        guard let open = name.firstIndex(of: "(") else { return String(name) }
        var labels = ""
        var depth = 0
        var word = ""
        for character in name[name.index(after: open)...] {
            if "(<[".contains(character) {
                depth += 1
            } else if ")>]".contains(character) {
                if depth == 0 { return String(name[..<open]) + "(" + labels + ")" }
                depth -= 1
            } else if depth == 0 && character == ":" {
                // NB: `_ name: Type` is called `_:`; the external label is the first word.
                labels += (word.split(separator: " ").first.map(String.init) ?? "_") + ":"
                word = ""
            } else if depth == 0 && character == "," {
                word = ""
            } else if depth == 0 {
                word.append(character)
            }
        }
        return String(name[..<open])
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
}
