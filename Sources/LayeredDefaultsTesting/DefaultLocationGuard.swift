import Foundation
import LayeredDefaults

/// Where `Location.default` resolves in a test process: inside an isolated scope, the scope's own
/// location and system directories (none); anywhere else (on any thread or task) memory only, after
/// failing the running test (``ForgottenScope``). So no store of the default location (`Defaults(suiteName:)`
/// with the default configuration, `repair`, `backup`, `restore`, `ThemePreferences()` through
/// `Defaults.standard`) ever touches the user's real home while this library is linked.
enum DefaultLocationGuard {
    /// The resolver installed when the process loads.
    static let resolver = DefaultLocationResolver(
        root: {
            if let scope = IsolatedScope.current { return scope.defaults.configuration.location.root() }
            ForgottenScope.report(.defaultLocation)
            return nil
        },
        systemDirectories: {
            // NB: outside a scope the environment's: reading them writes nothing, and a store given
            // an explicit location may want them.
            IsolatedScope.current?.defaults.configuration.systemDirectories
        })
}
