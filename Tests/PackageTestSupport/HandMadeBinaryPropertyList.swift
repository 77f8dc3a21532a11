import Foundation

/// A binary property list assembled object by object, for documents Foundation would never write:
/// each object's bytes are given as they stand in the file, references as object numbers of
/// `referenceSize` bytes (one by default; ``reference(_:size:)`` writes wider ones).
public struct HandMadeBinaryPropertyList {
    /// The objects, object 0 first.
    public var objects: [[UInt8]]
    /// The number of the top object.
    public var top = 0
    /// The size of an object reference, written into the trailer.
    public var referenceSize: UInt8 = 1
    /// The size of each offset in the offset table: one byte by default, wider for a larger document.
    public var offsetSize: UInt8 = 1

    /// A document of `objects`, whose top object is `top`, with references of `referenceSize` bytes.
    public init(objects: [[UInt8]], top: Int = 0, referenceSize: UInt8 = 1, offsetSize: UInt8 = 1) {
        self.objects = objects
        self.top = top
        self.referenceSize = referenceSize
        self.offsetSize = offsetSize
    }

    /// The document: the header, the objects, a table of offsets of `offsetSize` bytes and the trailer.
    /// `offsets` replaces the offset of each object; `trailer` the object count, top object and table
    /// offset the trailer would state.
    public func data(offsets: [Int]? = nil, trailer: (objectCount: UInt64, top: UInt64, table: UInt64)? = nil) -> Data {
        var body = Array("bplist00".utf8)
        var positions: [Int] = []
        for object in objects {
            positions.append(body.count)
            body += object
        }
        let table = body.count
        let entries = offsets ?? positions
        body += entries.flatMap { Self.reference($0, size: offsetSize) }
        let stated = trailer ?? (UInt64(entries.count), UInt64(top), UInt64(table))
        body +=
            [0, 0, 0, 0, 0, 0, offsetSize, referenceSize] + Self.big64(stated.objectCount) + Self.big64(stated.top)
            + Self.big64(stated.table)
        return Data(body)
    }

    /// `value` as eight big-endian bytes.
    public static func big64(_ value: UInt64) -> [UInt8] {
        (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    /// `number` (an object number or an offset) as `size` big-endian bytes.
    public static func reference(_ number: Int, size: UInt8) -> [UInt8] {
        (0..<Int(size)).reversed().map { UInt8(truncatingIfNeeded: number >> ($0 * 8)) }
    }

    /// An ASCII string object.
    public static func ascii(_ text: String) -> [UInt8] { [0x50 | UInt8(text.utf8.count)] + Array(text.utf8) }

    /// A one-entry dictionary `{key: value}` whose key is object 1 and value object 2: the usual top.
    public static func entry(_ key: String, _ value: [UInt8]) -> HandMadeBinaryPropertyList {
        HandMadeBinaryPropertyList(objects: [[0xD1, 1, 2], ascii(key), value])
    }

    /// A binary property list whose top dictionary holds `keys`, every one's value the one ASCII string
    /// of `length` bytes (a single object, referred to by each key).
    public static func sharedString(under keys: [String], length: Int) -> Data {
        func ascii(_ count: Int) -> [UInt8] {
            (count < 15 ? [0x50 | UInt8(count)] : [0x5F, 0x12] + HandMadeBinaryPropertyList.reference(count, size: 4))
                + [UInt8](repeating: UInt8(ascii: "x"), count: count)
        }
        let (shared, size): (Int, UInt8) = (keys.count + 1, keys.count + 1 < 256 ? 1 : 2)
        let references = (1...keys.count).map { $0 } + Array(repeating: shared, count: keys.count)
        let top =
            [0xDF, 0x12] + HandMadeBinaryPropertyList.reference(keys.count, size: 4)
            + references.flatMap { HandMadeBinaryPropertyList.reference($0, size: size) }
        let objects = [top] + keys.map { Array($0.utf8) }.map { [0x50 | UInt8($0.count)] + $0 } + [ascii(length)]
        return HandMadeBinaryPropertyList(objects: objects, referenceSize: size, offsetSize: 4).data()
    }
}
