import Foundation

@testable import LayeredDefaults
@testable import LayeredDefaultsValues

extension FuzzTarget {
    /// A binary property list as `prefs import` and `Defaults.importUserDefaults` read it
    /// (`PreferenceValue.dictionary(propertyList:path:)`). An
    /// input that does not start with `bplist00` gets that header put before it, so every input reaches
    /// the binary reader. Invariants: those of ``expectPropertyListImport(_:)``.
    static let binaryPropertyList = FuzzTarget(name: "binary-property-list") { data throws(FuzzViolation) in
        let header = Data("bplist00".utf8)
        try expectPropertyListImport(data.starts(with: header) ? data : header + data)
    }

    /// An XML property list (or anything else) as `prefs import` and `Defaults.importUserDefaults` read
    /// it: the input as it is. Invariants: those of ``expectPropertyListImport(_:)``.
    static let xmlPropertyList = FuzzTarget(name: "xml-property-list") { data throws(FuzzViolation) in
        try expectPropertyListImport(data)
    }

    /// Checks the invariants of reading a property-list document: its values, or one of the two typed
    /// errors, naming the document's path; values under non-empty keys, each one a write may store (nested
    /// no deeper than ``PreferenceValue/maximumNestingDepth``, dates in ``PreferenceValue/dateRange``), no more than ``PreferenceValue/maximumPropertyListValues``
    /// in all, standing for no more than ``PreferenceValue/maximumDocumentBytes`` bytes; written as a binary property list (what `prefs export --format binary` writes), read back
    /// identical (for documents of up to ``roundTripLimit`` values).
    static func expectPropertyListImport(_ document: Data) throws(FuzzViolation) {
        let path = "fuzz input"
        let values: [String: PreferenceValue]
        do {
            values = try PreferenceValue.dictionary(propertyList: document, path: path)
        } catch DefaultsError.notPropertyListFile(let named, _), DefaultsError.unmappableValues(let named, _) {
            try expect(named == path, "a refused document is named by its path")
            return
        } catch {
            throw FuzzViolation(
                invariant: "a document is refused only as notPropertyListFile or unmappableValues, not \(type(of: error))")
        }
        try expect(!values.keys.contains(""), "no value is read under an empty key")
        for (key, value) in values {
            do {
                try value.checkStorable(suite: "fuzz", key: key)
            } catch {
                throw FuzzViolation(invariant: "every value read can be stored (nesting, dates in range)")
            }
        }
        let count = values.values.reduce(0) { $0 + $1.valueCount }
        try expect(count <= PreferenceValue.maximumPropertyListValues, "a document read holds at most the limit of values")
        try expect(
            PreferenceValue.documentExcess(of: values) == nil,
            "a document read stands for no more than the limit of values and of bytes, each use of a shared object counted")
        // NB: writing and reading back costs in proportion to the values, not to the document's bytes,
        // and a few hundred bytes of shared objects may stand for the limit: the fuzzer's per-input
        // timeout is for the reader, so only documents of up to `roundTripLimit` values take this trip.
        guard count <= roundTripLimit else { return }
        let written: Data
        do {
            written = try PreferenceValue.propertyListData(values, format: .binary)
        } catch {
            throw FuzzViolation(invariant: "the values of a document read can be written as a binary property list")
        }
        try expect(
            PreferenceValue.lostKeys(in: values, reading: written).isEmpty,
            "the values of a document read, written as a binary property list, read back identical")
    }
}

/// The most values a document read may stand for to be written back and read again (see
/// ``FuzzTarget/expectPropertyListImport(_:)``): far more than any seed or finding.
let roundTripLimit = 10_000

extension PreferenceValue {
    /// How many values this is: one, plus those it holds.
    fileprivate var valueCount: Int {
        switch self {
        case .array(let values): values.reduce(1) { $0 + $1.valueCount }
        case .dictionary(let values): values.values.reduce(1) { $0 + $1.valueCount }
        default: 1
        }
    }
}
