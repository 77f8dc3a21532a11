import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// A store's `-shm` or `-wal` deleted (as a cleaner of "temporary files" would) while other processes
/// have the store open and go on writing: every write that was acknowledged is in the file once every
/// process has closed it (a write may instead be refused with an error).
@Suite(.hangLimit(minutes: 2))
struct DeletedCompanionTests {
    /// Writes `line` through a `write-lines` child and returns its acknowledgement (nil: it failed).
    func write(_ line: String, through writer: ChildProcess, input: Pipe) throws -> String? {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
        return try writer.nextLine(before: .now + .seconds(10))
    }

    /// A writer keeps the store open while its `-shm` or `-wal` is deleted; another process then writes a
    /// key of its own (exit status 0: acknowledged), and the first writer writes again: refused, typed
    /// (``DefaultsError/replacedFile(suite:path:)``), else (seen failing 4 times in 4 for the `-shm`: the
    /// second process made a new one, so the two processes each had a WAL index of their own) its commit
    /// wrote over the second's, and `second` read nil once all had closed.
    @Test(arguments: ["-shm", "-wal"]) func aDeletedCompanionLosesNoAcknowledgedWrite(_ companion: String) throws {
        try withTemporaryRoot { root in
            let file = databaseFile("companion", in: root)
            try #require(runFixture(root, "companion", ["write", "first", "{\"string\":\"a\"}"]).succeeded)
            let input = Pipe()
            let writer = try ChildProcess.fixture(
                root, "companion", ["write-lines", "first"], input: input.fileHandleForReading)
            #expect(try write("b", through: writer, input: input) == "b")
            try FileManager.default.removeItem(atPath: file.path + companion)
            let second = try runFixture(root, "companion", ["write", "second", "{\"string\":\"kept\"}"])
            let acknowledged = try write("c", through: writer, input: input)
            try input.fileHandleForWriting.close()
            _ = try writer.wait(before: .now + .seconds(20))
            #expect(acknowledged != "c", "the writer's files are not the ones at their paths any more")
            #expect(writer.errorText.contains("is no longer the file this process opened"), "\(writer.errorText)")
            if second.succeeded {
                let read = try runFixture(root, "companion", ["read", "second"])
                #expect(read.output == "{\"string\":\"kept\"}\n", "an acknowledged write was lost: \(read.output)")
            }
            #expect(try runFixture(root, "companion", ["read", "first"]).output == "{\"string\":\"b\"}\n")
            #expect(try integrityCheck(of: file) == "ok")
        }
    }
}
