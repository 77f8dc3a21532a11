extension Duration {
    /// This duration in whole milliseconds, as `poll` and SQLite's busy timeout take it: clamped to
    /// `0...Int32.max`, never trapping.
    var wholeMilliseconds: Int32 {
        let (seconds, attoseconds) = components
        guard seconds < Int64(Int32.max / 1000) else { return .max }
        guard seconds >= 0 else { return 0 }
        return Int32(max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    }
}
