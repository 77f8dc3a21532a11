import Foundation

/// The schema file's JSON form (docs/SCHEMA.md): an object `{"format":3,"suite":...,"version":...,
/// "allowsUndeclaredKeys":false,"keys":[...]}`, each key `{"name":...,"type":...,"summary":...,
/// "default":{tagged value}}` with an optional `description`, `content` or `computedDefault`, and at most
/// one of `choices`, `range` and `maximumLength`. Values are in the tagged JSON of ``PreferenceValue``
/// (`{"string":"dark"}`), as `prefs read --json` prints them. A format-1 file (no `allowsUndeclaredKeys`,
/// `content` or `computedDefault`) reads as a schema that allows undeclared keys. A key's `syncs` and
/// `keepsHistory` are of format 3, written only for a schema with such a key: an earlier release, which
/// reads formats 1 and 2, then refuses the file as of a newer format, and still reads every other schema
/// written here.
///
/// Reading is strict: a member this format does not know, a member held twice, a missing or mistyped
/// member, a declaration that does not hold together, or a file of a format version it does not read is
/// refused, naming where it fails and never quoting it.
extension PreferenceSchema: Codable {
    /// The largest schema file read, in bytes (1 MiB): a larger one is refused unread.
    public static let maximumFileSize = 1 << 20

    private enum Member: String, CodingKey, CaseIterable {
        case format, suite, version, allowsUndeclaredKeys, keys
    }

    /// Decodes a schema's JSON object, strictly (see the extension's notes).
    /// - Throws: `DecodingError`, or ``DefaultsError/invalidSchema(suite:key:reason:)``.
    public init(from decoder: any Decoder) throws {
        try rejectUnknownMembers(decoder, known: Member.allCases)
        let container = try decoder.container(keyedBy: Member.self)
        let format = try container.decodeGiven(Int.self, forKey: .format)
        guard Self.readableFormatVersions.contains(format) else {
            throw DecodingError.dataCorruptedError(
                forKey: .format, in: container,
                debugDescription:
                    "format \(format), not one this version reads (\(Self.readableFormatVersions.lowerBound) to \(Self.readableFormatVersions.upperBound)): upgrade LayeredDefaults"
            )
        }
        let entries = try container.decodeGiven([Entry].self, forKey: .keys)
        if format < 3, let index = entries.firstIndex(where: \.needsFormat3) {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: [Member.keys, AnyMember(index: index)],
                    debugDescription: "syncs and keepsHistory are not members of format \(format)"))
        }
        if format == 1 {
            if container.contains(.allowsUndeclaredKeys) {
                throw DecodingError.dataCorruptedError(
                    forKey: .allowsUndeclaredKeys, in: container, debugDescription: "not a member of format 1")
            }
            if let index = entries.firstIndex(where: { $0.content != nil || $0.defaultIsComputed }) {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: [Member.keys, AnyMember(index: index)],
                        debugDescription: "content and computedDefault are not members of format 1"))
            }
        }
        try self.init(
            suiteName: try container.decodeGiven(String.self, forKey: .suite),
            version: try container.decodeGiven(Int.self, forKey: .version), entries: entries,
            allowsUndeclaredKeys: format == 1
                || (try container.decodeIfGiven(Bool.self, forKey: .allowsUndeclaredKeys) ?? false))
    }

    /// Encodes the schema's JSON object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Member.self)
        // NB: the oldest format that holds the schema, so an earlier release reads every file it can.
        try container.encode(keys.contains(where: \.needsFormat3) ? Self.formatVersion : 2, forKey: .format)
        try container.encode(suiteName, forKey: .suite)
        try container.encode(version, forKey: .version)
        try container.encode(allowsUndeclaredKeys, forKey: .allowsUndeclaredKeys)
        try container.encode(keys, forKey: .keys)
    }

    /// The schema file's contents: indented JSON, keys sorted, ending with a newline.
    /// - Throws: only what `JSONEncoder` throws (nothing for a schema made by its initializers).
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }

    /// The schema in `data`, the contents of the file at `path` (which errors name).
    /// - Throws: ``DefaultsError/malformedSchema(path:reason:)`` when it is not a schema of this format
    ///   (too large, not JSON, a member unknown, missing, mistyped or held twice, a declaration that does
    ///   not hold together).
    public init(jsonData data: Data, path: String) throws(DefaultsError) {
        guard data.count <= Self.maximumFileSize else {
            throw .malformedSchema(path: path, reason: "larger than \(Self.maximumFileSize) bytes")
        }
        // NB: the decoder hashes every member name before any check of ours (see `String.isStreamSafe`).
        guard String(decoding: data, as: UTF8.self).isStreamSafe else {
            throw .malformedSchema(
                path: path, reason: "it holds more than \(String.maximumCombiningRun) combining marks in a row")
        }
        do {
            self = try JSONDecoder().decode(Self.self, from: data)
        } catch let error as DecodingError {
            throw .malformedSchema(path: path, reason: Self.reason(error))
        } catch let error as DefaultsError {
            if case .invalidSchema(_, let key, let reason) = error {
                throw .malformedSchema(path: path, reason: (key.map { "key '\($0)': " } ?? "") + reason)
            }
            throw .malformedSchema(path: path, reason: "its suite is not a valid suite name")
        } catch {
            throw .malformedSchema(path: path, reason: "unreadable (\(type(of: error)))")
        }
        switch JSONMemberScan.firstFinding(in: data) {
        case .repeatedMember(let member)?:
            throw .malformedSchema(path: path, reason: "the member '\(mention(member))' is held twice in one object")
        case .inexactInteger(let member)?:
            throw .malformedSchema(
                path: path, reason: "an integer in '\(mention(member))' is written with a fraction or an exponent")
        case nil:
            break
        }
    }

    /// Where a decoding error is, in words: `at keys[2].type: not a string`; never the text found. The
    /// place ends at a value (`keys[0].default`, `keys[1].choices[2]`): a dictionary's keys inside it are
    /// the file's text.
    private static func reason(_ error: DecodingError) -> String {
        func place(_ path: [any CodingKey]) -> String {
            var kept: [any CodingKey] = []
            for component in path {
                if let last = kept.last, Self.valueMembers.contains(last.stringValue), component.intValue == nil { break }
                kept.append(component)
                if let index = kept.dropLast().last, Self.valueMembers.contains(index.stringValue), component.intValue != nil {
                    break
                }
            }
            let text = kept.map { $0.intValue.map { "[\($0)]" } ?? ".\(mention($0.stringValue))" }.joined()
            let trimmed = text.hasPrefix(".") ? String(text.dropFirst()) : text
            return trimmed.isEmpty ? "at the top level" : "at \(trimmed)"
        }
        switch error {
        case .typeMismatch(let type, let context): return "\(place(context.codingPath)): not \(Self.typeWord(type))"
        case .valueNotFound(let type, let context): return "\(place(context.codingPath)): null, not \(Self.typeWord(type))"
        case .keyNotFound(let key, let context): return "\(place(context.codingPath + [key])): missing"
        case .dataCorrupted(let context):
            // The debug descriptions here are this package's own (a member's name, a format number),
            // except JSONSerialization's, which are replaced.
            if context.codingPath.isEmpty, context.underlyingError != nil { return "not valid JSON" }
            return "\(place(context.codingPath)): \(context.underlyingError == nil ? context.debugDescription : "invalid")"
        @unknown default: return "unreadable"
        }
    }

    /// The members whose contents are values (tagged JSON), where a place in the file ends.
    private static let valueMembers: Set<String> = ["default", "choices", "minimum", "maximum"]

    private static func typeWord(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "an integer"
        case is Double.Type: "a number"
        case is Bool.Type: "a boolean"
        case is PreferenceValue.Type: "a tagged value"
        case is [PreferenceValue].Type: "a list of tagged values"
        case is [String: PreferenceValue].Type: "an object"
        default: "the expected kind of value"
        }
    }
}

extension PreferenceSchema.Entry: Codable {
    private enum Member: String, CodingKey, CaseIterable {
        case name, type, content, summary, description, `default`, computedDefault, choices, range, maximumLength, syncs,
            keepsHistory
    }

    private enum RangeMember: String, CodingKey, CaseIterable {
        case minimum, maximum
    }

    /// Decodes a key's JSON object, strictly; ``PreferenceSchema/init(suiteName:version:entries:allowsUndeclaredKeys:)``
    /// then checks that its parts agree.
    /// - Throws: `DecodingError`.
    public init(from decoder: any Decoder) throws {
        try rejectUnknownMembers(decoder, known: Member.allCases)
        let container = try decoder.container(keyedBy: Member.self)
        let type = try container.decodeIfGiven(String.self, forKey: .type)
        let valueType = try type.map { name in
            guard let valueType = PreferenceSchema.ValueType(rawValue: name) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .type, in: container,
                    debugDescription: "not one of " + PreferenceSchema.ValueType.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return valueType
        }
        let given = [Member.choices, .range, .maximumLength].filter(container.contains)
        guard given.count <= 1 else {
            throw DecodingError.dataCorruptedError(
                forKey: given[1], in: container, debugDescription: "only one of choices, range and maximumLength may be given")
        }
        var accepted = AcceptedValues.anyValue
        if container.contains(.choices) {
            accepted = .choices(try container.decodeGiven([PreferenceValue].self, forKey: .choices))
        } else if container.contains(.maximumLength) {
            accepted = .maximumLength(try container.decodeGiven(Int.self, forKey: .maximumLength))
        } else if container.contains(.range) {
            if try container.decodeNil(forKey: .range) {
                throw DecodingError.valueNotFound(
                    [String: PreferenceValue].self,
                    .init(codingPath: container.codingPath + [Member.range], debugDescription: "null"))
            }
            let rangeDecoder = try container.superDecoder(forKey: .range)
            try rejectUnknownMembers(rangeDecoder, known: RangeMember.allCases)
            let range = try rangeDecoder.container(keyedBy: RangeMember.self)
            let bounds = (
                try range.decodeGiven(PreferenceValue.self, forKey: .minimum),
                try range.decodeGiven(PreferenceValue.self, forKey: .maximum)
            )
            switch bounds {
            case (.integer(let low), .integer(let high)) where low <= high: accepted = .integers(low...high)
            case (.double(let low), .double(let high)) where low <= high: accepted = .numbers(low...high)
            default:
                throw DecodingError.dataCorruptedError(
                    forKey: .range, in: container,
                    debugDescription: "minimum and maximum must be two integers or two doubles, the minimum not above the maximum"
                )
            }
        }
        self.init(
            name: try container.decodeGiven(String.self, forKey: .name), type: valueType,
            content: try container.decodeIfGiven(String.self, forKey: .content).map { name in
                guard let content = PreferenceSchema.Content(rawValue: name) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .content, in: container,
                        debugDescription: "not one of "
                            + PreferenceSchema.Content.allCases.map(\.rawValue).joined(separator: ", "))
                }
                return content
            },
            defaultValue: try container.decodeIfGiven(PreferenceValue.self, forKey: .default),
            defaultIsComputed: try container.decodeIfGiven(Bool.self, forKey: .computedDefault) ?? false,
            summary: try container.decodeGiven(String.self, forKey: .summary),
            description: try container.decodeIfGiven(String.self, forKey: .description), accepted: accepted)
        syncs = try container.decodeIfGiven(Bool.self, forKey: .syncs) ?? false
        keepsHistory = try container.decodeIfGiven(Bool.self, forKey: .keepsHistory) ?? false
    }

    /// Encodes a key's JSON object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Member.self)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(type?.rawValue, forKey: .type)
        try container.encodeIfPresent(content, forKey: .content)
        try container.encode(summary, forKey: .summary)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encodeIfPresent(defaultValue, forKey: .default)
        if defaultIsComputed { try container.encode(true, forKey: .computedDefault) }
        if syncs { try container.encode(true, forKey: .syncs) }
        if keepsHistory { try container.encode(true, forKey: .keepsHistory) }
        switch accepted {
        case .anyValue: break
        case .choices(let choices): try container.encode(choices, forKey: .choices)
        case .maximumLength(let length): try container.encode(length, forKey: .maximumLength)
        case .integers(let range):
            var bounds = container.nestedContainer(keyedBy: RangeMember.self, forKey: .range)
            try bounds.encode(PreferenceValue.integer(range.lowerBound), forKey: .minimum)
            try bounds.encode(PreferenceValue.integer(range.upperBound), forKey: .maximum)
        case .numbers(let range):
            var bounds = container.nestedContainer(keyedBy: RangeMember.self, forKey: .range)
            try bounds.encode(PreferenceValue.double(range.lowerBound), forKey: .minimum)
            try bounds.encode(PreferenceValue.double(range.upperBound), forKey: .maximum)
        }
    }
}

extension KeyedDecodingContainer {
    /// The member's value, nil when the object does not hold it. A member given as `null` is of the wrong
    /// kind and refused naming it (`decodeIfPresent` reads it as absent: `"type": null` accepted any type).
    fileprivate func decodeIfGiven<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard contains(key) else { return nil }
        return try decodeGiven(type, forKey: key)
    }

    /// The member's value; `null`, like any value of the wrong kind, is refused naming the member.
    fileprivate func decodeGiven<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        if contains(key), try decodeNil(forKey: key) {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [key], debugDescription: "null"))
        }
        return try decode(type, forKey: key)
    }
}

/// Any member name, to list an object's members.
private struct AnyMember: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }
    init?(intValue: Int) { nil }
    /// The member at `index` of an array, for a decoding error's path.
    init(index: Int) {
        stringValue = "\(index)"
        intValue = index
    }
}

/// Refuses an object with a member not in `known`, naming the member (a name, never a value).
private func rejectUnknownMembers<Known: CodingKey>(_ decoder: any Decoder, known: [Known]) throws {
    let names = Set(known.map(\.stringValue))
    let container = try decoder.container(keyedBy: AnyMember.self)
    if let unknown = container.allKeys.map(\.stringValue).sorted().first(where: { !names.contains($0) }) {
        throw DecodingError.dataCorrupted(
            .init(
                codingPath: decoder.codingPath, debugDescription: "the member '\(mention(unknown))' is not one this format knows")
        )
    }
}

/// A name found in a schema file, as a message may show it: its control characters escaped, and no
/// longer than 40 characters.
private func mention(_ name: String) -> String {
    let escaped = PropertyListText.escapingControlCharacters(in: name)
    return escaped.count > 40 ? escaped.prefix(40) + "..." : escaped
}

extension PreferenceSchema.Entry {
    /// True when the entry holds a member of format 3 (`syncs`, `keepsHistory`).
    fileprivate var needsFormat3: Bool { syncs || keepsHistory }
}
