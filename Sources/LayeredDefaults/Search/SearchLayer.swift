/// One layer of the search list: the one shape every source of values has.
///
/// The search list is an ordered list of layers (see ``SearchList``). A read asks them in order and the
/// first that holds the key answers; the merged view lays them over one another, the last first; the
/// stamp covers, and observation watches, the stores each one reads. A new source of values is a new
/// type of this shape and its place in the order.
///
/// Its types are classes: a search copies each layer out of the list, and a reference is one retain
/// where a value in an existential's box was a copy, a projection and a destruction.
protocol SearchLayer: AnyObject, Sendable {
    /// Which layer this is.
    var layer: Defaults.Layer { get }
    /// True when a value of this layer reads as itself, before any schema: an administrator's forced value.
    var forces: Bool { get }
    /// The stores this layer read so far (a domain without a file by its stand-in): the stamp covers them,
    /// observation watches them.
    var watchedStores: [DomainStore] { get }
    /// This layer's answer for `key`; an argument, which is text, is read as `type` when given.
    /// `remembered`: the caller keeps the answer, so a store's view need not keep what it queried.
    func answer(forKey key: String, as type: PreferenceSchema.ValueType?, remembered: Bool) -> LayerAnswer
    /// A file of the layer that cannot be read, which the search passes over (it was reported): what an
    /// explanation names. Nil for a layer held in memory.
    var unreadable: (origin: String?, error: DefaultsError)? { get }
    /// True when the layer answers no key with a value, whatever happens meanwhile (nothing to read): the
    /// search passes over it. False by default; false for a layer whose content can change.
    var isEmpty: Bool { get }
    /// Every value of this layer, each argument read as its key's type in `schema`; with the rows that
    /// could not be decoded (reported, left out) and the failure of a store that could not be read.
    func values(typedBy schema: PreferenceSchema?) -> LayerValues
}

extension SearchLayer {
    var unreadable: (origin: String?, error: DefaultsError)? { nil }
    var isEmpty: Bool { false }
}

/// What one layer answers for one key.
enum LayerAnswer {
    /// The layer holds `value`, in `origin` (its file, or the launch argument's name) when it has one.
    case found(PreferenceValue, origin: String?)
    /// The layer holds no value of the key; `noFile` when its domain has no file.
    case missing(origin: String?, noFile: Bool)
    /// The layer's value could not be used: a row that could not be decoded (`undecodable`, reported and
    /// searched past), or a domain that could not be read.
    case failed(any Error, origin: String?, undecodable: Bool)
}

extension [String: PreferenceValue] {
    /// Lays `values` over these, theirs winning. Into an empty dictionary `values` is taken whole: the
    /// result then shares its storage (copy-on-write, a store's view) instead of copying it key by key.
    mutating func lay(_ values: [String: PreferenceValue]) {
        if isEmpty { self = values } else { merge(values) { _, new in new } }
    }
}

/// Every value of one layer (see ``SearchLayer/values(typedBy:)``).
struct LayerValues {
    var values: [String: PreferenceValue] = [:]
    var undecodable: [DefaultsError] = []
    var failure: (any Error)?
}

extension Defaults {
    /// A layer of the search list, in search order (see <doc:SearchOrder>).
    public enum Layer: Sendable, Hashable, CustomStringConvertible {
        /// The managed domain: an administrator's forced values, under the system directories.
        case managed
        /// The argument domain: `-key value` launch arguments.
        case arguments
        /// The instance's persistent domain, where writes go.
        case persistent
        /// A searched suite, by name.
        case suite(String)
        /// The global domain, ``Defaults/globalDomain``.
        case global
        /// The system domain: defaults under the system directories.
        case system
        /// The registration domain (``Defaults/register(_:)``).
        case registration
        /// The defaults of the schema that applies.
        case schemaDefault

        /// The layer's name as `prefs explain` prints it: `managed`, `suite <name>`, `schema default`, ...
        public var description: String {
            switch self {
            case .managed: "managed"
            case .arguments: "arguments"
            case .persistent: "persistent"
            case .suite(let name): "suite \(name)"
            case .global: "global"
            case .system: "system"
            case .registration: "registration"
            case .schemaDefault: "schema default"
            }
        }
    }
}
