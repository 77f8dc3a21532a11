import Foundation
import LayeredDefaults
import LayeredDefaultsCompatibility
import PackageTestSupport

/// How many `Defaults.didChangeNotification`s `defaults` posts while `body` runs (posted synchronously).
func changeNotifications(of defaults: Defaults, during body: () throws -> Void) rethrows -> Int {
    let counter = Counter()
    let token = NotificationCenter.default.addObserver(forName: Defaults.didChangeNotification, object: defaults, queue: nil) {
        _ in counter.increment()
    }
    defer { NotificationCenter.default.removeObserver(token) }
    try body()
    return counter.value
}
