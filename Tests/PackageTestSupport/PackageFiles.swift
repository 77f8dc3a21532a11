import Foundation

/// The files of this package's checkout, for tests that hold a document to what the code does.
public enum PackageFiles {
    /// The package's directory (the one holding `Package.swift`).
    public static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The file at `path`, relative to the package's directory.
    public static func url(_ path: String) -> URL {
        directory.appendingPathComponent(path)
    }

    /// The text of the file at `path`, relative to the package's directory, its runs of white space
    /// (line breaks included) made one space, so that a phrase is found however the text is wrapped.
    /// - Throws: an error reading the file.
    public static func prose(_ path: String) throws -> String {
        try String(contentsOf: url(path), encoding: .utf8).oneLine
    }
}

extension String {
    /// This text with each run of white space, line breaks included, made one space.
    public var oneLine: String {
        split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
