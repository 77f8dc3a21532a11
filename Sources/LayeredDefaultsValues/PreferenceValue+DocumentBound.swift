/// The one bound on what a document stands for, in values and in bytes, which every reader of a document
/// applies to what it read: XML, binary and old-style text property lists, `prefs import`'s JSON and
/// `importUserDefaults`.
///
/// NB: a binary property list refers to its objects by index, so one 1 MiB string may be the value of
/// hundreds of keys in a document of about 1 MiB: stored, each use is a copy (400 uses stored 421 MB).
/// So what a document stands for is counted at each use of every object, never by its own size.
extension PreferenceValue {
    /// The most bytes of text and data a document may stand for: the UTF-8 bytes of every key and string
    /// and the bytes of every data, each use of a shared object counted again. It is the one cap on a
    /// document's own size (``DocumentInput/maximumSize``, 64 MiB): sharing never lets a document stand for
    /// more than an unshared one may be.
    static let maximumDocumentBytes = DocumentInput.maximumSize

    /// The most values a document may stand for (``maximumPropertyListValues``), for the readers outside
    /// this module that count before they decode.
    package static var maximumDocumentValues: Int { maximumPropertyListValues }

    /// Why a document standing for more than ``maximumDocumentValues`` values is refused.
    package static var tooManyValues: String {
        "it stands for more than \(maximumPropertyListValues) values (a shared object counts each time it is used)"
    }

    /// Why the values of one document (each key with its value) stand for more than a document may, in
    /// words naming no value; nil when they do not.
    ///
    /// At most ``maximumPropertyListValues`` values (every value counts, a container and each of its
    /// elements) and ``maximumDocumentBytes`` bytes of text and data, each use of a shared value counted
    /// again. The walk stops at the first bound passed, so its work is bounded by them, not by what the
    /// values stand for.
    package static func documentExcess(of entries: some Sequence<(key: String, value: PreferenceValue)>) -> String? {
        var (values, bytes) = (0, 0)
        var pending: [PreferenceValue] = []
        func add(_ count: Int) -> Bool {
            bytes += count
            return bytes <= maximumDocumentBytes
        }
        var tooManyBytes: String {
            "it stands for more than \(maximumDocumentBytes) bytes of text and data (a shared object counts each time it is used)"
        }
        for (key, value) in entries {
            guard add(key.utf8.count) else { return tooManyBytes }
            pending.append(value)
            while let next = pending.popLast() {
                values += 1
                guard values <= maximumPropertyListValues else { return tooManyValues }
                switch next {
                case .string(let text): guard add(text.utf8.count) else { return tooManyBytes }
                case .data(let data): guard add(data.count) else { return tooManyBytes }
                case .array(let elements): pending.append(contentsOf: elements)
                case .dictionary(let members):
                    for (key, value) in members {
                        guard add(key.utf8.count) else { return tooManyBytes }
                        pending.append(value)
                    }
                default: break
                }
            }
        }
        return nil
    }
}
