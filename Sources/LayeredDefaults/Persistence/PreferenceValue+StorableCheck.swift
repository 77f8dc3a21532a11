import Foundation

/// The one check of what a value may be before any write stores it, whatever its source: a write, an
/// import, a restore, a drop-in file, a sync file, a schema's default.
extension PreferenceValue {
    /// Refuses what no write may store: containers nested deeper than ``maximumNestingDepth``, a date
    /// outside ``dateRange``.
    /// - Throws: ``DefaultsError/nestingTooDeep(suite:key:limit:)`` or
    ///   ``DefaultsError/dateOutOfRange(suite:key:)``, naming `suite` and `key`.
    func checkStorable(suite: String, key: String) throws(DefaultsError) {
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
