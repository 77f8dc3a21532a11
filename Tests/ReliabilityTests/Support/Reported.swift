@testable import LayeredDefaults

/// Collects the errors an instance reports to its ``Defaults/errorHandler`` instead of printing them.
final class Reported: Sendable {
    private let collected = Lock<[DefaultsError]>([])
    var errors: [DefaultsError] { collected.withLock { $0 } }
    func attach(to defaults: Defaults) {
        defaults.errorHandler = { error in self.collected.withLock { $0.append(error) } }
    }
}
