extension DefaultsRecorder {
    /// How strictly a ``DefaultsRecorder`` compares the persistent domain with an expectation.
    ///
    /// ```swift
    /// recorder.exhaustivity = .off(showSkippedAssertions: true)
    /// ```
    public enum Exhaustivity: Sendable, Hashable {
        /// Every change to the domain must be stated: any key that differs from the expectation fails
        /// the test, and so does a change that is never asserted. The default.
        case on
        /// Only the keys an expectation sets or removes are checked; other changes pass. With
        /// `showSkippedAssertions`, what was not asserted is shown as a known issue (Swift Testing) or
        /// printed (XCTest), without failing.
        case off(showSkippedAssertions: Bool)

        /// Only the keys an expectation sets or removes are checked; other changes pass silently.
        public static let off = Self.off(showSkippedAssertions: false)
    }
}
