import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// Where a store's directory cannot be watched (no inotify, or, as here, a directory its process may
/// not read: `inotify_add_watch` needs read permission), an observer in another process still sees each
/// commit, by looks every 100 ms.
///
/// The observer is a child that drops to an unprivileged user when the tests run as root, since root
/// ignores file permissions.
@Suite(.hangLimit(minutes: 1))
struct UnwatchableDirectoryTests {
    let options = Unprivileged.fixtureOptions

    @Test(.reachableByAnUnprivilegedChild) func anObserverOfADirectoryItCannotWatchSeesAnotherProcessesCommits() throws {
        try Unprivileged.withRoot { root in
            Unprivileged.handOver(root)
            let store = root.appendingPathComponent("store")
            #expect(try runFixture(store, "app", ["write", "k", #"{"string":"first"}"#], options: options).status == 0)
            chmod(store.path, 0o300)  // NB: write and search, no read: files open, the directory is not watched.
            defer { chmod(store.path, 0o700) }
            let input = Pipe()
            let observer = try ChildProcess.fixture(
                store, "app", ["observe", "k"], options: options, input: input.fileHandleForReading)
            defer { try? input.fileHandleForWriting.close() }
            #expect(try observer.nextLine(before: .now + .seconds(20)) == #"{"string":"first"}"#)
            for value in ["second", "third"] {
                let write = try runFixture(store, "app", ["write", "k", #"{"string":"\#(value)"}"#], options: options)
                #expect(write.status == 0, "\(write.error)")
                #expect(try observer.nextLine(before: .now + .seconds(20)) == #"{"string":"\#(value)"}"#)
            }
            try input.fileHandleForWriting.close()
            #expect(try observer.wait(before: .now + .seconds(20)) == 0)
        }
    }
}
