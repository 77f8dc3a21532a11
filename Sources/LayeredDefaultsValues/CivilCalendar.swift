import Foundation

/// Days and times of the proleptic Gregorian calendar, as property lists count them (Foundation's
/// `DateFormatter` switches to the Julian calendar before 1582, which the formats do not).
package enum CivilCalendar {
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
    /// Howard Hinnant's `days_from_civil`, shifted from 1970 to 2001 (11,323 days).
    static func daysSinceReferenceDate(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468 - 11_323
    }

    /// The day `days` after 2001-01-01 (before it when negative), as a year, month (1-12) and day.
    ///
    /// Howard Hinnant's `civil_from_days`, the inverse of ``daysSinceReferenceDate(year:month:day:)``.
    static func civilDay(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 11_323 + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, dayOfYear - (153 * monthIndex + 2) / 5 + 1)
    }

    /// `date` as `2026-11-29 21:44:42 +0000` (whole seconds, UTC), as `defaults read` prints dates; nil
    /// outside ``PreferenceValue/dateRange``.
    static func text(of date: Date) -> String? {
        guard PreferenceValue.dateRange.contains(date) else { return nil }
        let seconds = Int(date.timeIntervalSinceReferenceDate.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400  // rounded down
        let second = seconds - days * 86_400
        let (year, month, day) = civilDay(days)
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        let yearText = String(repeating: "0", count: 4 - String(year).count) + String(year)
        return "\(yearText)-\(two(month))-\(two(day)) \(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60)) +0000"
    }

    /// The moment `text` names, in one of the forms `prefs write -date` takes: `2026-11-29`,
    /// `2026-11-29 21:44:42 +0000` (what ``text(of:)`` prints; any `±hhmm` offset), or ISO 8601's
    /// `2026-11-29T21:44:42Z` (a fraction of a second and a `±hh:mm` offset allowed); nil for anything
    /// else, a day or time that does not exist, or a moment outside ``PreferenceValue/dateRange``.
    package static func date(parsing text: String) -> Date? {
        var scanner = Array(text.utf8)[...]
        func number(_ digits: Int) -> Int? {
            guard scanner.count >= digits, scanner.prefix(digits).allSatisfy({ (48...57).contains($0) }) else { return nil }
            defer { scanner = scanner.dropFirst(digits) }
            return scanner.prefix(digits).reduce(0) { $0 * 10 + Int($1 - 48) }
        }
        func take(_ character: Character) -> Bool {
            guard scanner.first == character.asciiValue else { return false }
            scanner = scanner.dropFirst()
            return true
        }
        guard let year = number(4), take("-"), let month = number(2), take("-"), let day = number(2),
            year >= 1, (1...12).contains(month), (1...days(inMonth: month, of: year)).contains(day)
        else { return nil }
        var seconds = Double(daysSinceReferenceDate(year: year, month: month, day: day) * 86_400)
        if !scanner.isEmpty {
            let iso = take("T")
            guard iso || take(" "), let hour = number(2), take(":"), let minute = number(2), take(":"),
                let second = number(2), hour < 24, minute < 60, second < 60
            else { return nil }
            seconds += Double(hour * 3600 + minute * 60 + second)
            if iso, take(".") {
                let start = scanner
                while let digit = scanner.first, (48...57).contains(digit) { scanner = scanner.dropFirst() }
                guard scanner.startIndex > start.startIndex,
                    let fraction = Double("0." + String(decoding: start[..<scanner.startIndex], as: UTF8.self))
                else { return nil }
                seconds += fraction
            }
            if iso, take("Z") {
            } else {
                guard iso || take(" ") else { return nil }
                let sign: Double = take("+") ? 1 : take("-") ? -1 : 0
                guard sign != 0, let hours = number(2), iso ? take(":") : true, let minutes = number(2), hours < 24,
                    minutes < 60
                else { return nil }
                seconds -= sign * Double(hours * 3600 + minutes * 60)
            }
            guard scanner.isEmpty else { return nil }
        }
        let date = Date(timeIntervalSinceReferenceDate: seconds)
        return PreferenceValue.dateRange.contains(date) ? date : nil
    }
}
