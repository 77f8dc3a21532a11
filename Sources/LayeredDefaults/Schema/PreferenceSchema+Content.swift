import Foundation

extension PreferenceSchema {
    /// What a string key's text holds, beyond being a string, where the app knows it: what a script or an
    /// administrator writing the key from outside the app must give, and what the write path checks.
    ///
    /// Typed keys of `UUID`, `URL` and ``CodablePreference`` types declare theirs
    /// (``PreferenceRepresentable/schemaContent``).
    public enum Content: String, Sendable, Hashable, CaseIterable, Codable {
        /// A UUID's text, as `UUID(uuidString:)` reads it (`E621E1F8-C36C-495A-93FC-0C247A3E6E5F`).
        case uuid
        /// A URL's text, as a `URL` key reads it: a URL with a scheme, `~/...`, or a file path; not blank,
        /// and without a control character.
        case url
        /// JSON text (a ``CodablePreference``'s stored form).
        case json

        /// True when `text` holds this content.
        public func admits(_ text: String) -> Bool {
            switch self {
            case .uuid: UUID(uuidString: text) != nil
            case .url:
                !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
                    && !text.unicodeScalars.contains { $0.properties.generalCategory == .control }
                    && (!StoredURL.hasScheme(text) || URL(string: text) != nil)
            case .json: (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) != nil
            }
        }

        /// The content with an article, for messages: `a UUID`, `a URL`, `JSON text`.
        var phrase: String {
            switch self {
            case .uuid: "a UUID"
            case .url: "a URL"
            case .json: "JSON text"
            }
        }
    }
}
