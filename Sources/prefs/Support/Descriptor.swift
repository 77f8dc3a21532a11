import Foundation
import LayeredDefaults

/// Whole reads and writes through file descriptors with read(2) and write(2), whose errors are
/// thrown: `FileHandle`'s `write` and `readDataToEndOfFile` trap on them.
enum Descriptor {
    /// Writes all of `data` to `descriptor`, going on after a partial write or a signal.
    /// - Throws: the `POSIXError` of the write that failed (`EPIPE`, `ENOSPC`, `EBADF`, `EFBIG`, ...).
    static func writeAll(_ data: Data, to descriptor: Int32) throws {
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    guard errno == EINTR else { throw POSIXError.current }
                } else {
                    offset += written
                }
            }
        }
    }

    /// Everything in the file at `path`, or its first `limit` bytes and one more (``DocumentInput``).
    /// - Throws: the `POSIXError` of the open or read that failed (`ENOENT`, `EACCES`, `EISDIR`, ...):
    ///   `Data(contentsOf:)` gives only Foundation's code for most of them.
    static func readAll(atPath path: String, limit: Int) throws -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError.current }
        defer { close(descriptor) }
        return try DocumentInput.read(from: descriptor, limit: limit)
    }

    /// Replaces the file at `path` with `data` atomically, with exactly `mode` at every moment: the data
    /// goes to a new file beside it, created with that mode (`O_CREAT | O_EXCL`) whatever the umask, and
    /// flushed to disk, then renamed over `path`.
    /// - Throws: the `POSIXError` of the step that failed; the new file is removed and `path` is unchanged.
    static func replace(atPath path: String, with data: Data, mode: mode_t) throws {
        let file = URL(fileURLWithPath: path)
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString)")
            .path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw POSIXError.current }
        var failure: (any Error)?
        do {
            // NB: the umask may have taken bits off the mode (0400 of 0600 under umask 0277, none under
            // 0777); this only gives them back, so the file never has more than `mode` at any moment.
            if fchmod(descriptor, mode) != 0 { throw POSIXError.current }
            try writeAll(data, to: descriptor)
            if fsync(descriptor) != 0 { throw POSIXError.current }
        } catch {
            failure = error
        }
        close(descriptor)
        if failure == nil, rename(temporary, path) != 0 { failure = POSIXError.current }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }
}

extension POSIXError {
    /// The error `errno` holds now.
    static var current: POSIXError { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}
