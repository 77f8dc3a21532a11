import Foundation

/// How a `URL` is stored: as a string, which `url(forKey:)` and the `URL` typed key read back.
enum StoredURL {
    /// The text `url` is stored as: a file URL under the home directory as `~/...`, any other URL as its
    /// whole absolute string.
    static func text(of url: URL) -> String {
        guard url.isFileURL else { return url.absoluteString }
        let path = url.standardizedFileURL.path
        let home = homeDirectory
        if path == home { return "~" }
        if path.hasPrefix(home.hasSuffix("/") ? home : home + "/") { return "~/" + path.dropFirst(home.count).drop { $0 == "/" } }
        return url.absoluteString
    }

    /// The URL a stored string stands for: a string with a scheme is that URL, `~/...` a file URL under
    /// the home directory, any other string a file path; nil for an empty string.
    static func url(fromText text: String) -> URL? {
        guard !text.isEmpty else { return nil }
        if text == "~" || text.hasPrefix("~/") {
            return URL(fileURLWithPath: homeDirectory + text.dropFirst())
        }
        if hasScheme(text), let url = URL(string: text) { return url }
        return URL(fileURLWithPath: text)
    }

    static var homeDirectory: String { Location.homeDirectory(environment: nil).path }

    /// True when `text` starts with an RFC 3986 scheme: a letter, then letters, digits, `+`, `-`, `.`, then `:`.
    static func hasScheme(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex, text.first!.isASCII, text.first!.isLetter
        else { return false }
        return text[..<colon].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }
}
