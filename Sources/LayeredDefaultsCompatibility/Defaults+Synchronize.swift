import LayeredDefaults

extension Defaults {
    /// Kept for familiarity: every write has already committed when it returns, and reads see other
    /// processes' writes without it. Returns true.
    @discardableResult
    public func synchronize() -> Bool { true }
}
