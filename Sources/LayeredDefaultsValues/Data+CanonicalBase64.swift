import Foundation

extension Data {
    /// The bytes of `text` when it is canonical padded base64, as `base64EncodedString()` writes it;
    /// nil otherwise. Foundation's decoder reads more: "AB==", whose unused bits are not zero, as the
    /// byte of "AA==", so two texts would be one value.
    init?(canonicalBase64 text: String) {
        guard let data = Data(base64Encoded: text), data.base64EncodedString() == text else { return nil }
        self = data
    }
}
