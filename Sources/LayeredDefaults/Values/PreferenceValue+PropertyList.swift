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

extension PreferenceValue {
    /// The most values a binary property-list document may stand for, counting an object shared by
    /// several containers each time it is used: a few hundred bytes could otherwise stand for billions
    /// of values (see ``BinaryPropertyListSize``). An XML document has no shared objects.
    package static let maximumPropertyListValues = 1_000_000

    /// The dictionary of a property-list document (XML or binary), each value mapped exactly: Foundation's
    /// booleans to `.bool`, its integers to `.integer`, its reals to `.double`, dates, data, strings,
    /// arrays and dictionaries to theirs.
    /// - Parameters:
    ///   - data: the document.
    ///   - path: where it came from, for the errors.
    ///   - excluded: keys left out, unmapped.
    /// - Throws: ``DefaultsError/notPropertyListFile(path:reason:)`` when it is not an XML or binary
    ///   property list whose top level is a dictionary; ``DefaultsError/unmappableValues(path:keys:)``
    ///   naming every key whose value has no exact ``PreferenceValue`` (an integer above `Int64.max`,
    ///   nesting deeper than ``maximumNestingDepth``, a binary-only object such as a UID), or that is
    ///   empty. A document of more than ``maximumPropertyListValues`` values is not read.
    package static func dictionary(
        propertyList data: Data, path: String, excluding excluded: Set<String> = []
    ) throws -> [String: PreferenceValue] {
        if let count = BinaryPropertyListSize.expandedCount(of: data, limit: maximumPropertyListValues),
            count > maximumPropertyListValues
        {
            throw DefaultsError.notPropertyListFile(
                path: path,
                reason:
                    "it stands for more than \(maximumPropertyListValues) values (a shared object counts each time it is used)")
        }
        var format = PropertyListSerialization.PropertyListFormat.openStep
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: &format)
        } catch {
            // NB: Foundation's error descriptions may quote the document; only its kind is told.
            throw DefaultsError.notPropertyListFile(path: path, reason: "not an XML or binary property list")
        }
        guard format == .xml || format == .binary else {
            throw DefaultsError.notPropertyListFile(
                path: path, reason: "an old-style (text) property list, whose values are all strings")
        }
        guard let top = object as? [String: Any] else {
            throw DefaultsError.notPropertyListFile(path: path, reason: "its top level is not a dictionary")
        }
        var values: [String: PreferenceValue] = [:]
        var unmappable: [String] = []
        for (key, object) in top where !excluded.contains(key) {
            if !key.isEmpty, let value = PreferenceValue(propertyListObject: object), !value.exceedsNestingLimit {
                values[key] = value
            } else {
                unmappable.append(key)
            }
        }
        guard unmappable.isEmpty else { throw DefaultsError.unmappableValues(path: path, keys: unmappable.sorted()) }
        return values
    }

    /// An object of `PropertyListSerialization` as a value, or nil when it has no exact one.
    ///
    /// NB: Foundation on Linux decodes `<true/>` as a Swift `Bool` and numbers as `NSNumber`, whose
    /// `objCType` tells integers (`q`, `i`, ... and `Q` for those above `Int64.max`) from reals (`d`,
    /// `f`); on Darwin a boolean is an `NSNumber` of type `c`, which no integer of a property list has.
    /// The exact type is tested, never a cast: `NSNumber as? Bool` succeeds for any 0 or 1.
    private init?(propertyListObject object: Any) {
        switch object {
        case let string as String: self = .string(string)
        case let date as Date: self = .date(date)
        case let data as Data: self = .data(data)
        case let array as [Any]:
            var values: [PreferenceValue] = []
            values.reserveCapacity(array.count)
            for element in array {
                guard let value = PreferenceValue(propertyListObject: element) else { return nil }
                values.append(value)
            }
            self = .array(values)
        case let dictionary as [String: Any]:
            var values: [String: PreferenceValue] = [:]
            for (key, element) in dictionary {
                guard let value = PreferenceValue(propertyListObject: element) else { return nil }
                values[key] = value
            }
            self = .dictionary(values)
        default:
            if type(of: object) == Bool.self, let flag = object as? Bool {
                self = .bool(flag)
                return
            }
            guard type(of: object) is NSNumber.Type, let number = object as? NSNumber else { return nil }
            switch String(cString: number.objCType) {
            case "c", "B": self = .bool(number.boolValue)
            case "d", "f": self = .double(number.doubleValue)
            case "Q", "L", "I", "S", "C":
                guard let exact = Int(exactly: number.uint64Value) else { return nil }
                self = .integer(exact)
            default: self = .integer(number.intValue)
            }
        }
    }

    /// A property-list document (`format`) of `values`, written by Foundation's `PropertyListSerialization`.
    ///
    /// Not every value survives every format: an XML date keeps whole seconds, and XML has no negative
    /// zero. ``lostKeys(in:reading:)`` finds the keys that did not survive.
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
