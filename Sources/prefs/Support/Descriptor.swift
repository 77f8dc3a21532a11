import Foundation

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

    /// Everything in the file at `path`.
    /// - Throws: the `POSIXError` of the open or read that failed (`ENOENT`, `EACCES`, `EISDIR`, ...):
    ///   `Data(contentsOf:)` gives only Foundation's code for most of them.
    static func readAll(atPath path: String, limit: Int = .max) throws -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError.current }
        defer { close(descriptor) }
        return try readAll(from: descriptor, limit: limit)
    }

    /// Everything there is to read from `descriptor`, to its end, or its first `limit` bytes and one
    /// more (so that the caller can tell the input is too long without reading it all).
    /// - Throws: the `POSIXError` of the read that failed (e.g. `EBADF` for a closed standard input).
    static func readAll(from descriptor: Int32, limit: Int = .max) throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count == 0 || data.count > limit { return data }
            if count > 0 {
                data.append(contentsOf: buffer[..<count])
            } else if errno != EINTR {
                throw POSIXError.current
            }
        }
    }
}

extension POSIXError {
    /// The error `errno` holds now.
    static var current: POSIXError { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}
