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
}
