extension Range: PreferenceRepresentable where Bound: PreferenceRepresentable & Comparable {
    /// The range of a two-element array, `[lowerBound, upperBound]`, each converting to `Bound`; nil
    /// for any other value, and for bounds in the wrong order (no range can be made of them).
    public init?(preferenceValue: PreferenceValue) {
        guard let (lower, upper) = bounds(of: preferenceValue, as: Bound.self) else { return nil }
        self = lower..<upper
    }

    /// `[lowerBound, upperBound]`.
    /// - Throws: what a bound's encoding throws.
    public func preferenceValue() throws -> PreferenceValue {
        .array([try lowerBound.preferenceValue(), try upperBound.preferenceValue()])
    }
}

extension ClosedRange: PreferenceRepresentable where Bound: PreferenceRepresentable & Comparable {
    /// The range of a two-element array, `[lowerBound, upperBound]`, each converting to `Bound`; nil
    /// for any other value, and for bounds in the wrong order (no range can be made of them).
    public init?(preferenceValue: PreferenceValue) {
        guard let (lower, upper) = bounds(of: preferenceValue, as: Bound.self) else { return nil }
        self = lower...upper
    }

    /// `[lowerBound, upperBound]`.
    /// - Throws: what a bound's encoding throws.
    public func preferenceValue() throws -> PreferenceValue {
        .array([try lowerBound.preferenceValue(), try upperBound.preferenceValue()])
    }
}

/// The bounds a stored range holds: a two-element array of values that convert to `Bound`, the first
/// not above the second (a stored value is untrusted: `Range`'s initializer traps on bounds out of order).
private func bounds<Bound: PreferenceRepresentable & Comparable>(
    of value: PreferenceValue, as _: Bound.Type
) -> (Bound, Bound)? {
    guard case .array(let elements) = value, elements.count == 2, let lower = Bound(preferenceValue: elements[0]),
        let upper = Bound(preferenceValue: elements[1]), lower <= upper
    else { return nil }
    return (lower, upper)
}
