import Foundation

/// Reads the bytes of a document to import (a property list, an export) from a file descriptor: to its
/// end, but never much past ``maximumSize``, the one cap of every import (`prefs import`,
/// `importUserDefaults`), so a device such as `/dev/zero` or an endless pipe is refused instead of read
/// until memory runs out.
package enum DocumentInput {
    /// The longest document an import reads: 64 MiB, far more than any domain's export.
    package static let maximumSize = 64 << 20

    /// Everything there is to read from `descriptor`, to its end, or its first `limit` bytes and one more
    /// (so that the caller can tell the input is too long without reading it all).
    /// - Throws: the `POSIXError` of the read that failed (e.g. `EBADF` for a closed standard input).
    package static func read(from descriptor: Int32, limit: Int = maximumSize) throws(POSIXError) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = Foundation.read(descriptor, &buffer, buffer.count)
            if count == 0 || data.count > limit { return data }
            if count > 0 {
                data.append(contentsOf: buffer[..<count])
            } else if errno != EINTR {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        }
    }
}
