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
}

extension POSIXError {
    /// The error `errno` holds now.
    static var current: POSIXError { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}
