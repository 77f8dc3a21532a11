import Foundation

extension JSONEncoder {
    /// An encoder for what the tools print or write: object keys sorted and slashes left unescaped, so
    /// the same value always gives the same text (diffable, testable); indented when `pretty`.
    public static func sorted(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
