import Foundation

/// The README's Swift code blocks, and the regions of the sample files they must match byte for byte.
///
/// A region is the lines between a `// README: <name>` line and the next `// END README` line of a
/// sample file, with the marker line's indentation removed from each (so a sample can sit inside a
/// test function). The regions of one name in one file are joined in order, so a README block can
/// start with an `import` that a file has at its top and go on with code that sits in a function.
enum ReadmeSamples {
    /// The line that opens a region: what follows it on the line is the region's name.
    static let regionStart = "// README: "
    /// The line that closes a region.
    static let regionEnd = "// END README"

    /// The contents of the fenced code blocks of `language` in `markdown`, in order: the lines between
    /// the opening and closing fences, each ending with a newline, without the opening fence's indentation.
    static func codeBlocks(inMarkdown markdown: String, language: String = "swift") -> [String] {
        var blocks: [String] = []
        var current: (indentation: Int, fence: String, isWanted: Bool, text: String)?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            let indentation = line.count - trimmed.count
            if var block = current {
                if trimmed.hasPrefix(block.fence), trimmed.allSatisfy({ $0 == block.fence.first || $0 == " " }) {
                    if block.isWanted { blocks.append(block.text) }
                    current = nil
                } else {
                    block.text += String(line.dropFirst(min(block.indentation, indentation))) + "\n"
                    current = block
                }
            } else if let fence = ["```", "~~~"].first(where: { trimmed.hasPrefix($0) }) {
                let run = trimmed.prefix { $0 == fence.first }
                let info = trimmed.dropFirst(run.count).trimmingCharacters(in: .whitespaces)
                current = (indentation, String(run), info.split(separator: " ").first.map(String.init) == language, "")
            }
        }
        return blocks
    }

    /// The regions of one sample file: each name with its joined lines, each line ending with a newline.
    /// - Throws: ``Malformed`` for a region that is not closed, or a marker inside a region.
    static func regions(inSource source: String, file: String = "") throws -> [String: String] {
        var regions: [String: String] = [:]
        var open: (name: String, indentation: Substring)?
        for (number, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            let indentation = line.prefix(line.count - trimmed.count)
            if trimmed.hasPrefix(regionStart) {
                guard open == nil else { throw Malformed(file: file, line: number + 1, reason: "a region opens inside another") }
                let name = String(trimmed.dropFirst(regionStart.count))
                open = (name, indentation)
                regions[name, default: ""] += ""  // NB: an empty region is still a region.
            } else if trimmed == regionEnd {
                guard open != nil else {
                    throw Malformed(file: file, line: number + 1, reason: "a region closes that was not open")
                }
                open = nil
            } else if let region = open {
                guard trimmed.isEmpty || line.hasPrefix(region.indentation) else {
                    throw Malformed(file: file, line: number + 1, reason: "a line is indented less than its region's marker")
                }
                regions[region.name]! += (trimmed.isEmpty ? "" : String(line.dropFirst(region.indentation.count))) + "\n"
            }
        }
        if let region = open { throw Malformed(file: file, line: 0, reason: "the region \"\(region.name)\" is never closed") }
        return regions
    }

    /// The blocks of `markdown` that match no region of `sources` (file name to contents).
    static func unmatchedBlocks(inMarkdown markdown: String, sources: [String: String]) throws -> [String] {
        var regions = Set<String>()
        for (file, source) in sources { regions.formUnion(try Self.regions(inSource: source, file: file).values) }
        return codeBlocks(inMarkdown: markdown).filter { !regions.contains($0) }
    }

    /// A sample file whose region markers do not pair up.
    struct Malformed: Error, CustomStringConvertible {
        /// The sample file.
        let file: String
        /// The line of the problem (1-based), or 0 for the end of the file.
        let line: Int
        /// What is wrong.
        let reason: String

        var description: String { "\(file):\(line): \(reason)" }
    }
}
