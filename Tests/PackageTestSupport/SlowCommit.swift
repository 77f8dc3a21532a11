import Foundation

/// A commit slow to publish: another process (the fixture) writes `line` to `key` of `suite` in `root`
/// as the `sqlite3` shell writes (a plain connection, `synchronous = FULL`), on a disk whose every sync
/// takes `milliseconds`; so its frames are in the `-wal` (a directory event) that long before its
/// WAL-index header is (no event). Returns once the commit returned, with the writer, which waits for
/// more lines until its input is closed.
/// - Throws: ``ChildTimeout`` when the writer does not acknowledge the commit within a minute.
public func commitSlowToPublish(
    _ line: String, key: String, suite: String, in root: URL, milliseconds: Int
) throws -> (writer: ChildProcess, input: FileHandle, acknowledgement: String?) {
    let input = Pipe()
    let writer = try ChildProcess(
        "defaults-fixture", ["--stalled-sync", String(milliseconds), root.path, suite, "write-lines", key, "raw"],
        input: input.fileHandleForReading)
    input.fileHandleForWriting.write(Data((line + "\n").utf8))
    return (writer, input.fileHandleForWriting, try writer.nextLine(before: .now + .seconds(60)))
}
