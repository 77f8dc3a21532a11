import Foundation
import LayeredDefaults

/// Whole reads through file descriptors with read(2), whose errors are thrown: `FileHandle`'s
/// `readDataToEndOfFile` traps on them. (Files are written through the library's `FileActs`.)
enum Descriptor {
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
