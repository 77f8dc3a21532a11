import Foundation

/// README.md's Swift code blocks and the sample files that hold them verbatim, one file a module, so that
/// each block compiles as pasted into a file of its own, with only the imports it shows.
enum ReadmeSamples {
    /// `Tests/ReadmeSamples`: a folder a block (the manifest, the tour's executables, the testing sample).
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../ReadmeSamples").standardizedFileURL
    /// The package's directory.
    static let packageDirectory = directory.appendingPathComponent("../..").standardizedFileURL
    /// The package's README.
    static let readme = packageDirectory.appendingPathComponent("README.md")

    /// The sample file of each of README.md's Swift blocks, relative to ``directory``, in the README's order.
    static let files = [
        "Manifest/Package.swift", "Tour/main.swift", "TypedKeys/main.swift", "Observation/main.swift",
        "Testing/TestingSample.swift", "Schemas/main.swift",
    ]

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

    /// The README's blocks that differ from their sample file, as `file: first line of the block`, and one
    /// line for each block or file that has no counterpart.
    static func mismatches(blocks: [String], samples: [(file: String, text: String)]) -> [String] {
        var found: [String] = []
        for index in 0..<max(blocks.count, samples.count) {
            let block = index < blocks.count ? blocks[index] : nil
            let sample = index < samples.count ? samples[index] : nil
            switch (block, sample) {
            case (let block?, let sample?) where block != sample.text:
                found.append("\(sample.file): differs from block \(index + 1), \(firstLine(of: block))")
            case (let block?, nil): found.append("block \(index + 1) has no sample file: \(firstLine(of: block))")
            case (nil, let sample?): found.append("\(sample.file): no README block \(index + 1)")
            default: break
            }
        }
        return found
    }

    private static func firstLine(of text: String) -> String { String(text.split(separator: "\n").first ?? "") }
}
