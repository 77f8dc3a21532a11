import LayeredDefaults

extension Context {
    /// What a key of `domain` reads as when `domain` does not hold it: its value and where it comes from.
    struct ValueInForce {
        /// The value the app reads.
        let value: PreferenceValue
        /// The layer it comes from: the managed, global or system domain, or the schema's default.
        let layer: Defaults.Layer
        /// The file that holds it, for a domain's value.
        let origin: String?

        /// Where it comes from, as a message says it: `its schema's default`, or `the system domain's
        /// value`, followed by ` (<file>)` when `naming` the file.
        func source(namingFile naming: Bool) -> String {
            guard layer != .schemaDefault else { return "its schema's default" }
            return "the \(layer) domain's value" + (naming ? origin.map { " (\($0))" } ?? "" : "")
        }
    }

    /// What `key` reads as in `domain`, when the domain itself does not hold it: the value the store's
    /// search finds in the other layers, as the app reads it and `prefs read` prints it. Nil when none
    /// gives it a value.
    func valueInForce(of key: String, in domain: String) throws -> ValueInForce? {
        let why = try appStore(domain).explain(key)
        guard let value = why.value, let winner = why.winner else { return nil }
        // NB: a layer may appear twice (its databases, then its drop-in folders): the one holding the value won.
        let won = why.layers.first { $0.layer == winner && $0.answer == .value(value) } ?? why.layers.first { $0.layer == winner }
        return ValueInForce(value: value, layer: winner, origin: won?.origin)
    }
}
