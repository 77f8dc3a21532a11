import Foundation

/// The member names of a JSON object as they are written, duplicates included.
///
/// NB: `JSONDecoder` and `JSONSerialization` read an object into a dictionary, where a name given twice,
/// or two canonically equivalent names ("é" as one scalar and as "e" and a combining accent), become one
/// member and the other value is silently lost; only the text shows them.
enum JSONMemberNames {
    /// The member names of the top-level object of `json`, in order, escapes decoded.
    /// - Parameter json: UTF-8 JSON (a byte order mark allowed) that a decoder has already read as an
    ///   object: its syntax is not checked again.
    /// - Returns: nil when `json` is not a UTF-8 JSON object.
    static func topLevel(of json: Data) -> [String]? {
        let bytes = [UInt8](json)
        let (quote, backslash) = (UInt8(ascii: "\""), UInt8(ascii: "\\"))
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }
        /// Moves from a string's opening quote to just past its closing one.
        func skipString() {
            index += 1
            while index < bytes.count, bytes[index] != quote { index += bytes[index] == backslash ? 2 : 1 }
            index += 1
        }
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        skipSpace()
        var names: [ArraySlice<UInt8>] = []
        members: while index < bytes.count, bytes[index] == quote {
            let start = index
            skipString()
            names.append(bytes[start..<min(index, bytes.count)])
            var depth = 0
            while index < bytes.count {
                switch bytes[index] {
                case quote:
                    skipString()
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 { break members }
                    depth -= 1
                case UInt8(ascii: ",") where depth == 0:
                    index += 1
                    skipSpace()
                    continue members
                default:
                    break
                }
                index += 1
            }
        }
        // NB: the names are still JSON strings, escapes and all: one decode of them as an array reads them.
        let array = Data("[".utf8) + Data(names.joined(separator: [UInt8(ascii: ",")])) + Data("]".utf8)
        return try? JSONDecoder().decode([String].self, from: array)
    }
}
