import LayeredDefaults

/// The assertions: run an action, then state its change as a mutation of the previous snapshot.
extension DefaultsRecorder {
    // NB: disfavored so that in an async context `try await recorder.assert(during: { syncCode() })` picks
    // the async form instead of warning that nothing is awaited; in a sync context this is the only choice.
    /// Runs `action`, then checks that the persistent domain changed exactly as `expectedChange` says.
    ///
    /// `expectedChange` receives the domain as of the last assertion; change it into what the domain
    /// should hold now. Any difference fails the test with a diff. A change made before `action`
    /// (since the last assertion) is reported first, as an unasserted change.
    ///
    /// ```swift
    /// try recorder.assert(during: { try preferences.save(.dark) }) {
    ///     $0["theme"] = "dark"
    /// }
    /// try recorder.assert(during: { try preferences.reset() }) {
    ///     $0["theme"] = nil
    /// }
    /// ```
    ///
    /// When `action` throws, the domain is still checked (so you can assert that a failed operation
    /// changed nothing, with `{ _ in }`), and then the error is rethrown.
    /// - Parameters:
    ///   - action: the code under test.
    ///   - expectedChange: mutates the previous snapshot into the expected one. It may run twice (a
    ///     second time on the stored values, to learn which keys it names): keep it free of side effects.
    ///   - fileID: the file a failure is reported in.
    ///   - filePath: the file path a failure is reported in.
    ///   - line: the line a failure is reported at.
    ///   - column: the column a failure is reported at.
    /// - Throws: what `action` or `expectedChange` throws, or an error reading the domain.
    @_disfavoredOverload
    public func assert(
        during action: () throws -> Void,
        _ expectedChange: (inout [String: PreferenceValue]) throws -> Void,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) throws {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        try reportChangesBeforeAction(site: site)
        let outcome = Result { try action() }
        try verify(currentValues(), expectedChange, site: site)
        try outcome.get()
    }

    /// Runs the asynchronous `action`, then checks that the persistent domain changed exactly as
    /// `expectedChange` says (see ``assert(during:_:fileID:filePath:line:column:)``).
    ///
    /// ```swift
    /// try await recorder.assert(during: { try await model.chooseDarkTheme() }) {
    ///     $0["theme"] = "dark"
    /// }
    /// ```
    /// - Parameters:
    ///   - isolation: the caller's actor; `action` runs on it.
    ///   - action: the code under test.
    ///   - expectedChange: mutates the previous snapshot into the expected one; may run twice.
    ///   - fileID: the file a failure is reported in.
    ///   - filePath: the file path a failure is reported in.
    ///   - line: the line a failure is reported at.
    ///   - column: the column a failure is reported at.
    /// - Throws: what `action` or `expectedChange` throws, or an error reading the domain.
    public func assert(
        isolation: isolated (any Actor)? = #isolation,
        during action: () async throws -> Void,
        _ expectedChange: (inout [String: PreferenceValue]) throws -> Void,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        try reportChangesBeforeAction(site: site)
        let outcome: Result<Void, any Error>
        do {
            try await action()
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        try verify(currentValues(), expectedChange, site: site)
        try outcome.get()
    }

    /// Checks the changes made since the last assertion by anything (another instance, another process,
    /// a callback) against `expectedChange`.
    ///
    /// ```swift
    /// try otherProcess.run(["write", "theme", "dark"])
    /// try recorder.assert { $0["theme"] = "dark" }
    /// ```
    /// - Parameters:
    ///   - expectedChange: mutates the previous snapshot into the expected one; may run twice.
    ///   - fileID: the file a failure is reported in.
    ///   - filePath: the file path a failure is reported in.
    ///   - line: the line a failure is reported at.
    ///   - column: the column a failure is reported at.
    /// - Throws: what `expectedChange` throws, or an error reading the domain.
    public func assert(
        _ expectedChange: (inout [String: PreferenceValue]) throws -> Void,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) throws {
        try verify(
            currentValues(), expectedChange, site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    private func reportChangesBeforeAction(site: CallSite) throws {
        reportUnasserted(
            try currentValues(), site: site,
            headline: "The persistent domain \"\(domainName)\" changed since the last assertion, before this action ran: "
                + "assert it with assert { ... } or skip it with skipChanges()")
    }
}
