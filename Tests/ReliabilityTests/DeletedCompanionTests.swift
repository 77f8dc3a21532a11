import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// A store's `-shm` or `-wal` deleted (as a cleaner of "temporary files" would) while other processes
/// have the store open and go on writing: every write that was acknowledged is in the file once every
/// process has closed it (a write may instead be refused with an error).
@Suite(.hangLimit(minutes: 2))
struct DeletedCompanionTests {
    /// Creates the domain `companion` in `root` (a write by a process of its own), then starts a
    /// `write-lines` child writing `key`, and returns it with the pipe of its standard input.
    func startWriter(in root: URL, key: String) throws -> (ChildProcess, Pipe) {
        try #require(runFixture(root, "companion", ["write", "seed", "{\"string\":\"seed\"}"]).succeeded)
        let input = Pipe()
        return (try ChildProcess.fixture(root, "companion", ["write-lines", key], input: input.fileHandleForReading), input)
    }

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
            let (writer, input) = try startWriter(in: root, key: "first")
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

    /// A writer's log, all checkpointed, is deleted; another process then writes (acknowledged) into the
    /// log it makes anew, and the first writer closes last: the second's write is kept. Seen failing 5
    /// times in 5 (the `important` key read nil, the writer's last value was back to its first): the
    /// writer's close checkpointed its own unlinked log through the index the second had since written,
    /// then deleted the second's live log by name.
    @Test func aProcessWritingAfterTheLogWasDeletedKeepsItsWrite() throws {
        try withTemporaryRoot { root in
            let file = databaseFile("companion", in: root)
            let (writer, input) = try startWriter(in: root, key: "k")
            for index in 1...40 { #expect(try write("line-\(index)", through: writer, input: input) == "line-\(index)") }
            // NB: past the quiet period (100 ms), so the writer's idle checkpoint has copied its log.
            Thread.sleep(forTimeInterval: 0.6)
            try FileManager.default.removeItem(atPath: file.path + "-wal")
            let second = try runFixture(root, "companion", ["write", "important", "{\"string\":\"kept\"}"])
            try input.fileHandleForWriting.close()
            #expect(try writer.wait(before: .now + .seconds(20)) == 0)
            #expect(second.succeeded, "\(second.error)")
            #expect(try runFixture(root, "companion", ["read", "important"]).output == "{\"string\":\"kept\"}\n")
            #expect(try runFixture(root, "companion", ["read", "k"]).output == "{\"string\":\"line-40\"}\n")
            #expect(try integrityCheck(of: file) == "ok")
        }
    }

    /// Another file moved over the `-wal` of a store open in one process alone: its next write is refused,
    /// and its close deletes nothing it did not open (SQLite's last connection deletes the `-wal` by
    /// name: seen deleting the other file). What it acknowledged before is kept.
    @Test func aFileMovedOverTheLogIsNeverDeleted() throws {
        try withTemporaryRoot { root in
            let file = databaseFile("companion", in: root)
            let (writer, input) = try startWriter(in: root, key: "k")
            #expect(try write("one", through: writer, input: input) == "one")
            let foreign = root.appendingPathComponent("foreign")
            try Data("not a log".utf8).write(to: foreign)
            #expect(rename(foreign.path, file.path + "-wal") == 0)  // NB: as `mv` does; FileManager refuses to.
            #expect(try write("two", through: writer, input: input) == nil, "refused")
            try input.fileHandleForWriting.close()
            _ = try writer.wait(before: .now + .seconds(20))
            #expect(writer.errorText.contains("is no longer the file this process opened"), "\(writer.errorText)")
            #expect(FileManager.default.contents(atPath: file.path + "-wal") == Data("not a log".utf8))
            try FileManager.default.removeItem(atPath: file.path + "-wal")  // NB: what a user would do next.
            #expect(try runFixture(root, "companion", ["read", "k"]).output == "{\"string\":\"one\"}\n")
        }
    }
}
