import Foundation
import Observation

/// A typed key's value as observable state of the main actor: what an `@Observable` model shows and edits.
extension Defaults {
    /// The value of `key` as observable state of the main actor (see ``BoundValue``): it takes the
    /// key's value now, writes each edit through before its setter returns, and follows the key when
    /// another instance or process changes it.
    ///
    /// ```swift
    /// @MainActor @Observable final class SettingsModel {
    ///     private let storedFontSize: Defaults.BoundValue<Int>
    ///     var fontSize: Int {
    ///         get { storedFontSize.value }
    ///         set { storedFontSize.value = newValue }  // in the store when this returns
    ///     }
    ///
    ///     init(defaults: Defaults) { storedFontSize = defaults.bind(.fontSize) }
    /// }
    /// ```
    /// - Parameter key: the typed key to bind.
    /// - Returns: the bound value; it follows the store until it is released.
    @MainActor
    public func bind<Value: Equatable>(_ key: Key<Value>) -> BoundValue<Value> {
        BoundValue(key, in: self)
    }

    /// A typed key's value, bound to its store on the main actor: reading ``value`` gives the key's
    /// value, setting it writes the store, and an observer of it (a SwiftUI view, a model's
    /// `withObservationTracking`) sees every change, whoever made it.
    ///
    /// Made by ``Defaults/bind(_:)``. A model keeps it in a constant and forwards a property of its own
    /// to ``value``; the model stays a plain `@MainActor @Observable` class, and what reads the model's
    /// property is told of the bound value's changes.
    ///
    /// - Writing is synchronous: when the setter returns, the store holds the value (committed, as the
    ///   subscript writes: an error goes to the ``Configuration/errorHandler``), so a test can check
    ///   the store right after setting the property.
    /// - ``value`` always shows what the store reads: an edit the store refuses (a key forced by the
    ///   managed domain, a read-only file) or one a higher domain hides (a launch argument) shows the
    ///   key's value again when the setter returns.
    /// - A change made elsewhere (another instance, another process, a registration) reaches ``value``
    ///   in a task on the main actor after the observation delivers it (see ``Defaults/observe(_:initial:handler:)``).
    /// - It holds its store only while it lives: release it (or the model that holds it) and the
    ///   observation stops at once; the store is released then too, or, when the observation thread
    ///   is evaluating it at that moment, as that evaluation ends (``DefaultsObservation/cancel()``
    ///   never waits for it).
    @MainActor
    public final class BoundValue<Value: PreferenceRepresentable & Equatable>: Observable {
        private let defaults: Defaults
        private let key: Key<Value>
        private var current: Value
        private var observation: DefaultsObservation?
        private let registrar = ObservationRegistrar()

        init(_ key: Key<Value>, in defaults: Defaults) {
            self.defaults = defaults
            self.key = key
            current = defaults[key]
            observation = defaults.observe(.key(key), initial: false) { [weak self] _ in
                // NB: the value read on the main actor, not the one observed: the tasks of several
                // deliveries may run in any order, and the store's current value is the one to show.
                Task { @MainActor in self?.storeChanged() }
            }
            // NB: read again now that the observation runs: a change made before it started is not
            // delivered to it.
            current = defaults[key]
        }

        /// The key's value, as the typed-key subscript reads it; setting it stores the new value before
        /// the setter returns, then shows what the store reads.
        public var value: Value {
            get {
                registrar.access(self, keyPath: \.value)
                return current
            }
            set {
                defaults[key] = newValue
                // Observers are told even when the value shown stays the same: a refused edit must
                // redraw what showed the edit.
                registrar.withMutation(of: self, keyPath: \.value) { current = defaults[key] }
            }
        }

        /// Shows the store's value when it differs from the one shown.
        private func storeChanged() {
            let stored = defaults[key]
            guard stored != current else { return }
            registrar.withMutation(of: self, keyPath: \.value) { current = stored }
        }
    }
}
