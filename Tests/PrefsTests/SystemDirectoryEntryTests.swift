import Foundation
import LayeredDefaults
import PackageTestSupport
import Testing

@testable import prefs

/// An `$XDG_CONFIG_DIRS` entry that cannot name anything holds no layer and no schema: every command
/// works as without it and prints nothing about it. Before, an entry that was a symbolic link to itself
/// (ELOOP) or held a component over 255 bytes (ENAMETOOLONG) failed every write of every domain (exit 3,
/// `Cannot lstat '<entry>/layered-defaults/managed/<d>.sqlite3'`), and a regular file or a FIFO warned
/// `Cannot open '<entry>/layered-defaults/schemas/<d>.json': Not a directory` at every command.
@Suite struct SystemDirectoryEntryTests {
    /// What the entry is.
    enum Entry: String, CaseIterable {
        case symbolicLinkToItself, componentTooLong, regularFile, fifo, missing
    }

    /// Makes the entry of `kind` under `root` and returns its path.
    private func make(_ kind: Entry, in root: URL) throws -> String {
        let path = root.appendingPathComponent("entry").path
        switch kind {
        case .symbolicLinkToItself: #expect(symlink(path, path) == 0)
        case .componentTooLong: return root.appendingPathComponent(String(repeating: "x", count: 256)).path
        case .regularFile: #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        case .fifo: #expect(mkfifo(path, 0o600) == 0)
        case .missing: break
        }
        return path
    }

    @Test(arguments: Entry.allCases) func anEntryThatNamesNothingHoldsNoLayerAndPrintsNothing(_ kind: Entry) throws {
        try withTemporaryRoot { root in
            let entry = try make(kind, in: root)
            let user = root.appendingPathComponent("user")
            func prefs(_ arguments: String...) -> RunResult {
                let capture = CapturingConsole()
                let status = Prefs.run(
                    arguments, environment: ["LAYERED_DEFAULTS_HOME": user.path, "XDG_CONFIG_DIRS": entry],
                    console: capture.console)
                return RunResult(status: status, output: capture.output, error: capture.error, errorLines: capture.errorLines)
            }
            let write = prefs("write", "app", "k", "v")
            #expect(write.status == .success)
            #expect(write.errorLines == [])
            let read = prefs("read", "app", "k")
            #expect(read.status == .success)
            #expect(read.output == "v\n")
            #expect(read.errorLines == [])
            #expect(prefs("write", "-g", "k", "1").errorLines == [])
            #expect(
                try Defaults(
                    suiteName: "app", configuration: .init(location: .directory(user), arguments: [], systemDirectories: [])
                )
                .persistentValues() == ["k": "v"])
        }
    }

    /// The same through the library: a store whose system directories name nothing writes, reports no
    /// error, and finds no installed schema.
    @Test(arguments: Entry.allCases) func aStoreIgnoresAnEntryThatNamesNothing(_ kind: Entry) throws {
        try withTemporaryRoot { root in
            let entry = URL(fileURLWithPath: try make(kind, in: root))
            let user = root.appendingPathComponent("user")
            let reported = Lock<[String]>([])
            var configuration = Defaults.Configuration(location: .directory(user), arguments: [], systemDirectories: [entry])
            configuration.errorHandler = { error in reported.withLock { $0.append("\(error)") } }
            let defaults = try Defaults(suiteName: "app", configuration: configuration)
            try defaults.write("v", forKey: "k")
            #expect(try defaults.value(forKey: "k") == "v")
            #expect(try Defaults.Domain("app", location: .directory(user), systemDirectories: [entry]).installedSchema() == nil)
            #expect(reported.withLock { $0 } == [])
        }
    }
}
