import Foundation

/// Finds a member name held twice in one object of a JSON text, which `JSONDecoder` lets pass (keeping
/// one of the two): for the strict reading of schema files and of `prefs import`'s JSON.
///
/// NB: names are compared as Swift compares strings, so two canonically equivalent spellings ("é" as
/// one scalar, and as "e" and a combining accent) are one name, as they are one key in the store.
package enum JSONMemberScan {
    /// The first member name held twice in one object of `data`, or nil. `data` must be valid JSON
    /// (decode it first); anything else gives nil or a meaningless answer, never a crash.
    package static func firstRepeatedMember(in data: Data) -> String? {
        let bytes = [UInt8](data)
        // NB: one frame per open object or array: an object's member names so far, and whether the next
        // string is a name (after `{` or `,`) rather than a value (after `:`).
        var frames: [(names: Set<String>, expectsName: Bool)?] = []
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"): frames.append((names: [], expectsName: true))
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
                    if object.names.contains(name) { return name }
                    frames[frames.count - 1]!.names.insert(name)
                }
            default: break
            }
            index += 1
        }
        return nil
    }
}
