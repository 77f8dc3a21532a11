extension String {
    /// The most non-starters (combining marks) in a row that a key read from untrusted input may hold:
    /// 30, the Unicode Stream-Safe Text Format's limit (UAX #15), which no text of any language needs.
    package static let maximumCombiningRun = 30

    /// True when the text holds at most ``maximumCombiningRun`` combining marks in a row.
    ///
    /// NB: Swift hashes and compares strings in their normal form, which takes time quadratic in the
    /// longest run of combining marks: a key of tens of thousands of them costs seconds to hash. Every reader of
    /// untrusted text refuses such a key before it hashes it, and the write path before it stores one.
    package var isStreamSafe: Bool {
        // A scalar below U+0300 (no combining mark is) is UTF-8 bytes below 0xCC only.
        if utf8.allSatisfy({ $0 < 0xCC }) { return true }
        var run = 0
        for scalar in unicodeScalars {
            if scalar.properties.canonicalCombiningClass == .notReordered {
                run = 0
            } else {
                run += 1
                if run > Self.maximumCombiningRun { return false }
            }
        }
        return true
    }
}
