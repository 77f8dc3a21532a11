extension Defaults {
    /// Why a read of one key gives what it gives: each layer's answer in search order, the layer that
    /// won, and the rules that decided (a forced key, the schema's entry, a value the schema refused).
    ///
    /// Made by ``Defaults/explain(_:)``; `prefs explain <domain> <key>` prints it. It holds the values each
    /// layer holds, as a read does: print it only where you would print a value.
    public struct ReadExplanation: Sendable {
        /// The key explained.
        public let key: String
        /// What ``Defaults/value(forKey:)`` reads for the key now: the winner's value, the schema's default
        /// in place of a value it refused, or nil.
        public let value: PreferenceValue?
        /// Each layer's answer, in search order.
        public let layers: [LayerExplanation]
        /// The layer whose value the read gives, or nil when none holds the key and no default applies.
        public let winner: Layer?
        /// The managed file that forces the key, when the managed domain holds it: a database, or a
        /// drop-in file and the line that sets the key (`<file>:<line>`, see <doc:DropIns>).
        public let forcedBy: String?
        /// The key's entry in the schema that applies, if one declares it.
        public let schemaEntry: PreferenceSchema.Entry?
        /// The layer whose value the schema refused (the key then reads as the schema's default), if one.
        public let refusedLayer: Layer?
        /// The launch argument that sets the key (`-key`), when the argument domain holds it.
        public let argument: String?
    }

    /// One layer's answer for a key (see ``ReadExplanation``).
    public struct LayerExplanation: Sendable {
        /// The layer.
        public let layer: Layer
        /// Where the layer keeps the key: its file (the one that holds the key, else the first), a
        /// drop-in file and line (`<file>:<line>`; a drop-in folder without the key: the first folder, or
        /// the first file left out), the launch argument's name, or nil (the registration domain, the
        /// schema's defaults, a domain in memory).
        public let origin: String?
        /// What the layer holds for the key.
        public let answer: LayerAnswerKind
        /// False for a layer below the one the read stopped at: the read did not ask it.
        public let searched: Bool
    }

    /// What one layer holds for a key.
    public enum LayerAnswerKind: Sendable, Equatable {
        /// The layer holds this value.
        case value(PreferenceValue)
        /// The layer's domain exists and holds no value of the key.
        case noValue
        /// The layer's domain has no file (nothing was ever written to it).
        case noFile
        /// The layer could not be read: its error (which never holds a value).
        case unreadable(DefaultsError)
    }

    /// Explains a read of `key`: each layer's answer in search order, which one the read takes and why.
    ///
    /// Reads as ``value(forKey:)`` does (its `value` is what that returns now) and changes nothing on disk.
    /// A layer that cannot be read is an answer (``LayerAnswerKind/unreadable(_:)``), not an error.
    ///
    /// ```swift
    /// let why = defaults.explain("theme")
    /// print(why.winner)  // Optional(persistent)
    /// ```
    public func explain(_ key: String) -> ReadExplanation {
        searchList.explain(key)
    }
}

extension SearchList {
    /// ``Defaults/explain(_:)``: the search's one loop, asking every layer and noting where it would stop.
    func explain(_ key: String) -> Defaults.ReadExplanation {
        let schemaEntry = schema.forReading?.entry(named: key)
        var layers: [Defaults.LayerExplanation] = []
        var winner: Defaults.Layer?
        var value: PreferenceValue?
        var refused: Defaults.Layer?
        var forcedBy: String?
        var argument: String?
        for layer in list {
            let searched = winner == nil && (refused == nil || layer.layer == .schemaDefault)
            let answer: Defaults.LayerAnswerKind
            var origin: String?
            switch layer.answer(forKey: key, as: schemaEntry?.type, remembered: false) {
            case .found(let found, let where_):
                origin = where_
                answer = .value(found)
                if layer.forces, forcedBy == nil { forcedBy = where_ }
                if layer.layer == .arguments { argument = where_ }
                guard searched, refused == nil else { break }
                if layer.forces || schemaEntry?.accepts(found) ?? true {
                    (winner, value) = (layer.layer, found)
                } else {
                    refused = layer.layer
                }
            case .missing(let where_, let noFile):
                if let unreadable = layer.unreadable {
                    origin = unreadable.origin
                    answer = .unreadable(unreadable.error)
                } else {
                    origin = where_
                    answer = noFile ? .noFile : .noValue
                }
            case .failed(let error, let where_, _):
                origin = where_
                answer = .unreadable(DefaultsError.wrapping(error, suite: suiteNameForExplanation(of: layer)))
            }
            layers.append(Defaults.LayerExplanation(layer: layer.layer, origin: origin, answer: answer, searched: searched))
        }
        if refused != nil, let fallback = schemaEntry?.defaultValue { (winner, value) = (.schemaDefault, fallback) }
        return Defaults.ReadExplanation(
            key: key, value: value, layers: layers, winner: winner, forcedBy: forcedBy, schemaEntry: schemaEntry,
            refusedLayer: refused, argument: argument)
    }

    /// The suite an error of `layer` is about.
    private func suiteNameForExplanation(of layer: any SearchLayer) -> String {
        switch layer.layer {
        case .suite(let name): name
        case .global: Defaults.globalDomain
        default: persistent.name
        }
    }
}
