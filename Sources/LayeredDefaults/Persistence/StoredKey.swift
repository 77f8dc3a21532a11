import Foundation

/// The form in which a key sits in SQLite: Unicode Normalization Form C (NFC).
///
/// Swift's `String` equality, which every in-memory dictionary of the library and of its callers
/// uses, makes canonically equivalent texts one key: "é" as one scalar (NFC) and as "e" followed by a
/// combining accent (NFD). SQLite compares bytes. So ``PreferencesTable`` binds every key in NFC (a query, an
/// upsert, a delete) and reads every row back under the NFC of its key. A file written by an earlier
/// version, or by another program, may hold a key in another form, or one key in several rows: the
/// row in NFC wins, else the first of the others in byte order of the key. Reading never changes the
/// file; removing a key removes every row of it.
enum StoredKey {
    /// `key` in NFC. An all-ASCII key is already in NFC and is returned as it is, without normalizing.
    static func form(of key: String) -> String {
        isASCII(key) ? key : key.precomposedStringWithCanonicalMapping
    }

    /// True when a key stored as `storedKey` may also sit in rows under other forms: when it is not all
    /// ASCII.
    static func mayHaveOtherForms(_ storedKey: String) -> Bool {
        // NB: the NFC of three non-ASCII characters is ASCII (KELVIN SIGN is "K", GREEK QUESTION MARK ";",
        // GREEK VARIA "`"). A row whose key is ASCII but for them is found by no read and left as it is
        // (see `key(ofRow:)`): looking for other forms of ASCII keys would make every missing ASCII key,
        // such as each read of a registered default, scan the domain.
        !isASCII(storedKey)
    }

    /// The key that a row whose key column holds `text` stores, and whether `text` is that key's stored
    /// form (NFC); nil for a row that no read finds (see ``mayHaveOtherForms(_:)``).
    static func key(ofRow text: String) -> (key: String, isStoredForm: Bool)? {
        if isASCII(text) { return (text, true) }
        let key = text.precomposedStringWithCanonicalMapping
        if key.utf8.elementsEqual(text.utf8) { return (text, true) }
        return isASCII(key) ? nil : (key, false)
    }

    /// True when every byte of `text` is ASCII.
    private static func isASCII(_ text: String) -> Bool {
        // Over the contiguous bytes (any native string): walking the `UTF8View` index by index costs
        // each write a measurable share (docs/PERFORMANCE.md).
        text.utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 < 0x80 } }
            ?? text.utf8.allSatisfy { $0 < 0x80 }
    }
}
