extension SearchList {
    /// The search for `key` as it would go were the persistent domain's row of the key `row` (nil: no
    /// row): a draft's read of a key it edited. The same loop as a search's, through the layers, so a
    /// forced value or a launch argument still wins over the edit, a removal reads through to the
    /// layers below, and a value the schema refuses reads as its default (reported once).
    ///
    /// Never remembered in ``resolved``: the answer is not the store's; the search of the layers,
    /// ``searchChecked(_:declared:schemaDefault:remembered:persistentRow:deep:failed:skipped:)``, with the
    /// draft's row in place of the persistent domain's.
    func search(
        _ key: String, persistentRow row: PreferenceValue?, declared: PreferenceSchema.Entry?,
        failed: (any Error) throws -> Void
    ) rethrows -> PreferenceValue? {
        try searchChecked(
            key, declared: declared.map(DeclaredEntry.init), schemaDefault: true, persistentRow: .some(row), failed: failed)
    }
}
