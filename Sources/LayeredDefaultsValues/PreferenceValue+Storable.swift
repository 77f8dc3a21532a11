import Foundation

extension PreferenceValue {
    /// How deeply arrays and dictionaries may nest in a value that is stored: 100 levels (`[[1]]` has
    /// two, a scalar none).
    ///
    /// Every write refuses a deeper value with ``DefaultsError/nestingTooDeep(suite:key:limit:)``
    /// before anything is written. A container is stored as its JSON, two JSON levels a level, and
    /// Foundation's `JSONEncoder` refuses JSON 512 levels deep: 255 levels still encode, 256 no longer.
    /// The limit stays well below that, so every stored value can also be exported and printed as JSON.
    public static let maximumNestingDepth = 100

    /// The dates a stored value may hold: from 0001-01-01 00:00:00 UTC up to, not including,
    /// 10000-01-01 00:00:00 UTC (proleptic Gregorian calendar).
    ///
    /// Every format the store reads and writes can hold these: an XML property list's and old-style
    /// text's four-digit years, a binary property list's and the database's seconds. Every write refuses
    /// a date outside it (NaN and the infinities among them) with
    /// ``DefaultsError/dateOutOfRange(suite:key:)``, and every reader treats one as a value it cannot map.
    public static let dateRange: Range<Date> =
        Date(
            timeIntervalSinceReferenceDate: Double(CivilCalendar.daysSinceReferenceDate(year: 1, month: 1, day: 1) * 86_400))..<Date(
            timeIntervalSinceReferenceDate: Double(CivilCalendar.daysSinceReferenceDate(year: 10_000, month: 1, day: 1) * 86_400))

    /// Refuses what no write may store: containers nested deeper than ``maximumNestingDepth``, a date
    /// outside ``dateRange``.
    /// - Throws: ``DefaultsError/nestingTooDeep(suite:key:limit:)`` or
    ///   ``DefaultsError/dateOutOfRange(suite:key:)``, naming `suite` and `key`.
    package func checkStorable(suite: String, key: String) throws(DefaultsError) {
        if nests(deeperThan: Self.maximumNestingDepth) {
            throw .nestingTooDeep(suite: suite, key: key, limit: Self.maximumNestingDepth)
        }
        if containsDateOutsideRange {
            throw .dateOutOfRange(suite: suite, key: key)
        }
    }

    /// True when containers nest more than `levels` deep.
    ///
    /// It descends at most `levels + 1` containers, however deep the value is.
    private func nests(deeperThan levels: Int) -> Bool {
        switch self {
        case .array(let values): levels == 0 || values.contains { $0.nests(deeperThan: levels - 1) }
        case .dictionary(let values): levels == 0 || values.values.contains { $0.nests(deeperThan: levels - 1) }
        case .string, .integer, .double, .bool, .date, .data: false
        }
    }

    /// True when a date in this value lies outside ``dateRange`` (checked after the nesting limit, so the
    /// recursion is bounded).
    private var containsDateOutsideRange: Bool {
        switch self {
        case .date(let date): !Self.dateRange.contains(date)
        case .array(let values): values.contains { $0.containsDateOutsideRange }
        case .dictionary(let values): values.values.contains { $0.containsDateOutsideRange }
        case .string, .integer, .double, .bool, .data: false
        }
    }
}
