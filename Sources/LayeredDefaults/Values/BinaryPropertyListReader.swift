import Foundation

/// A strict reader of binary property lists (`bplist00`), written for untrusted files.
///
/// Foundation is never shown the document: it builds every object before anyone can check it, it
/// crashes on some (a set), and it guesses at others (a 16-byte integer keeps its low 64 bits). This
/// reads the format (https://opensource.apple.com/source/CF/CF-550/CFBinaryPList.c) with every number
/// taken from the file bounded before it is used in arithmetic, and maps each object to the
/// ``PreferenceValue`` it is exactly, or to none.
///
/// NB: a binary property list refers to its objects by index, so one array can be used by many others:
/// a few hundred bytes can stand for billions of values. Each object is read once and counted every
/// time it is used, and the document is refused past ``PreferenceValue/maximumPropertyListValues``.
struct BinaryPropertyListReader {
    /// The document's leading bytes.
    static let magic = Array("bplist00".utf8)

    /// The entries of the document's top-level dictionary, in document order: each key with its value,
    /// or with nil where the value has no exact ``PreferenceValue`` (a set, a UID, a null, an integer
    /// outside `Int64`, a date outside ``PreferenceValue/dateRange``, text that is not valid, a
    /// dictionary key that is not a string or is held twice, nesting deeper than
    /// ``PreferenceValue/maximumNestingDepth``).
    /// - Throws: ``PropertyListMalformed`` when the document's structure cannot be read: a trailer,
    ///   offset or reference out of bounds, an object that contains itself, a top level that is not a
    ///   dictionary of string keys, or more than `limit` values in all.
    static func entries(of bytes: [UInt8], limit: Int) throws(PropertyListMalformed) -> [PropertyListEntry] {
        var reader = try BinaryPropertyListReader(bytes: bytes, limit: limit)
        return try reader.topLevelEntries()
    }

    private let bytes: [UInt8]
    private let limit: Int
    private let offsetSize: Int
    private let referenceSize: Int
    private let objectCount: Int
    private let topObject: Int
    private let offsetTable: Int
    /// Where the objects end: the offset table follows them.
    private var objectsEnd: Int { offsetTable }

    /// What each object read so far maps to, memoized: a shared object is read once.
    private var memo: [Int: Mapped] = [:]
    /// The text of each string object read as a dictionary key, memoized: a key may be used many times.
    private var keys: [Int: String?] = [:]
    /// The objects being read, to refuse one that contains itself.
    private var onPath: Set<Int> = []
    /// The values counted so far, each use of a shared object counted again.
    private var counted = 0

    /// An object's mapping: its value (nil when it has none) with how many values it stands for and how
    /// deeply its containers nest.
    private struct Mapped {
        var value: PreferenceValue?
        var count: Int
        var height: Int
    }

    private init(bytes: [UInt8], limit: Int) throws(PropertyListMalformed) {
        guard bytes.count >= Self.magic.count + 32, bytes.starts(with: Self.magic) else {
            throw PropertyListMalformed("too short for a binary property list")
        }
        let trailer = bytes.count - 32
        self.bytes = bytes
        self.limit = limit
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
            let objectCount = Self.unsigned(bytes, at: trailer + 8, size: 8),
            let topObject = Self.unsigned(bytes, at: trailer + 16, size: 8),
            let offsetTable = Self.unsigned(bytes, at: trailer + 24, size: 8),
            objectCount > 0, topObject < objectCount, offsetTable >= Self.magic.count, offsetTable <= trailer,
            // NB: both bounded by the file's size first, so the product cannot overflow.
            objectCount <= trailer, objectCount * offsetSize <= trailer - offsetTable
        else { throw PropertyListMalformed("its trailer does not describe its object table") }
        self.objectCount = objectCount
        self.topObject = topObject
        self.offsetTable = offsetTable
    }

    private mutating func topLevelEntries() throws(PropertyListMalformed) -> [PropertyListEntry] {
        let (marker, count, start) = try header(of: topObject)
        guard marker >> 4 == 0xD else { throw PropertyListMalformed("its top level is not a dictionary") }
        let references = try self.references(count: count, pairs: true, at: start)
        counted = 1
        var entries: [PropertyListEntry] = []
        entries.reserveCapacity(count)
        onPath.insert(topObject)
        for index in 0..<count {
            guard let key = try key(references[index]) else {
                throw PropertyListMalformed("a key of its top-level dictionary is not a string")
            }
            let mapped = try map(references[count + index], depthLeft: PreferenceValue.maximumNestingDepth)
            entries.append(PropertyListEntry(key: key, value: mapped.value))
        }
        return entries
    }

    /// The value of `object`, counted; nil inside when it has none.
    private mutating func map(_ object: Int, depthLeft: Int) throws(PropertyListMalformed) -> Mapped {
        let mapped: Mapped
        if let known = memo[object] {
            // NB: a use of an object already read stands for all it holds again.
            mapped = known
            try count(known.count)
        } else {
            guard onPath.insert(object).inserted else { throw PropertyListMalformed("an object contains itself") }
            // NB: the object itself; what it holds is counted as its elements are mapped.
            try count(1)
            mapped = try read(object, depthLeft: depthLeft)
            onPath.remove(object)
            // NB: a container cut short by the nesting limit is not what it would be at a shallower use.
            if mapped.value != nil || mapped.height <= depthLeft { memo[object] = mapped }
        }
        guard mapped.height <= depthLeft else { return Mapped(value: nil, count: mapped.count, height: mapped.height) }
        return mapped
    }

    /// Adds `values` to the document's count.
    /// - Throws: ``PropertyListMalformed`` past the limit.
    private mutating func count(_ values: Int) throws(PropertyListMalformed) {
        counted = min(limit + 1, counted + values)
        guard counted <= limit else {
            throw PropertyListMalformed("it stands for more than \(limit) values (a shared object counts each time it is used)")
        }
    }

    private mutating func read(_ object: Int, depthLeft: Int) throws(PropertyListMalformed) -> Mapped {
        let (marker, count, start) = try header(of: object)
        func scalar(_ value: PreferenceValue?) -> Mapped { Mapped(value: value, count: 1, height: 0) }
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return scalar(.bool(false))
            case 0x09: return scalar(.bool(true))
            default: return scalar(nil)  // null and fill: no preference value
            }
        case 0x1: return scalar(integer(marker: marker, at: start).map(PreferenceValue.integer))
        case 0x2:
            switch marker & 0x0F {
            case 2: return scalar(fixed(at: start, size: 4).map { .double(Double(Float(bitPattern: UInt32($0)))) })
            case 3: return scalar(fixed(at: start, size: 8).map { .double(Double(bitPattern: $0)) })
            default: return scalar(nil)
            }
        case 0x3:
            guard marker == 0x33, let bits = fixed(at: start, size: 8) else { return scalar(nil) }
            let date = Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits))
            return scalar(PreferenceValue.dateRange.contains(date) ? .date(date) : nil)
        case 0x4:
            return scalar(.data(Data(try slice(at: start, count: count, width: 1))))
        case 0x5, 0x6:
            return scalar(try string(object).map(PreferenceValue.string))
        case 0xA:
            let references = try self.references(count: count, pairs: false, at: start)
            guard depthLeft > 0 else { return Mapped(value: nil, count: 1, height: depthLeft + 1) }
            var values: [PreferenceValue] = []
            values.reserveCapacity(count)
            var result = Mapped(value: nil, count: 1, height: 1)
            var exact = true
            for reference in references {
                let element = try map(reference, depthLeft: depthLeft - 1)
                result.count += element.count
                result.height = max(result.height, element.height + 1)
                if let value = element.value { values.append(value) } else { exact = false }
            }
            result.value = exact ? .array(values) : nil
            return result
        case 0xD:
            let references = try self.references(count: count, pairs: true, at: start)
            guard depthLeft > 0 else { return Mapped(value: nil, count: 1, height: depthLeft + 1) }
            var values: [String: PreferenceValue] = [:]
            values.reserveCapacity(count)
            var result = Mapped(value: nil, count: 1, height: 1)
            var exact = true
            for index in 0..<count {
                let key = try key(references[index])
                let element = try map(references[count + index], depthLeft: depthLeft - 1)
                result.count += element.count
                result.height = max(result.height, element.height + 1)
                // NB: String's == treats canonically equivalent texts as one key, as the store does.
                if let key, let value = element.value, values.updateValue(value, forKey: key) == nil {
                    continue
                }
                exact = false
            }
            result.value = exact ? .dictionary(values) : nil
            return result
        default:
            return scalar(nil)  // UIDs (0x8), ordered sets (0xB), sets (0xC) and unknown markers
        }
    }

    /// The text of a dictionary key, read once however many dictionaries use it.
    private mutating func key(_ object: Int) throws(PropertyListMalformed) -> String? {
        if let known = keys[object] { return known }
        let text = try string(object)
        keys[object] = .some(text)
        return text
    }

    /// The text of a string object, or nil when `object` is not a string or its text is not valid
    /// (ASCII above 0x7F, an unpaired UTF-16 surrogate).
    private func string(_ object: Int) throws(PropertyListMalformed) -> String? {
        let (marker, count, start) = try header(of: object)
        switch marker >> 4 {
        case 0x5:
            let text = try slice(at: start, count: count, width: 1)
            guard text.allSatisfy({ $0 < 0x80 }) else { return nil }
            return String(decoding: text, as: UTF8.self)
        case 0x6:
            let raw = try slice(at: start, count: count, width: 2)
            var units: [UInt16] = []
            units.reserveCapacity(count)
            for index in stride(from: raw.startIndex, to: raw.endIndex, by: 2) {
                units.append(UInt16(raw[index]) << 8 | UInt16(raw[index + 1]))
            }
            var scalars = String.UnicodeScalarView()
            var decoder = UTF16()
            var iterator = units.makeIterator()
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): scalars.append(scalar)
                case .emptyInput: return String(scalars)
                case .error: return nil
                }
            }
        default:
            return nil
        }
    }

    /// An object's marker byte, the count its low nibble gives (or the integer object after it), and
    /// where its content starts.
    private func header(of object: Int) throws(PropertyListMalformed) -> (marker: UInt8, count: Int, start: Int) {
        guard object >= 0, object < objectCount,
            let offset = Self.unsigned(bytes, at: offsetTable + object * offsetSize, size: offsetSize),
            offset >= Self.magic.count, offset < objectsEnd
        else { throw PropertyListMalformed("an object's offset is outside its object table") }
        let marker = bytes[offset]
        let kind = marker >> 4
        guard [0x4, 0x5, 0x6, 0x8, 0xA, 0xB, 0xC, 0xD].contains(kind), marker & 0x0F == 0x0F else {
            return (marker, Int(marker & 0x0F), offset + 1)
        }
        // NB: a count of 15 or more follows as an integer object: a marker 0x1n and 2^n bytes.
        let countMarker = offset + 1
        guard countMarker < objectsEnd, bytes[countMarker] >> 4 == 0x1, bytes[countMarker] & 0x0F <= 3,
            let count = integer(marker: bytes[countMarker], at: countMarker + 1), count >= 0
        else { throw PropertyListMalformed("an object's length is not a valid integer") }
        return (marker, count, countMarker + 1 + (1 << Int(bytes[countMarker] & 0x0F)))
    }

    /// The integer of marker `0x1n` at `start`: 1, 2 and 4 bytes unsigned, 8 signed, 16 signed and
    /// kept only when it fits in `Int64`; nil otherwise or past the objects.
    private func integer(marker: UInt8, at start: Int) -> Int? {
        let size = 1 << Int(marker & 0x0F)
        guard size <= 16, start >= 0, size <= objectsEnd - start else { return nil }
        switch size {
        case 8: return Int(truncatingIfNeeded: Self.bits(bytes, at: start, size: 8))
        case 16:
            let high = Self.bits(bytes, at: start, size: 8)
            let low = Int(truncatingIfNeeded: Self.bits(bytes, at: start + 8, size: 8))
            // NB: a 128-bit integer fits in Int64 when its high half is the low half's sign.
            return high == (low < 0 ? UInt64.max : 0) ? low : nil
        default: return Int(Self.bits(bytes, at: start, size: size))
        }
    }

    /// The `size` bytes at `start` as raw bits, or nil when they run past the objects.
    private func fixed(at start: Int, size: Int) -> UInt64? {
        guard size <= objectsEnd - start else { return nil }
        return Self.bits(bytes, at: start, size: size)
    }

    /// `count` items of `width` bytes at `start`.
    private func slice(at start: Int, count: Int, width: Int) throws(PropertyListMalformed) -> ArraySlice<UInt8> {
        // NB: the count is bounded by the file's size before it is multiplied.
        guard count <= objectsEnd, count * width <= objectsEnd - start else {
            throw PropertyListMalformed("an object runs past its object table")
        }
        return bytes[start..<start + count * width]
    }

    /// A container's references: `count` of them, or twice that for a dictionary's keys and values.
    private func references(count: Int, pairs: Bool, at start: Int) throws(PropertyListMalformed) -> [Int] {
        let (total, overflow) = pairs ? count.multipliedReportingOverflow(by: 2) : (count, false)
        guard !overflow else { throw PropertyListMalformed("an object runs past its object table") }
        let raw = try slice(at: start, count: total, width: referenceSize)
        var references: [Int] = []
        references.reserveCapacity(total)
        for index in stride(from: raw.startIndex, to: raw.endIndex, by: referenceSize) {
            let reference = Self.bits(bytes, at: index, size: referenceSize)
            guard reference < UInt64(objectCount) else { throw PropertyListMalformed("a reference names no object") }
            references.append(Int(reference))
        }
        return references
    }

    /// The big-endian `size` bytes at `offset` (within bounds), as bits.
    private static func bits(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for byte in bytes[offset..<offset + size] { value = value << 8 | UInt64(byte) }
        return value
    }

    /// The big-endian unsigned integer of `size` bytes at `offset`, or nil past the end or above `Int.max`.
    private static func unsigned(_ bytes: [UInt8], at offset: Int, size: Int) -> Int? {
        guard offset >= 0, size <= 8, offset <= bytes.count - size else { return nil }
        return Int(exactly: bits(bytes, at: offset, size: size))
    }
}
