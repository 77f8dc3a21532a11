import Foundation
import LayeredDefaults

/// The formats of a domain's document that `export` writes and `import` reads: the tool's tagged JSON,
/// and Foundation's XML and binary property lists (what `defaults export` writes, to standard output and
/// to a file, and what `UserDefaults` keeps).
enum DocumentFormat: String, CaseIterable {
    /// A JSON object of tagged values (see `prefs export --help`).
    case json
    /// An XML property list: whole-second dates, no negative zero.
    case xml
    /// A binary property list (`bplist00`).
    case binary

    /// The format `--format` names, else the one the file's extension names: `.json` is JSON, anything
    /// else (and standard output) XML.
    /// - Throws: ``PrefsError/usage(_:)`` for an unknown `--format`.
    init(option: String?, destination: String) throws(PrefsError) {
        if let option {
            guard let format = DocumentFormat(rawValue: option) else {
                throw .usage("--format must be one of: \(Self.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            self = format
        } else {
            let isJSON = destination != "-" && URL(fileURLWithPath: destination).pathExtension.lowercased() == "json"
            self = isJSON ? .json : .xml
        }
    }

    /// `values` in this format.
    /// - Throws: ``PrefsError/usage(_:)`` naming the keys a property list cannot hold exactly (nothing is
    ///   written then), or a storage error when the document cannot be encoded.
    func document(of values: [String: PreferenceValue], domain: String) throws -> Data {
        switch self {
        case .json:
            return values.isEmpty ? Data("{}\n".utf8) : try Output.jsonDocument(values)
        case .xml, .binary:
            let format: PropertyListFormat = self == .xml ? .xml : .binary
            let document = try PreferenceValue.propertyListData(values, format: format)
            let lost = PreferenceValue.lostKeys(in: values, reading: document)
            guard lost.isEmpty else {
                throw PrefsError.usage(
                    "\(self == .xml ? "an XML property list (whole-second dates, no negative zero)" : "a binary property list") cannot hold the values of \(lost.map { "'\($0)'" }.joined(separator: ", ")) in \(domain) exactly; nothing was written: use --format \(self == .xml ? "binary or json" : "json")"
                )
            }
            return document
        }
    }

    /// The values of a document read from `source` (`'file'` or `standard input`), in the format its
    /// content shows: a property list when it starts with `bplist` (binary) or, after white space, with
    /// `<` or a byte-order mark (XML), else JSON (whose errors describe anything else best).
    /// - Throws: ``PrefsError/usage(_:)`` naming where the input is wrong (a key or a key path, never a value).
    static func values(of input: Data, from source: String) throws -> [String: PreferenceValue] {
        let first = input.drop(while: { [0x20, 0x09, 0x0A, 0x0D].contains($0) }).first
        guard input.starts(with: Data("bplist".utf8)) || first == UInt8(ascii: "<") || first == 0xEF else {
            return try Import.decode(input, from: source)
        }
        do {
            return try PreferenceValue.dictionary(propertyList: input, path: source)
        } catch {
            // NB: one untyped catch and a switch: catch clauses matching cases of a typed throw crash the
            // 6.3 compiler here.
            switch error {
            case .notPropertyListFile(_, let reason):
                throw PrefsError.usage(
                    "\(source) is not a property list whose top level is a dictionary (\(reason)); nothing was changed")
            case .unmappableValues(_, let keys):
                throw PrefsError.usage(
                    "\(source) holds values of keys \(keys.map { "'\($0)'" }.joined(separator: ", ")) that have no exact preference type, or keys that are empty or held twice (\(DefaultsError.unmappableReasons)); nothing was changed"
                )
            default:
                throw PrefsError(error)
            }
        }
    }
}
