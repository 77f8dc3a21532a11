import LayeredDefaults
import LayeredDefaultsTesting
import Observation
import Testing

extension Defaults.Key<Int> { static let fontSize = Defaults.Key("fontSize", default: 12) }

/// A model of the main actor: its property shows and edits the key's bound value.
@MainActor @Observable final class EditorSettings {
    private let storedFontSize: Defaults.BoundValue<Int>
    var fontSize: Int {
        get { storedFontSize.value }
        set { storedFontSize.value = newValue }  // in the store when the setter returns
    }

    init(defaults: Defaults = .standard) { storedFontSize = defaults.bind(.fontSize) }
}

@Test(.isolatedDefaults) @MainActor func theFontSizeIsSaved() async throws {
    let settings = EditorSettings()
    settings.fontSize = 33
    #expect(Defaults.standard[.fontSize] == 33)  // no waiting for a write
    try Defaults.standard.write(20, for: .fontSize)  // as another instance or process would
    try await waitUntilObserved { settings.fontSize == 20 }  // resumes when the model changes; no sleeping
}
