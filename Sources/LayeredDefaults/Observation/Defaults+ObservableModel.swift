import Foundation
import Observation

/// Binding typed keys to the properties of an `@Observable` model of the main actor, without macros.
extension Defaults {
    /// Binds `key` to `property` of `model`: the property takes the key's current value now, every
    /// change the app makes to the property is written through (``subscript(_:)``: errors go to the
    /// error handler), and the property follows the key when another instance or process changes it.
    ///
    /// ```swift
    /// @MainActor @Observable final class SettingsModel {
    ///     var fontSize = 12
    ///     @ObservationIgnored private var bindings: [DefaultsObservation] = []
    ///
    ///     init(defaults: Defaults) {
    ///         bindings = [defaults.bind(.fontSize, to: self, \.fontSize)]
    ///     }
    /// }
    /// ```
    ///
    /// Both directions run on the main actor, after the change (the property is updated in a main-actor
    /// task once the change is observed; a write-through happens in the task after the property
    /// changed). A value equal to the key's current value is not written again, so an update from the
    /// store does not echo back into it.
    /// - Returns: the token that keeps the binding alive; release it or call `cancel()` to stop.
    @MainActor
    public func bind<Model: Observable & AnyObject & Sendable, Value: Equatable>(
        _ key: Key<Value>, to model: Model, _ property: ReferenceWritableKeyPath<Model, Value> & Sendable
    ) -> DefaultsObservation {
        model[keyPath: property] = self[key]
        let binding = observe(key) { [weak model] _ in
            Task { @MainActor [weak model] in
                // NB: the value read now, not the one observed: tasks may run in any order, and the
                // store's current value is the one to show.
                guard let model else { return }
                let value = self[key]
                if model[keyPath: property] != value { model[keyPath: property] = value }
            }
        }
        writeThrough(key, from: model, property, while: binding)
        return binding
    }

    /// Writes `property` of `model` to `key` after each change the model sees, until `binding` is
    /// cancelled or released.
    @MainActor
    private func writeThrough<Model: Observable & AnyObject & Sendable, Value: Equatable>(
        _ key: Key<Value>, from model: Model, _ property: ReferenceWritableKeyPath<Model, Value> & Sendable,
        while binding: DefaultsObservation
    ) {
        withObservationTracking {
            _ = model[keyPath: property]
        } onChange: { [weak model, weak binding] in
            // NB: called before the property changes (as `willSet`): the new value is read in a task.
            Task { @MainActor [weak model, weak binding] in
                guard let model, let binding, !binding.isCancelled else { return }
                let value = model[keyPath: property]
                if value != self[key] { self[key] = value }
                self.writeThrough(key, from: model, property, while: binding)
            }
        }
    }
}
