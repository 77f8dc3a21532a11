import Foundation
import LayeredDefaults

/// `prefs write <domain> <key> <value>`: stores a value, typed by a flag or read as a plain value;
/// `prefs write <domain> '<dictionary>'` replaces the whole domain, as macOS `defaults write` does.
enum Write: Command {
    static let verb = "write"
    static let firstValueOperand: Int? = 2
    static let synopsis = "write <domain> (<key> [<type flag>] <value>... | '<dictionary>')"
    static let operandKinds: [CompletionKind] = [.domain, .key, .value(besides: ValueParser.typeFlags)]
    static let summary =
        "Stores a value for <key> in <domain>, or replaces <domain> with a dictionary (created when missing); committed when it returns."
    static let details = """
        <value> alone: old-style property-list text when it starts with ( { < or " and parses, e.g.
        '(a, b)' or '{ k = v; }' (every leaf a string), else the string, trimmed, as a launch argument.
        Type flags:
          -string <text>            the text exactly as given
          -int <n>, -integer <n>    a 64-bit integer
          -float <x>                a double (0.5, 1e-3, inf, nan)
          -bool <b>, -boolean <b>   true/false, yes/no, 1/0, in any case
          -date <d>                 2026-11-29T21:44:42Z (fraction and offset allowed), 2026-11-29 21:44:42 +0000, 2026-11-29
          -data <hex>               bytes as hexadecimal digits, e.g. 0a0b0c
          -array <v>...             an array; each element a string, or typed by a flag before it: -array a -int 2
          -array-add <v>...         appends to the array stored (a new array when there is none)
          -dict <k> <v>...          a dictionary of key-value pairs; a value may be typed: -dict size -int 12
          -dict-add <k> <v>...      adds to the dictionary stored, replacing those keys (a new one when there is none)
        Text that starts with '-' needs -string (whatever follows a type flag is its value, -h and --help
        included), or -- before it: prefs write d k -string --text, prefs write d k -- -text. Prints nothing.
        When the domain has a schema (`prefs keys`), a value of a key it declares must be one the key
        accepts: of its type, and one of its choices, in its range or not too long; else it is refused,
        naming the key and what it accepts. Keys it does not declare are written as without a schema.
        Exit status: 0; 2 for a bad value or type flag, a value the schema does not accept, or
        -array-add/-dict-add on a value of another type (nothing is changed); 3 when the store cannot be written or refuses the write, e.g. of a key
        the managed domain forces (nothing is changed).
        With no <key>, as macOS `defaults write <domain> '<dictionary>'`: the dictionary, as old-style
        property-list text ('{ fontSize = 14; theme = dark; }', every leaf a string) or an XML property
        list, replaces every key of <domain> in one transaction; keys not in it are removed.
        """

    /// What a write does, parsed completely before the store is opened.
    enum Change: Equatable {
        /// Stores the value.
        case set(PreferenceValue)
        /// Appends to the stored array.
        case append([PreferenceValue])
        /// Merges into the stored dictionary.
        case merge([String: PreferenceValue])

        /// Parses the arguments after `<domain> <key>`, which errors name.
        /// - Parameter isOperand: true when the first argument came right after `--`: it is then a
        ///   value, never a type flag, whatever it starts with.
        /// - Throws: ``PrefsError/usage(_:)``.
        init(_ arguments: [String], domain: String, key: String, isOperand: Bool = false) throws(PrefsError) {
            guard let first = arguments.first else { throw .usage("usage: prefs \(Write.synopsis)") }
            let rest = Array(arguments.dropFirst())
            if isOperand {
                self = .set(try Self.plain(arguments, domain: domain, key: key))
                return
            }
            switch first {
            case "-array": self = .set(.array(try ValueParser.elements(rest)))
            case "-array-add": self = .append(try ValueParser.elements(rest))
            case "-dict": self = .set(.dictionary(try ValueParser.entries(rest)))
            case "-dict-add": self = .merge(try ValueParser.entries(rest))
            default:
                if let type = ValueParser.ScalarType(flag: first) {
                    guard rest.count == 1 else { throw .usage("\(first) takes exactly one value; nothing was changed") }
                    self = .set(try ValueParser.parse(rest[0], as: type))
                } else if first.hasPrefix("-"), first.count > 1 {
                    throw .usage(
                        "unknown type flag (use -string, -int, -float, -bool, -date, -data, -array, -array-add, -dict or -dict-add; -string before text that starts with '-'); nothing was changed"
                    )
                } else {
                    self = .set(try Self.plain(arguments, domain: domain, key: key))
                }
            }
        }

        /// The one plain value `arguments` must be (``ValueParser/plain(_:domain:key:)``).
        private static func plain(_ arguments: [String], domain: String, key: String) throws(PrefsError) -> PreferenceValue {
            guard arguments.count == 1 else {
                throw .usage("write takes one value: quote a value with spaces, or use -array or -dict; nothing was changed")
            }
            return try ValueParser.plain(arguments[0], domain: domain, key: key)
        }
    }

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = invocation.operands
        if operands.count == 2 {
            let domain = try Context.domainName(operands[0])
            let values = try dictionary(operands[1], domain: domain)
            try Context.checkStorable(values, in: domain)
            let schema = context.trustedSchema(of: domain)
            for key in values.keys.sorted() { try Context.check(values[key]!, forKey: key, in: domain, schema: schema) }
            let kept = try context.defaults(domain).replacePersistentValues(values)
            return Context.reportKept(kept, in: domain, console: context.console)
        }
        guard operands.count >= 3 else { throw PrefsError.usage("usage: prefs \(synopsis)") }
        let (domain, key) = (try Context.domainName(operands[0]), operands[1])
        guard !key.isEmpty else { throw PrefsError(DefaultsError.invalidKey(suite: domain)) }
        let change = try Change(
            Array(operands.dropFirst(2)), domain: domain, key: key,
            isOperand: invocation.firstOperandAfterSeparator == 2)
        if case .set(let value) = change { try Context.checkStorable([key: value], in: domain) }
        // NB: a value outside the domain's schema is refused before anything is opened or created; an
        // addition, once the value it makes is known, inside its transaction.
        let schema = context.trustedSchema(of: domain)
        let type = schema?.entry(named: key)?.type
        switch change {
        case .set(let value): try Context.check(value, forKey: key, in: domain, schema: schema)
        case .append(let elements) where type != nil && type != .array:
            try Context.check(.array(elements), forKey: key, in: domain, schema: schema)
        case .merge(let entries) where type != nil && type != .dictionary:
            try Context.check(.dictionary(entries), forKey: key, in: domain, schema: schema)
        default: break
        }
        let defaults = try context.defaults(domain)
        switch change {
        case .set(let value):
            try defaults.write(value, forKey: key)
        case .append(let elements):
            try defaults.update(forKey: key) { stored in
                let added: PreferenceValue
                switch stored {
                case nil: added = .array(elements)
                case .array(let existing)?: added = .array(existing + elements)
                case let other?: throw mismatch(other, expected: "an array", flag: "-array-add", domain: domain, key: key)
                }
                try Context.check(added, forKey: key, in: domain, schema: schema)
                return added
            }
        case .merge(let entries):
            try defaults.update(forKey: key) { stored in
                let merged: PreferenceValue
                switch stored {
                case nil: merged = .dictionary(entries)
                case .dictionary(let existing)?: merged = .dictionary(existing.merging(entries) { _, new in new })
                case let other?: throw mismatch(other, expected: "a dictionary", flag: "-dict-add", domain: domain, key: key)
                }
                try Context.check(merged, forKey: key, in: domain, schema: schema)
                return merged
            }
        }
    }

    private static func mismatch(
        _ stored: PreferenceValue, expected: String, flag: String, domain: String, key: String
    ) -> PrefsError {
        .usage(
            "the value of key '\(key)' in domain '\(domain)' is of type \(stored.typeName), not \(expected): \(flag) cannot add to it; nothing was changed"
        )
    }

    /// The keys and values of the `<dictionary>` argument of `write <domain> '<dictionary>'`: old-style
    /// property-list text, or an XML property list.
    /// - Throws: ``PrefsError/usage(_:)`` when it is neither, or not a dictionary (naming only where it
    ///   fails, never its text).
    static func dictionary(_ text: String, domain: String) throws -> [String: PreferenceValue] {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if ["<?xml", "<!DOCTYPE", "<plist"].contains(where: trimmed.hasPrefix) {
            return try DocumentFormat.values(of: Data(trimmed.utf8), from: "the dictionary argument")
        }
        let notADictionary =
            "write <domain> '<dictionary>' replaces the domain '\(domain)' with a dictionary, such as '{ fontSize = 14; }'; give a key and its value to write one key (write <domain> <key> <value>); nothing was changed"
        let value: PreferenceValue
        do {
            value = try PropertyListText.parse(trimmed)
        } catch  where error.kind == .tooDeep {
            throw PrefsError.usage(
                "the dictionary for the domain '\(domain)' nests more than \(PreferenceValue.maximumNestingDepth) levels deep; nothing was changed"
            )
        } catch {
            throw PrefsError.usage("\(notADictionary) (not property-list text: it fails at offset \(error.offset))")
        }
        guard case .dictionary(let values) = value else { throw PrefsError.usage(notADictionary) }
        return values
    }
}
