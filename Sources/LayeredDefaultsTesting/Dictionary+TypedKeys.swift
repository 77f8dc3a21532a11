import LayeredDefaults

extension Dictionary where Key == String, Value == PreferenceValue {
    /// The value of a typed key in a domain's snapshot, as the key's type: write an expectation with
    /// the typed keys the code under test uses, instead of their stored representation.
    ///
    /// ```swift
    /// try recorder.assert(during: { try model.save() }) {
    ///     $0[.fontSize] = 14                                 // stored as the integer 14
    ///     $0[.editorFont] = EditorFont(name: "Menlo", size: 12)  // a CodablePreference: its JSON data
    ///     $0[.theme] = nil                                   // removed
    /// }
    /// ```
    ///
    /// Reading gives nil when the key is missing or its value does not convert. Setting stores what
    /// `Defaults.write(_:for:)` would store; a value that cannot be encoded fails the test (the message
    /// names the key and the type, never the value) and leaves the snapshot unchanged.
    /// - Parameters:
    ///   - key: the typed key.
    ///   - fileID: the file an encoding failure is reported in.
    ///   - filePath: the file path an encoding failure is reported in.
    ///   - line: the line an encoding failure is reported at.
    ///   - column: the column an encoding failure is reported at.
    public subscript<Typed>(
        key: Defaults.Key<Typed>,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> Typed? {
        get { self[key.name].flatMap(Typed.init(preferenceValue:)) }
        set {
            guard let newValue else {
                self[key.name] = nil
                return
            }
            do {
                self[key.name] = try newValue.preferenceValue()
            } catch {
                // NB: an EncodingError describes the value it failed on: never pass it on.
                reportTestFailure(
                    "The expected value of \(key.name.debugDescription) (\(Typed.self)) cannot be encoded",
                    fileID: fileID, filePath: filePath, line: line, column: column)
            }
        }
    }
}
