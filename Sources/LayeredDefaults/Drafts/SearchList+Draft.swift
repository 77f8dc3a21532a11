extension SearchList {
    /// The search for `key` as it would go were the persistent domain's row of the key `row` (nil: no
    /// row): a draft's read of a key it edited. The same loop as a search's, through the layers, so a
    /// forced value or a launch argument still wins over the edit, a removal reads through to the
    /// layers below, and a value the schema refuses reads as its default (reported once).
    ///
    /// Never remembered in ``resolved``: the answer is not the store's. Kept apart from
    /// ``search(_:declared:schemaDefault:failed:)`` so that a domain without drafts pays nothing.
    func search(
        _ key: String, persistentRow row: PreferenceValue?, declared: PreferenceSchema.Entry?,
        failed: (any Error) throws -> Void
    ) rethrows -> PreferenceValue? {
        let schemaEntry = schema.forReading?.entry(named: key)
        let entry = schemaEntry ?? declared
        for layer in list {
            let answer: LayerAnswer =
                layer.layer == .persistent
                ? row.map { .found($0, origin: nil) } ?? .missing(origin: nil, noFile: false)
                : layer.answer(forKey: key, as: entry?.type, remembered: false)
            switch answer {
            case .found(let value, _):
                // NB: a forced value reads as itself, before any schema, as in a search.
                guard let entry, !layer.forces, !entry.accepts(value) else { return value }
                reportOnce(.storedValueNotAccepted(suite: persistent.name, key: key, accepts: entry.acceptedPhrase), key: key)
                return schemaEntry?.defaultValue
            case .missing:
                continue
            case .failed(let error, _, let undecodable):
                if undecodable { report(error) } else { try failed(error) }
            }
        }
        return nil
    }
}
