import Foundation
import Observation

/// Binding typed keys to the properties of an `@Observable` model of the main actor, without macros.
extension Defaults {
    /// Binds `key` to the property at `keyPath` of `model`: the property takes the key's current value
    /// now, every change the app makes to the property is written through (as the subscript writes:
    /// errors go to the error handler), and the property follows the key when another instance or
    /// process changes it.
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
    /// Both directions run on the main actor, in a task after the change. An edit of the property not
    /// yet written wins over a change of the store seen meanwhile (it is written next), and a value the
    /// store already holds is not written again, so an update from the store does not echo back.
    /// - Returns: the token that keeps the binding alive; release it or call `cancel()` to stop.
    @MainActor
    public func bind<Model: Observable & AnyObject & Sendable, Value: Equatable>(
        _ key: Key<Value>, to model: Model, _ keyPath: ReferenceWritableKeyPath<Model, Value>
    ) -> DefaultsObservation {
        let binding = PropertyBinding(model: model, keyPath: keyPath, synced: self[key])
        model[keyPath: keyPath] = binding.synced
        let observation = observe(key) { _ in
            Task { @MainActor in
                // NB: the value read now, not the one observed: tasks may run in any order, and the
                // store's current value is the one to show.
                binding.storeChanged(to: self[key])
            }
        }
        binding.observation = observation
        writeThrough(key, binding)
        return observation
    }

    /// Writes the bound property to `key` after each change the model sees, until the binding's
    /// observation is cancelled or released, or the model is gone.
    @MainActor
    private func writeThrough<Model: AnyObject, Value: Equatable>(_ key: Key<Value>, _ binding: PropertyBinding<Model, Value>) {
        guard binding.isActive else { return }
        withObservationTracking {
            _ = binding.value
        } onChange: {
            // NB: called before the property changes (as `willSet`): the new value is read in a task.
            Task { @MainActor in
                guard binding.isActive, let value = binding.value else { return }
                if value != binding.synced {
                    binding.synced = value
                    self[key] = value
                }
                self.writeThrough(key, binding)
            }
        }
    }
}

/// One bound property: the model (weakly), where the property is, and the value both sides last agreed on.
@MainActor
private final class PropertyBinding<Model: AnyObject, Value: Equatable> {
    weak var model: Model?
    let keyPath: ReferenceWritableKeyPath<Model, Value>
    /// The value the property and the store last agreed on: a property that differs from it holds an
    /// edit not yet written.
    var synced: Value
    weak var observation: DefaultsObservation?

    init(model: Model, keyPath: ReferenceWritableKeyPath<Model, Value>, synced: Value) {
        self.model = model
        self.keyPath = keyPath
        self.synced = synced
    }

    /// The property's value, or nil when the model is gone.
    var value: Value? { model?[keyPath: keyPath] }

    /// True while the model lives and the binding was not cancelled.
    var isActive: Bool { model != nil && observation.map { !$0.isCancelled } ?? false }

    /// Shows the store's `value`, unless the property holds an edit not yet written (it wins).
    func storeChanged(to value: Value) {
        guard isActive, let model, model[keyPath: keyPath] == synced else { return }
        synced = value
        if model[keyPath: keyPath] != value { model[keyPath: keyPath] = value }
    }
}
