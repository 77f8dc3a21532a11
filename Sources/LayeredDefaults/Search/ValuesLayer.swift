/// A layer of values held in memory: the argument domain (launch arguments, read as each key's schema
/// type) and the registration domain.
final class ValuesLayer: SearchLayer {
    let layer: Defaults.Layer
    let values: [String: PreferenceValue]

    init(layer: Defaults.Layer, values: [String: PreferenceValue]) {
        self.layer = layer
        self.values = values
    }

    /// The layer of `values`: one shared instance while they are empty (the common case, at every
    /// opening), a new one otherwise.
    static func of(_ layer: Defaults.Layer, _ values: [String: PreferenceValue]) -> ValuesLayer {
        guard values.isEmpty else { return ValuesLayer(layer: layer, values: values) }
        return layer == .arguments
            ? noArguments : layer == .registration ? noRegistration : ValuesLayer(layer: layer, values: values)
    }

    private static let noArguments = ValuesLayer(layer: .arguments, values: [:])
    private static let noRegistration = ValuesLayer(layer: .registration, values: [:])

    var forces: Bool { false }
    var watchedStores: [DomainStore] { [] }
    /// No value: the layer is rebuilt when its values change.
    var isEmpty: Bool { values.isEmpty }

    func answer(forKey key: String, as type: PreferenceSchema.ValueType?, remembered: Bool) -> LayerAnswer {
        guard !values.isEmpty, let value = values[key] else { return .missing(origin: nil, noFile: false) }
        let origin = layer == .arguments ? "-" + key : nil
        guard layer == .arguments, let type else { return .found(value, origin: origin) }
        return .found(type.value(ofArgument: value), origin: origin)
    }

    func values(typedBy schema: PreferenceSchema?) -> LayerValues {
        guard layer == .arguments, let schema else { return LayerValues(values: values) }
        return LayerValues(
            values: Dictionary(
                uniqueKeysWithValues: values.map { key, argument in
                    (key, schema.entry(named: key)?.type.map { $0.value(ofArgument: argument) } ?? argument)
                }))
    }
}

/// The last layer: the defaults of the schema that applies to the persistent domain.
final class SchemaDefaultLayer: SearchLayer {
    /// The schema that applies, as last read (see ``ApplicableSchema/forReading``).
    let schema: ApplicableSchema

    init(schema: ApplicableSchema) { self.schema = schema }

    var layer: Defaults.Layer { .schemaDefault }
    var forces: Bool { false }
    var watchedStores: [DomainStore] { [] }

    func answer(forKey key: String, as type: PreferenceSchema.ValueType?, remembered: Bool) -> LayerAnswer {
        guard let value = schema.forReading?.entry(named: key)?.defaultValue else { return .missing(origin: nil, noFile: false) }
        return .found(value, origin: nil)
    }

    func values(typedBy schema: PreferenceSchema?) -> LayerValues {
        LayerValues(
            values: Dictionary(
                uniqueKeysWithValues: (self.schema.forReading?.keys ?? []).compactMap { entry in
                    entry.defaultValue.map { (entry.name, $0) }
                }))
    }
}
