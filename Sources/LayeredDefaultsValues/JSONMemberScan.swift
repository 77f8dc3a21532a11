import Foundation

/// Finds in a JSON text what `JSONDecoder` lets pass: a member name held twice in one object (it keeps
/// one of the two), and a tagged integer written with a fraction or an exponent (it reads
/// `{"integer":0.99999999999999999}` through a `Double`, as 1). For the strict reading of schema files
/// and of `prefs import`'s JSON.
///
/// Names are compared as Swift compares strings, so two canonically equivalent spellings ("é" as
/// one scalar, and as "e" and a combining accent) are one name, as they are one key in the store.
package enum JSONMemberScan {
    /// What the scan finds.
    package enum Finding: Equatable, Sendable {
        /// A member name held twice in one object.
        case repeatedMember(String)
        /// A number that is not written as an integer (digits only) as the value of a member named
        /// `integer` (a tagged integer), inside the top-level member `key`.
        case inexactInteger(key: String)
    }

    /// The first finding in `data`, or nil. `data` must be valid JSON (decode it first); anything else
    /// gives nil or a meaningless answer, never a crash.
    package static func firstFinding(in data: Data) -> Finding? {
        let bytes = [UInt8](data)
        // One frame per open object or array: an object's member names so far, its last one, and
        // whether the next string is a name (after `{` or `,`) rather than a value (after `:`).
        var frames: [(names: Set<String>, last: String?, expectsName: Bool)?] = []
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"): frames.append((names: [], last: nil, expectsName: true))
            case UInt8(ascii: "["): frames.append(nil)
            case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = frames.popLast()
            case UInt8(ascii: ","): if frames.last??.expectsName == false { frames[frames.count - 1]!.expectsName = true }
            case UInt8(ascii: ":"): if frames.last != nil, frames.last! != nil { frames[frames.count - 1]!.expectsName = false }
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard index < bytes.count else { return nil }
                if let frame = frames.last, let object = frame, object.expectsName {
                    let literal = Data(bytes[start...index])
                    guard let name = try? JSONDecoder().decode(String.self, from: literal) else { return nil }
                    if object.names.contains(name) { return .repeatedMember(name) }
                    frames[frames.count - 1]!.names.insert(name)
                    frames[frames.count - 1]!.last = name
                }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = index
                while index + 1 < bytes.count, Self.isNumberByte(bytes[index + 1]) { index += 1 }
                // In valid JSON a number directly inside an object is the value of its last member.
                if let frame = frames.last, let object = frame, object.last == "integer",
                    bytes[start...index].contains(where: Self.isFractionOrExponent)
                {
                    return .inexactInteger(key: frames.first??.last ?? "")
                }
            default: break
            }
            index += 1
        }
        return nil
    }

    /// True for a byte that may follow the first of a JSON number.
    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            || isFractionOrExponent(byte)
    }

    /// True for the bytes that start a number's fraction or exponent.
    private static func isFractionOrExponent(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    }
}
