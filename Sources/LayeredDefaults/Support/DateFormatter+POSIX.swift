import Foundation

extension DateFormatter {
    /// A formatter of the fixed `format` in UTC with the POSIX locale: the same text on every machine,
    /// whatever the user's locale, calendar or time zone.
    static func posixUTC(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter
    }
}
