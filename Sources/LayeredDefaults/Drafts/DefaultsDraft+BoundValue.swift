import Observation

extension DefaultsDraft {
    /// The typed `key`'s value through the draft, as observable state of the main actor: what a settings
    /// dialog's `@Observable` model shows and edits until the user presses Apply or Cancel.
    ///
    /// ```swift
    /// @MainActor @Observable final class DialogModel {
    ///     private let draft: DefaultsDraft
    ///     private let storedFontSize: DefaultsDraft.BoundValue<Int>
    ///     var fontSize: Int {
    ///         get { storedFontSize.value }
    ///         set { storedFontSize.value = newValue }  // in the draft, not in the store
    ///     }
    ///     init(defaults: Defaults) {
    ///         draft = defaults.draft()
    ///         storedFontSize = draft.bind(.fontSize)
    ///     }
    /// }
    /// ```
    /// - Parameter key: the typed key to bind.
    /// - Returns: the bound value; it follows the draft until it is released.
    @MainActor
    public func bind<Value: Equatable & Sendable>(_ key: Defaults.Key<Value>) -> BoundValue<Value> {
        BoundValue(key, in: self)
    }

    /// A typed key's value through a draft, on the main actor: reading ``value`` gives what the draft
    /// reads, setting it edits the draft (never the store), and an observer of it (a SwiftUI view, a
    /// model's `withObservationTracking`) is told of every change.
    ///
    /// Made by ``DefaultsDraft/bind(_:)``; the draft's counterpart of ``Defaults/BoundValue``.
    /// - Setting is synchronous: when the setter returns, the draft holds the edit and ``value`` shows
    ///   what the draft reads (an edit a forced value or a launch argument hides shows that value again).
    /// - A revert of the draft, or a change of the store to a key the draft did not edit (another
    ///   instance's or process's, as the store's observation delivers it), reaches ``value`` in a task
    ///   on the main actor.
    @MainActor
    public final class BoundValue<Value: PreferenceRepresentable & Equatable & Sendable>: Observable {
        private let draft: DefaultsDraft
        private let key: Defaults.Key<Value>
        private var current: Value
        private var watch: DraftWatch?
        private let registrar = ObservationRegistrar()

        init(_ key: Defaults.Key<Value>, in draft: DefaultsDraft) {
            self.draft = draft
            self.key = key
            current = draft[key]
            watch = draft.watch(key, initial: false) { [weak self] _ in
                // NB: the value read on the main actor, not the one delivered: tasks may run in any
                // order, and the draft's current value is the one to show.
                Task { @MainActor in self?.draftChanged() }
            }
            // NB: read again now that the watch runs: a change made before it started is not delivered.
            current = draft[key]
        }

        /// The key's value as the draft reads it; setting it edits the draft, then shows what the draft reads.
        public var value: Value {
            get {
                registrar.access(self, keyPath: \.value)
                return current
            }
            set {
                draft[key] = newValue
                // Observers are told even when the value shown stays the same: a hidden edit must redraw.
                registrar.withMutation(of: self, keyPath: \.value) { current = draft[key] }
            }
        }

        /// Shows the draft's value when it differs from the one shown.
        private func draftChanged() {
            let read = draft[key]
            guard read != current else { return }
            registrar.withMutation(of: self, keyPath: \.value) { current = read }
        }
    }
}
