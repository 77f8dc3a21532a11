@testable import LayeredDefaults

/// Collects the errors an instance reports to its error handler instead of printing them.
final class Reported: Sendable {
    private let collected = Lock<[DefaultsError]>([])
    var errors: [DefaultsError] { collected.withLock { $0 } }
    /// The error handler to configure a store with.
    func record(_ error: DefaultsError) { collected.withLock { $0.append(error) } }
}
