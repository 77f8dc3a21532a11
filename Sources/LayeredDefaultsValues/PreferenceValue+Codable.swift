import Foundation

/// The JSON form of a value: an object with exactly one member whose name is the type.
///
/// `{"string":"a"}`, `{"integer":42}`, `{"double":0.5}` (`"nan"`, `"inf"`, `"-inf"` for the
/// non-finite ones), `{"bool":true}`, `{"date":786000000.25}` (seconds since 2001-01-01 00:00:00 UTC,
/// Foundation's reference date, so no precision is lost; within ``PreferenceValue/dateRange``),
/// `{"data":"AAEC"}` (canonical padded base64),
/// `{"array":[...]}`, `{"dictionary":{"key":{...}}}`. Every value round-trips exactly, and decoding
/// refuses what would be read as another value: an object with a member besides its tag
/// (`{"string":"a","note":1}`), base64 that is not canonical (`"AB=="`). (An integer written with a
/// fraction or an exponent, `{"integer":1.0}`, which `JSONDecoder` rounds before a decoder sees it, is
/// found in the text by ``JSONMemberScan``.)
extension PreferenceValue: Codable {
    private enum Tag: String, CodingKey {
        case string, integer, double, bool, date, data, array, dictionary
    }

    /// Any member name, to count an object's members (the tags' container lists only the tags).
    private struct Member: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private static let nonFinite: [String: Double] = ["nan": .nan, "inf": .infinity, "-inf": -.infinity]

    /// Decodes the tagged JSON form.
    /// - Throws: `DecodingError` when the object does not have exactly one member, a known tag, or its
    ///   content does not match the tag.
    public init(from decoder: any Decoder) throws {
        let members = try decoder.container(keyedBy: Member.self).allKeys
        let container = try decoder.container(keyedBy: Tag.self)
        guard members.count == 1, let tag = container.allKeys.first else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "Expected an object with exactly one of: string, integer, double, bool, date, data, array, dictionary"))
        }
        switch tag {
        case .string: self = .string(try container.decode(String.self, forKey: tag))
        case .integer: self = .integer(try container.decode(Int.self, forKey: tag))
        case .double:
            if let number = try? container.decode(Double.self, forKey: tag) {
                self = .double(number)
            } else if let number = Self.nonFinite[try container.decode(String.self, forKey: tag)] {
                self = .double(number)
            } else {
                throw DecodingError.dataCorruptedError(forKey: tag, in: container, debugDescription: "Not a double")
            }
        case .bool: self = .bool(try container.decode(Bool.self, forKey: tag))
        case .date:
            let date = Date(timeIntervalSinceReferenceDate: try container.decode(Double.self, forKey: tag))
            guard Self.dateRange.contains(date) else {
                throw DecodingError.dataCorruptedError(
                    forKey: tag, in: container, debugDescription: "A date outside the years 1 to 9999")
            }
            self = .date(date)
        case .data:
            guard let data = Data(canonicalBase64: try container.decode(String.self, forKey: tag)) else {
                throw DecodingError.dataCorruptedError(forKey: tag, in: container, debugDescription: "Not canonical base64")
            }
            self = .data(data)
        case .array: self = .array(try container.decode([PreferenceValue].self, forKey: tag))
        case .dictionary: self = .dictionary(try container.decode([String: PreferenceValue].self, forKey: tag))
        }
    }

    /// Encodes the tagged JSON form.
    /// - Throws: only what the encoder throws (a date outside ``PreferenceValue/dateRange``, which no
    ///   store holds, may not be finite).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Tag.self)
        switch self {
        case .string(let value): try container.encode(value, forKey: .string)
        case .integer(let value): try container.encode(value, forKey: .integer)
        case .double(let value):
            if value.isFinite {
                try container.encode(value, forKey: .double)
            } else {
                try container.encode(value.isNaN ? "nan" : value < 0 ? "-inf" : "inf", forKey: .double)
            }
        case .bool(let value): try container.encode(value, forKey: .bool)
        case .date(let value): try container.encode(value.timeIntervalSinceReferenceDate, forKey: .date)
        case .data(let value): try container.encode(value.base64EncodedString(), forKey: .data)
        case .array(let value): try container.encode(value, forKey: .array)
        case .dictionary(let value): try container.encode(value, forKey: .dictionary)
        }
    }
}
