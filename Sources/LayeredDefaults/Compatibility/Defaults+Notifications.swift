import Foundation

extension Defaults {
    /// Posted to `NotificationCenter.default` (object: the instance) after every change made through an
    /// instance: a write, a removal, a domain replaced or removed, a registration, a volatile domain or
    /// suite change. `UserDefaults.didChangeNotification`'s counterpart; the core's observation
    /// (``observe(_:initial:handler:)``, ``changes(forKey:initial:bufferingPolicy:)``) also sees other processes' writes.
    public static let didChangeNotification = Notification.Name("LayeredDefaultsDidChangeNotification")

    func postDidChangeNotification() {
        NotificationCenter.default.post(name: Self.didChangeNotification, object: self)
    }
}
