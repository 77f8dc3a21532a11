/// Days of the proleptic Gregorian calendar, as property lists count them.
enum CivilCalendar {
    /// The days in `month` (1-12) of `year`.
    static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The days from 2001-01-01 to the given day (negative before it).
    ///
    /// NB: Howard Hinnant's `days_from_civil`, shifted from 1970 to 2001 (11,323 days).
    static func daysSinceReferenceDate(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468 - 11_323
    }
}
