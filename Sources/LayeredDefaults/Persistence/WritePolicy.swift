/// What a writer adds to a domain's ``WriteRules``: the history it configures and the device it syncs
/// as. Both belong to the instance whose own domain is written (or to a restore), not to the domain.
///
/// NB: one reference down the write path, nil where the writer adds nothing: the sync device as a field
/// of the rules cost every write about 250 instructions (each copy of the rules copied it), and as an
/// argument of its own down the path about 140 (callgrind), sync or not.
final class WritePolicy: Sendable {
    /// The history policy the writer configures (``Defaults/Configuration/history``), nil for none: the
    /// domain's own then applies.
    let history: Defaults.History?
    /// The device that stamps a change of a syncing key with its clock (see <doc:Sync>), nil where the
    /// writer does not sync.
    let syncDevice: String?

    /// The policy of `history` and `syncDevice`; nil when both are nil (the writer adds nothing).
    static func of(history: Defaults.History?, syncDevice: String?) -> WritePolicy? {
        history == nil && syncDevice == nil ? nil : WritePolicy(history: history, syncDevice: syncDevice)
    }

    private init(history: Defaults.History?, syncDevice: String?) {
        (self.history, self.syncDevice) = (history, syncDevice)
    }
}
