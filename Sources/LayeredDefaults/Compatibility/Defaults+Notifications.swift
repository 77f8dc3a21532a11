import Foundation

extension Defaults {
    /// Posted to `NotificationCenter.default` (object: the instance) after every change made through an
    /// instance created with ``Configuration/postsChangeNotifications`` on: a write, a removal, a domain
    /// replaced or removed, a registration, a volatile domain or suite change. Off by default, which is
    /// where it differs from `UserDefaults.didChangeNotification` (posted by Foundation on Darwin after
    /// every change, on Linux only for whole-domain changes); the core's observation
    /// (``observe(_:initial:handler:)``, ``changes(of:initial:bufferingPolicy:)``) needs no opt-in and also sees other processes' writes.
    public static let didChangeNotification = Notification.Name("LayeredDefaultsDidChangeNotification")

    /// Posts ``didChangeNotification`` when the configuration asks for it.
    func postDidChangeNotification() {
        guard configuration.postsChangeNotifications else { return }
        NotificationCenter.default.post(name: Self.didChangeNotification, object: self)
    }
}
