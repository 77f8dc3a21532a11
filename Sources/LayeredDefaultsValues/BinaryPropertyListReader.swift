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
/// a few hundred bytes can stand for billions of values. Each object is read once, whatever its depth
/// (what it maps to does not depend on where it is used), and counted every time it is used; the
/// document is refused past ``PreferenceValue/maximumPropertyListValues`` values, or when reading it
/// would scan more than ``stepsPerByte`` bytes for each of its own.
struct BinaryPropertyListReader {
    /// The document's leading bytes.
    static let magic = Array("bplist00".utf8)

    /// How many bytes the reader may scan for each byte of the document. Each object (its offset, its
    /// marker, length, references and content) is read at most twice, once as a value and once as a
    /// dictionary key, and the trailer once, so a document whose objects do not overlap never needs
    /// more; objects that overlap (offsets into each other's bytes, which no writer makes) could make
    /// every object rescan the file, and are refused at this bound.
    static let stepsPerByte = 2

    /// The entries of the document's top-level dictionary, in document order: each key with its value,
    /// or with nil where the value has no exact ``PreferenceValue`` (a set, a UID, a null, an integer
    /// outside `Int64`, a date outside ``PreferenceValue/dateRange``, text that is not valid, a
    /// dictionary key that is not a string or is held twice, nesting deeper than
    /// ``PreferenceValue/maximumNestingDepth``).
    /// - Throws: ``PropertyListMalformed`` when the document's structure cannot be read: a trailer,
    ///   offset or reference out of bounds, an object that contains itself, a top level that is not a
    ///   dictionary of string keys, more than `limit` values in all, or objects whose reading would scan
    ///   more than ``stepsPerByte`` bytes for each byte of the document.
    static func entries(of bytes: [UInt8], limit: Int) throws(PropertyListMalformed) -> [PropertyListEntry] {
        var steps = 0
        return try entries(of: bytes, limit: limit, steps: &steps)
    }

    /// The entries (see ``entries(of:limit:)``), setting `steps` to the bytes their reading scanned (the
    /// trailer, and each offset, marker, length, reference and content read), also when it throws: for
    /// the proof that the work stays within ``stepsPerByte`` bytes for each byte of the document.
    static func entries(of bytes: [UInt8], limit: Int, steps: inout Int) throws(PropertyListMalformed) -> [PropertyListEntry] {
        steps = 0
        var reader = try BinaryPropertyListReader(bytes: bytes, limit: limit)
        defer { steps = reader.steps }
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
    /// The containers being read, to refuse one that contains itself.
    private var onPath: Set<Int> = []
    /// The values counted so far, each use of a shared object counted again.
    private var counted = 0
    /// The bytes scanned so far.
    private var steps = 0

    /// An object's mapping: its value (nil when it has none) with how many values it stands for and how
    /// deeply its containers nest (0 for a scalar, 1 for a container of scalars).
    private struct Mapped {
        var value: PreferenceValue?
        var count: Int
        var height: Int
    }

    /// A container being read: its elements so far.
    private struct Container {
        let object: Int
        /// The dictionary's keys, one for each element (nil where a key is not valid text); nil for an array.
        let keys: [String?]?
        /// The elements' objects (a dictionary's values).
        let elements: [Int]
        /// How many elements are mapped.
        var next = 0
        var array: [PreferenceValue] = []
        var dictionary: [String: PreferenceValue] = [:]
        /// False once an element has no exact value, or a key is held twice.
        var exact = true
        var mapped = Mapped(value: nil, count: 1, height: 1)

        /// Adds the element just mapped; past the nesting limit the container is no longer exact.
        mutating func add(_ element: Mapped) {
            mapped.count += element.count
            mapped.height = max(mapped.height, element.height + 1)
            guard exact, mapped.height <= PreferenceValue.maximumNestingDepth, let value = element.value else {
                exact = false
                return
            }
            if let keys {
                // String's == treats canonically equivalent texts as one key, as the store does.
                guard let key = keys[next - 1], key.isStreamSafe, dictionary.updateValue(value, forKey: key) == nil else {
                    exact = false
                    return
                }
            } else {
                array.append(value)
            }
        }

        /// The container's mapping: its value only when every element is exact and it nests no deeper
        /// than ``PreferenceValue/maximumNestingDepth``.
        var result: Mapped {
            var result = mapped
            if exact { result.value = keys == nil ? .array(array) : .dictionary(dictionary) }
            return result
        }
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
        steps = Self.magic.count + 32
    }

    private mutating func topLevelEntries() throws(PropertyListMalformed) -> [PropertyListEntry] {
        let (marker, size, start) = try header(of: topObject)
        guard marker >> 4 == 0xD else { throw PropertyListMalformed("its top level is not a dictionary") }
        let references = try self.references(count: size, pairs: true, at: start)
        counted = 1
        var entries: [PropertyListEntry] = []
        entries.reserveCapacity(size)
        onPath.insert(topObject)
        for index in 0..<size {
            guard let key = try key(references[index]) else {
                throw PropertyListMalformed("a key of its top-level dictionary is not a string")
            }
            let mapped = try map(references[size + index])
            try count(mapped.count)
            entries.append(PropertyListEntry(key: key, value: mapped.value))
        }
        return entries
    }

    /// What `object` maps to. Containers are read on a stack of their own, never by recursion, so no
    /// depth of nesting can exhaust the thread's stack; each object is read once.
    private mutating func map(_ object: Int) throws(PropertyListMalformed) -> Mapped {
        var open: [Container] = []
        var mapped = try start(object, open: &open)
        while true {
            if let element = mapped {
                guard let last = open.indices.last else { return element }
                open[last].add(element)
                guard open[last].mapped.count <= limit else { throw tooManyValues }
            }
            let last = open.count - 1
            if open[last].next < open[last].elements.count {
                let element = open[last].elements[open[last].next]
                open[last].next += 1
                mapped = try start(element, open: &open)
            } else {
                let container = open.removeLast()
                mapped = container.result
                memo[container.object] = mapped
                onPath.remove(container.object)
            }
        }
    }

    /// The mapping of `object` when it is known or a scalar; nil for a container, then put on `open` to
    /// be read element by element.
    private mutating func start(_ object: Int, open: inout [Container]) throws(PropertyListMalformed) -> Mapped? {
        if let known = memo[object] { return known }
        guard !onPath.contains(object) else { throw PropertyListMalformed("an object contains itself") }
        let (marker, count, start) = try header(of: object)
        switch marker >> 4 {
        case 0xA:
            let elements = try references(count: count, pairs: false, at: start)
            onPath.insert(object)
            open.append(Container(object: object, keys: nil, elements: elements))
            return nil
        case 0xD:
            let references = try self.references(count: count, pairs: true, at: start)
            var keys: [String?] = []
            keys.reserveCapacity(count)
            for reference in references[..<count] { keys.append(try key(reference)) }
            onPath.insert(object)
            open.append(Container(object: object, keys: keys, elements: Array(references[count...])))
            return nil
        default:
            let mapped = Mapped(value: try scalar(marker: marker, count: count, at: start), count: 1, height: 0)
            memo[object] = mapped
            return mapped
        }
    }

    /// The value of the scalar object whose header was read, or nil when it has none.
    private mutating func scalar(marker: UInt8, count: Int, at start: Int) throws(PropertyListMalformed) -> PreferenceValue? {
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: return nil  // null and fill: no preference value
            }
        case 0x1: return try integer(marker: marker, at: start).map(PreferenceValue.integer)
        case 0x2:
            switch marker & 0x0F {
            case 2: return try fixed(at: start, size: 4).map { .double(Double(Float(bitPattern: UInt32($0)))) }
            case 3: return try fixed(at: start, size: 8).map { .double(Double(bitPattern: $0)) }
            default: return nil
            }
        case 0x3:
            guard marker == 0x33, let bits = try fixed(at: start, size: 8) else { return nil }
            let date = Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits))
            return PreferenceValue.dateRange.contains(date) ? .date(date) : nil
        case 0x4: return .data(Data(try slice(at: start, count: count, width: 1)))
        case 0x5, 0x6: return try string(marker: marker, count: count, at: start).map(PreferenceValue.string)
        default: return nil  // UIDs (0x8), ordered sets (0xB), sets (0xC) and unknown markers
        }
    }

    private var tooManyValues: PropertyListMalformed {
        PropertyListMalformed("it stands for more than \(limit) values (a shared object counts each time it is used)")
    }

    /// Adds `values` to the document's count.
    /// - Throws: ``PropertyListMalformed`` past the limit.
    private mutating func count(_ values: Int) throws(PropertyListMalformed) {
        counted += values
        guard counted <= limit else { throw tooManyValues }
    }

    /// Adds `count` bytes to those scanned.
    /// - Throws: ``PropertyListMalformed`` past ``stepsPerByte`` bytes for each byte of the document.
    private mutating func scan(_ count: Int) throws(PropertyListMalformed) {
        guard count <= Self.stepsPerByte * bytes.count - steps else {
            throw PropertyListMalformed(
                "reading its objects would scan each byte more than \(Self.stepsPerByte) times (objects overlap)")
        }
        steps += count
    }

    /// The text of a dictionary key, read once however many dictionaries use it.
    private mutating func key(_ object: Int) throws(PropertyListMalformed) -> String? {
        if let known = keys[object] { return known }
        let (marker, count, start) = try header(of: object)
        let text = try string(marker: marker, count: count, at: start)
        keys[object] = .some(text)
        return text
    }

    /// The text of the object whose header was read, or nil when it is not a string or its text is not
    /// valid (ASCII above 0x7F, an unpaired UTF-16 surrogate).
    private mutating func string(marker: UInt8, count: Int, at start: Int) throws(PropertyListMalformed) -> String? {
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
    private mutating func header(of object: Int) throws(PropertyListMalformed) -> (marker: UInt8, count: Int, start: Int) {
        guard object >= 0, object < objectCount,
            let offset = Self.unsigned(bytes, at: offsetTable + object * offsetSize, size: offsetSize),
            offset >= Self.magic.count, offset < objectsEnd
        else { throw PropertyListMalformed("an object's offset is outside its object table") }
        try scan(offsetSize + 1)
        let marker = bytes[offset]
        let kind = marker >> 4
        guard [0x4, 0x5, 0x6, 0x8, 0xA, 0xB, 0xC, 0xD].contains(kind), marker & 0x0F == 0x0F else {
            return (marker, Int(marker & 0x0F), offset + 1)
        }
        // A count of 15 or more follows as an integer object: a marker 0x1n and 2^n bytes.
        let countMarker = offset + 1
        guard countMarker < objectsEnd, bytes[countMarker] >> 4 == 0x1, bytes[countMarker] & 0x0F <= 3,
            let count = try integer(marker: bytes[countMarker], at: countMarker + 1), count >= 0
        else { throw PropertyListMalformed("an object's length is not a valid integer") }
        return (marker, count, countMarker + 1 + (1 << Int(bytes[countMarker] & 0x0F)))
    }

    /// The integer of marker `0x1n` at `start`: 1, 2 and 4 bytes unsigned, 8 signed, 16 signed and
    /// kept only when it fits in `Int64`; nil otherwise or past the objects.
    private mutating func integer(marker: UInt8, at start: Int) throws(PropertyListMalformed) -> Int? {
        let size = 1 << Int(marker & 0x0F)
        guard size <= 16, start >= 0, size <= objectsEnd - start else { return nil }
        try scan(size)
        switch size {
        case 8: return Int(truncatingIfNeeded: Self.bits(bytes, at: start, size: 8))
        case 16:
            let high = Self.bits(bytes, at: start, size: 8)
            let low = Int(truncatingIfNeeded: Self.bits(bytes, at: start + 8, size: 8))
            // A 128-bit integer fits in Int64 when its high half is the low half's sign.
            return high == (low < 0 ? UInt64.max : 0) ? low : nil
        default: return Int(Self.bits(bytes, at: start, size: size))
        }
    }

    /// The `size` bytes at `start` as raw bits, or nil when they run past the objects.
    private mutating func fixed(at start: Int, size: Int) throws(PropertyListMalformed) -> UInt64? {
        guard size <= objectsEnd - start else { return nil }
        try scan(size)
        return Self.bits(bytes, at: start, size: size)
    }

    /// `count` items of `width` bytes at `start`.
    private mutating func slice(at start: Int, count: Int, width: Int) throws(PropertyListMalformed) -> ArraySlice<UInt8> {
        // NB: the count is bounded by the file's size before it is multiplied.
        guard count <= objectsEnd, count * width <= objectsEnd - start else {
            throw PropertyListMalformed("an object runs past its object table")
        }
        try scan(count * width)
        return bytes[start..<start + count * width]
    }

    /// A container's references: `count` of them, or twice that for a dictionary's keys and values.
    private mutating func references(count: Int, pairs: Bool, at start: Int) throws(PropertyListMalformed) -> [Int] {
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
