import Foundation
import LayeredDefaults

/// `prefs import <domain> <file|->`: replaces a domain with the contents of an export.
enum Import: Command {
    static let declaration = CommandDeclaration(
        synopsis: "import <domain> <file|->", operandKinds: [.domain, .file],
        help: """
            Replaces every key of <domain> with those of an export (JSON, or an XML or binary property list) read from <file> (or standard input for -).

            The input is a format `prefs export` writes (see `prefs export --help`), told by its content:
            an XML or binary property list (`defaults export`, or the file of a Foundation `UserDefaults`
            domain) when it starts with '<' or 'bplist', its top level a dictionary and every value keeping
            its type (booleans, integers and reals stay distinct); else JSON. The domain is created
            when missing; its keys not in the input are removed, but for a key the managed domain forces,
            which keeps its value (a line on standard error names it); all in one transaction. The input is read
            and checked completely first: when it is not valid, nothing is changed. Prints nothing.
            Exit status: 0; 1 when <file> does not exist; 2 when the input cannot be read or is not an export
            (nothing is changed); 3 when
            the store cannot be written (nothing is changed).
            """)

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = try operands(invocation, 2...2)
        let (domain, source) = (try Context.domainName(operands[0]), operands[1])
        let name = source == "-" ? "standard input" : "'\(source)'"
        let input: Data
        do {
            // NB: read no further than an export may be long: /dev/zero or an endless pipe is refused.
            input =
                source == "-"
                ? try context.console.readInput(DocumentInput.maximumSize)
                : try Descriptor.readAll(atPath: source, limit: DocumentInput.maximumSize)
        } catch let error as POSIXError where error.code == .ENOENT {
            throw PrefsError.notFound("cannot read \(name) (\(Export.reason(error))); nothing was changed")
        } catch {
            throw PrefsError.usage("cannot read \(name) (\(Export.reason(error))); nothing was changed")
        }
        guard input.count <= DocumentInput.maximumSize else {
            throw PrefsError.usage(
                "\(name) is larger than \(DocumentInput.maximumSize >> 20) MiB, more than an export may be; nothing was changed")
        }
        let values = try DocumentFormat.values(of: input, from: name)
        let kept = try context.changing(domain) { try $0.replacePersistentValues(values) }
        context.reportKept(kept, in: domain)
    }

    /// The values of an export.
    /// - Throws: ``PrefsError/usage(_:)`` naming where the input is wrong (a key path, never a value):
    ///   a value that is not an object of exactly one member of its type, base64 that is not canonical,
    ///   an integer not written as one, or a key it holds twice in one dictionary, at any depth
    ///   (literally, or as canonically equivalent texts), which a dictionary would silently make one.
    static func decode(_ input: Data, from source: String) throws(PrefsError) -> [String: PreferenceValue] {
        guard !input.isEmpty else {
            throw .usage("\(source) is empty, not a prefs export (an empty domain exports as {}); nothing was changed")
        }
        // NB: the decoder hashes every member name before any check of ours (see `String.isStreamSafe`).
        guard String(decoding: input, as: UTF8.self).isStreamSafe else {
            throw .usage(
                "\(source) holds text with more than \(String.maximumCombiningRun) combining marks in a row, which no key may hold; nothing was changed"
            )
        }
        // NB: counted before the decoder builds them all; what it builds is checked exactly below.
        let limit = PreferenceValue.maximumDocumentValues
        if JSONMemberScan.taggedValueCount(in: input, stoppingAbove: limit) > limit {
            throw .usage("\(source) is refused: \(PreferenceValue.tooManyValues); nothing was changed")
        }
        let values: [String: PreferenceValue]
        do {
            values = try JSONDecoder().decode([String: PreferenceValue].self, from: input)
        } catch let error as DecodingError {
            // NB: what `prefs read` prints, and `defaults read`, is old-style text: it says so, and what to do instead.
            if case .dictionary? = try? PropertyListText.parse(String(decoding: input, as: UTF8.self)) {
                throw .usage(
                    "\(source) is an old-style text property list (as `prefs read` prints), which import does not read: it cannot tell numbers, booleans and data from strings; import an export instead (an XML or binary property list, or the JSON of `prefs export`), or store the text, every value a string, with `prefs write <domain> '<dictionary>'`; nothing was changed"
                )
            }
            throw .usage(
                "\(source) is not an export (an XML or binary property list, or a JSON object of tagged values, see 'prefs export --help'): \(describe(error)); nothing was changed"
            )
        } catch {
            throw .usage("\(source) is not a prefs export: \(type(of: error)); nothing was changed")
        }
        switch JSONMemberScan.firstFinding(in: input) {
        case .repeatedMember(let key)?:
            throw .usage(
                "\(source) holds the key '\(key)' twice in one dictionary (perhaps as differently normalized Unicode); nothing was changed"
            )
        case .inexactInteger(let key)?:
            throw .usage(
                "\(source) holds an integer not written as one (with a fraction or an exponent) in the value of '\(key)'; nothing was changed"
            )
        case nil:
            break
        }
        if let excess = PreferenceValue.documentExcess(of: values) {
            throw .usage("\(source) is refused: \(excess); nothing was changed")
        }
        return values
    }

    private static func describe(_ error: DecodingError) -> String {
        // NB: only the key of the domain: what lies below it (a dictionary's keys) is the value's content.
        func at(_ context: DecodingError.Context) -> String {
            guard let key = context.codingPath.first?.stringValue else { return "at the top level" }
            return "in the value of key '\(Output.escapingControlCharacters(key))'"
        }
        // NB: the debug descriptions are left out: the JSON parser's may quote the input.
        switch error {
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON, or not an object" : "a malformed value \(at(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "a value of the wrong type \(at(context))"
        case .keyNotFound(_, let context):
            return "a missing member \(at(context))"
        @unknown default:
            return "an unexpected structure"
        }
    }
}
