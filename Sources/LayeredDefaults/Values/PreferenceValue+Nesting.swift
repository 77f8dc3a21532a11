extension PreferenceValue {
    /// How deeply arrays and dictionaries may nest in a value that is stored: 100 levels (`[[1]]` has
    /// two, a scalar none).
    ///
    /// Every write refuses a deeper value with ``DefaultsError/nestingTooDeep(suite:key:limit:)``
    /// before anything is written. A container is stored as its JSON, two JSON levels a level, and
    /// Foundation's `JSONEncoder` refuses JSON 512 levels deep: 255 levels still encode, 256 no longer.
    /// The limit stays well below that, so every stored value can also be exported and printed as JSON.
    public static let maximumNestingDepth = 100

    /// True when arrays and dictionaries nest deeper than ``maximumNestingDepth`` in this value, so no
    /// write can store it.
    package var exceedsNestingLimit: Bool { nests(deeperThan: Self.maximumNestingDepth) }

    /// True when containers nest more than `levels` deep.
    ///
    /// NB: it descends at most `levels + 1` containers, however deep the value is.
    private func nests(deeperThan levels: Int) -> Bool {
        switch self {
        case .array(let values): levels == 0 || values.contains { $0.nests(deeperThan: levels - 1) }
        case .dictionary(let values): levels == 0 || values.values.contains { $0.nests(deeperThan: levels - 1) }
        case .string, .integer, .double, .bool, .date, .data: false
        }
    }
}
