import Foundation

/// The binary encodings of a property list that Foundation reads and writes: what `UserDefaults`
/// keeps on disk (XML on Linux, binary on macOS) and what `defaults export` writes.
package enum PropertyListFormat: String, Sendable, CaseIterable {
    /// `<?xml ...><plist>...`: whole-second dates, no negative zero.
    case xml
    /// `bplist00...`: every value exactly.
    case binary

    var foundation: PropertyListSerialization.PropertyListFormat {
        switch self {
        case .xml: .xml
        case .binary: .binary
        }
    }
}

/// A key of a property list's top-level dictionary and its value: nil where the value has no exact
/// ``PreferenceValue``.
struct PropertyListEntry {
    /// The key, as the document spells it.
    var key: String
    /// The value, or nil when it has none.
    var value: PreferenceValue?
}

/// Why a document is not a property list the store reads: a reason about its structure, never its text.
struct PropertyListMalformed: Error {
    /// What is wrong, e.g. "its top level is not a dictionary".
    let reason: String

    init(_ reason: String) { self.reason = reason }
}

extension PreferenceValue {
    /// The most values a property-list document may stand for, counting an object shared by several
    /// containers of a binary property list each time it is used: a few hundred bytes could otherwise
    /// stand for billions of values.
    static let maximumPropertyListValues = 1_000_000

    /// The dictionary of a property-list document (XML or binary), each value mapped exactly: booleans to
    /// `.bool`, integers to `.integer`, reals to `.double`, dates, data, strings, arrays and dictionaries
    /// to theirs.
    ///
    /// The document is read by the package's own strict readers (``XMLPropertyListReader``,
    /// ``BinaryPropertyListReader``), never by Foundation: what a file holds is never guessed at, and no
    /// file can crash the reader.
    /// - Parameters:
    ///   - data: the document.
    ///   - path: where it came from, for the errors.
    ///   - excluded: keys left out, unmapped.
    /// - Throws: ``DefaultsError/notPropertyListFile(path:reason:)`` when it is not an XML or binary
    ///   property list whose top level is a dictionary, stands for more than
    ///   ``maximumPropertyListValues`` values or ``maximumDocumentBytes`` bytes of text and data (see
    ///   ``documentExcess(of:)``), or is a binary one whose reading would scan more than
    ///   `BinaryPropertyListReader.stepsPerByte` bytes for each of its own (its objects overlap);
    ///   ``DefaultsError/unmappableValues(path:keys:)`` naming every key that is empty or held twice, or
    ///   whose value has no exact ``PreferenceValue`` (see the error).
    package static func dictionary(
        propertyList data: Data, path: String, excluding excluded: Set<String> = []
    ) throws(DefaultsError) -> [String: PreferenceValue] {
        let bytes = [UInt8](data)
        let entries: [PropertyListEntry]
        do throws(PropertyListMalformed) {
            if bytes.starts(with: BinaryPropertyListReader.magic) {
                entries = try BinaryPropertyListReader.entries(of: bytes, limit: maximumPropertyListValues)
            } else if bytes.drop(while: { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }).first
                == UInt8(ascii: "<")
            {
                entries = try XMLPropertyListReader.entries(of: bytes, limit: maximumPropertyListValues)
            } else if let text = String(validating: bytes, as: UTF8.self),
                case .dictionary? = try? PropertyListText.parse(text)
            {
                throw PropertyListMalformed("an old-style (text) property list, whose values are all strings")
            } else {
                throw PropertyListMalformed("not an XML or binary property list")
            }
        } catch {
            throw .notPropertyListFile(path: path, reason: error.reason)
        }
        let mapped = entries.lazy.compactMap { entry in entry.value.map { (key: entry.key, value: $0) } }
        if let excess = documentExcess(of: mapped) { throw .notPropertyListFile(path: path, reason: excess) }
        var values: [String: PreferenceValue] = [:]
        var unmappable: Set<String> = []
        // NB: before any key is hashed (see `String.isStreamSafe`).
        guard entries.allSatisfy({ $0.key.isStreamSafe }) else {
            throw .notPropertyListFile(
                path: path, reason: "a key holds more than \(String.maximumCombiningRun) combining marks in a row")
        }
        for entry in entries where !excluded.contains(entry.key) {
            // String's == treats canonically equivalent texts as one key, as the store does.
            if !entry.key.isEmpty, let value = entry.value,
                values.updateValue(value, forKey: entry.key) == nil
            {
                continue
            }
            unmappable.insert(entry.key)
        }
        guard unmappable.isEmpty else { throw .unmappableValues(path: path, keys: unmappable.sorted()) }
        return values
    }

    /// A property-list document (`format`) of `values`, written by Foundation's `PropertyListSerialization`.
    ///
    /// Not every value survives every format: an XML date keeps whole seconds, and XML has no negative
    /// zero. ``lostKeys(in:reading:)`` finds the keys that did not survive.
    ///
    /// Foundation writes the document: it is given only values of the store, never untrusted input.
    /// - Throws: Foundation's error when it cannot write the document.
    package static func propertyListData(_ values: [String: PreferenceValue], format: PropertyListFormat) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: values.mapValues(\.anyValue), format: format.foundation, options: 0)
    }

    /// The keys of `values` whose value `document` (their property list, read back) does not hold
    /// exactly, sorted: empty when the document is lossless.
    package static func lostKeys(in values: [String: PreferenceValue], reading document: Data) -> [String] {
        guard let read = try? dictionary(propertyList: document, path: "") else { return values.keys.sorted() }
        return values.keys.filter { key in !(read[key].map { $0.isIdentical(to: values[key]!) } ?? false) }.sorted()
    }

    /// True when `other` is this value bit for bit: unlike `==`, `0.0` is not `-0.0` and NaN is NaN.
    package func isIdentical(to other: PreferenceValue) -> Bool {
        switch (self, other) {
        case (.double(let x), .double(let y)):
            return x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
        case (.date(let x), .date(let y)):
            let (s, t) = (x.timeIntervalSinceReferenceDate, y.timeIntervalSinceReferenceDate)
            return s.bitPattern == t.bitPattern || (s.isNaN && t.isNaN)
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.isIdentical(to: $1) }
        case (.dictionary(let x), .dictionary(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { value.isIdentical(to: $0) } ?? false }
        default:
            return self == other
        }
    }
}
