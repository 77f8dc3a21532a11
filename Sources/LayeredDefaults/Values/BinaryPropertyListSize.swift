import Foundation

/// How many values a binary property list stands for, counted from its object table without building it.
///
/// NB: a binary property list refers to its objects by index, so one array can be used by many others: a
/// few hundred bytes can stand for billions of values, which Foundation would build in full before anyone
/// could count them. This reads the table (https://opensource.apple.com/source/CF/CF-550/CFBinaryPList.c)
/// and counts each object as often as it is used, stopping past a limit.
enum BinaryPropertyListSize {
    /// The number of values `document` stands for, each object counted every time it is used, or
    /// `limit + 1` once that is exceeded; nil when `document` is not a binary property list this can read
    /// (Foundation then judges it; a document that uses an object inside itself is left to Foundation too).
    static func expandedCount(of document: Data, limit: Int) -> Int? {
        let bytes = [UInt8](document)
        guard bytes.count >= 40, bytes.starts(with: Array("bplist0".utf8)) else { return nil }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
            let objectCount = integer(bytes, at: trailer + 8, size: 8),
            let top = integer(bytes, at: trailer + 16, size: 8),
            let table = integer(bytes, at: trailer + 24, size: 8),
            objectCount > 0, objectCount <= bytes.count, top < objectCount,
            table + objectCount * offsetSize <= trailer
        else { return nil }
        /// The objects an object refers to (a container's elements, or a dictionary's keys and values).
        func references(of object: Int) -> [Int]? {
            guard let offset = integer(bytes, at: table + object * offsetSize, size: offsetSize), offset < trailer else {
                return nil
            }
            let marker = bytes[offset]
            let kind = marker >> 4
            guard kind == 0xA || kind == 0xC || kind == 0xD else { return [] }  // not a container
            var count = Int(marker & 0x0F)
            var start = offset + 1
            if count == 0x0F {  // the count follows as an integer object
                guard start < trailer, bytes[start] >> 4 == 0x1 else { return nil }
                let size = 1 << Int(bytes[start] & 0x0F)
                guard size <= 8, let long = integer(bytes, at: start + 1, size: size) else { return nil }
                count = long
                start += 1 + size
            }
            let total = kind == 0xD ? count * 2 : count
            guard total >= 0, start + total * referenceSize <= trailer else { return nil }
            var result: [Int] = []
            result.reserveCapacity(total)
            for index in 0..<total {
                guard let reference = integer(bytes, at: start + index * referenceSize, size: referenceSize),
                    reference < objectCount
                else { return nil }
                result.append(reference)
            }
            return result
        }
        // Depth first without recursion (a document may nest very deep): each object's count is its own 1
        // plus its references' counts, computed once and saturated past the limit.
        var counts = [Int?](repeating: nil, count: objectCount)
        var onPath = [Bool](repeating: false, count: objectCount)
        var stack: [(object: Int, references: [Int], next: Int, sum: Int)] = []
        func push(_ object: Int) -> Bool {
            guard let references = references(of: object) else { return false }
            onPath[object] = true
            stack.append((object, references, 0, 1))
            return true
        }
        guard push(top) else { return nil }
        while var frame = stack.popLast() {
            if frame.next < frame.references.count {
                let child = frame.references[frame.next]
                frame.next += 1
                if let known = counts[child] {
                    frame.sum = min(limit + 1, frame.sum + known)
                    stack.append(frame)
                } else if onPath[child] {
                    return nil  // a cycle: Foundation refuses it
                } else {
                    stack.append(frame)
                    guard push(child) else { return nil }
                }
                continue
            }
            counts[frame.object] = frame.sum
            onPath[frame.object] = false
            if var parent = stack.popLast() {
                parent.sum = min(limit + 1, parent.sum + frame.sum)
                stack.append(parent)
            }
        }
        return counts[top]
    }

    /// The big-endian unsigned integer of `size` bytes at `offset`, or nil past the end or above `Int.max`.
    private static func integer(_ bytes: [UInt8], at offset: Int, size: Int) -> Int? {
        guard offset >= 0, size >= 1, size <= 8, offset + size <= bytes.count else { return nil }
        var value: UInt64 = 0
        for byte in bytes[offset..<offset + size] { value = value << 8 | UInt64(byte) }
        return value <= UInt64(Int.max) ? Int(value) : nil
    }
}
