import Foundation
import LayeredDefaults

extension JSONMemberScan {
    /// How many values the tagged JSON of an export (`{"key":{"integer":1},...}`) stands for, counted
    /// before it is decoded, in one pass over its bytes; the count stops once past `limit`.
    ///
    /// Each value is one object (`{"string":"a"}`), a dictionary's body is one more (the object after a
    /// member named `dictionary`), and the top object holds the keys. A document that is not tagged JSON
    /// gets a meaningless count, never more than its objects; one that spells a member `dictionary` where
    /// it is a key of a dictionary counts fewer than it holds, never more: what is decoded is checked
    /// exactly afterwards (``PreferenceValue/documentExcess(of:)``).
    ///
    /// NB: `JSONDecoder` builds every value before any check of ours: 1,000,001 values took 11 to 21 s
    /// to decode (debug build), only to be refused.
    static func taggedValueCount(in data: Data, stoppingAbove limit: Int) -> Int {
        let bytes = [UInt8](data)
        var (objects, bodies) = (0, 0)
        var lastName: ArraySlice<UInt8> = []
        var afterColon = false
        var index = 0
        while index < bytes.count, objects - bodies - 1 <= limit {
            switch bytes[index] {
            case UInt8(ascii: "{"):
                objects += 1
                if afterColon, Self.isDictionaryTag(lastName) { bodies += 1 }
                afterColon = false
            case UInt8(ascii: ":"): afterColon = true
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                lastName = bytes[start..<min(index + 1, bytes.count)]
                afterColon = false
            case 0x20, 0x09, 0x0A, 0x0D: break
            default: afterColon = false
            }
            index += 1
        }
        return max(0, objects - bodies - 1)
    }

    /// True when `literal`, a JSON string literal with its quotes, is the text `dictionary`.
    private static func isDictionaryTag(_ literal: ArraySlice<UInt8>) -> Bool {
        if literal.elementsEqual(#""dictionary""#.utf8) { return true }
        guard literal.count <= 80, literal.contains(UInt8(ascii: "\\")) else { return false }
        return (try? JSONDecoder().decode(String.self, from: Data(literal))) == "dictionary"
    }
}
