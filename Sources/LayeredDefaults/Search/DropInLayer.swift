/// A layer of drop-in folders, the files configuration management writes (see <doc:DropIns>): the
/// managed domain's (`<dir>/layered-defaults/managed/<suite>.d`, right after the managed databases,
/// forcing their keys) or the system domain's (`<dir>/layered-defaults/<suite>.d`, right after the system
/// databases). One folder under each system directory where it existed when the search list was made, in
/// the directories' order: the first that holds a key answers.
final class DropInLayer: SearchLayer {
    let layer: Defaults.Layer
    /// The folders, in search order.
    let folders: [DropInFolder]
    /// The schema that applies to the persistent domain: what each file is checked by.
    let schema: ApplicableSchema
    /// Each folder's stand-in store, whose fingerprint is the folder's: what a stamp covers and
    /// observation watches (its directory's events).
    private let standIns: [DomainStore]

    /// The layer `layer` of `folders`, checked by `schema`.
    init(layer: Defaults.Layer, folders: [DropInFolder], schema: ApplicableSchema) {
        self.layer = layer
        self.folders = folders
        self.schema = schema
        self.standIns = folders.map { DomainStore.folder(name: $0.suite, path: $0.path) }
    }

    var forces: Bool { layer == .managed }

    var watchedStores: [DomainStore] { standIns }

    func answer(forKey key: String, as type: PreferenceSchema.ValueType?, remembered: Bool) -> LayerAnswer {
        let schema = schema.forReading
        for folder in folders {
            if let setting = folder.reading(schema: schema).settings[key] {
                return .found(setting.value, origin: setting.origin)
            }
        }
        return .missing(origin: folders.first?.path, noFile: false)
    }

    /// The first file of the layer left out, with its error (reported when found).
    var unreadable: (origin: String?, error: DefaultsError)? {
        let schema = schema.forReading
        for folder in folders {
            if let failure = folder.reading(schema: schema).failures.first {
                if case .invalidDropIn(let path, _, _) = failure { return (path, failure) }
                return (folder.path, failure)
            }
        }
        return nil
    }

    func values(typedBy schema: PreferenceSchema?) -> LayerValues {
        let checking = self.schema.forReading
        var result = LayerValues()
        for folder in folders.reversed() { result.values.lay(folder.reading(schema: checking).values) }
        return result
    }

    /// The keys the layer holds now, checked by `schema`: for a managed layer, the keys it forces.
    static func keys(of folders: [DropInFolder], schema: PreferenceSchema?) -> Set<String> {
        folders.reduce(into: Set<String>()) { keys, folder in keys.formUnion(folder.reading(schema: schema).settings.keys) }
    }
}
