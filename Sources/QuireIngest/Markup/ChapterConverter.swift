import Foundation

// The seam between the package reader (Archive/, Package/, Book.swift) and the content
// converter (Markup/, Style/, PlainText/). The package side finds the spine documents and
// hands each one over as a `ChapterSource`; the content side returns a `Chapter`.

/// One spine document, as read from the archive.
public struct ChapterSource: Sendable {
  public var spineIndex: Int
  /// Resolved path inside the archive (no fragment), e.g. "OPS/chapter_001.xhtml".
  public var href: String
  public var mediaType: String
  public var linear: Bool
  public var data: Data
  public init(spineIndex: Int, href: String, mediaType: String, linear: Bool, data: Data) {
    self.spineIndex = spineIndex
    self.href = href
    self.mediaType = mediaType
    self.linear = linear
    self.data = data
  }
}

/// An @font-face rule found in a style sheet; `src` is resolved inside the archive.
public struct FontFaceRule: Sendable, Hashable {
  public var family: String
  public var weight: Int
  public var italic: Bool
  public var src: String
  public init(family: String, weight: Int, italic: Bool, src: String) {
    self.family = family
    self.weight = weight
    self.italic = italic
    self.src = src
  }
}

public struct ConvertedChapter: Sendable {
  public var chapter: Chapter
  public var fontFaces: [FontFaceRule]
  public var warnings: [IngestWarning]
  public init(chapter: Chapter, fontFaces: [FontFaceRule], warnings: [IngestWarning]) {
    self.chapter = chapter
    self.fontFaces = fontFaces
    self.warnings = warnings
  }
}

/// Turns XHTML/HTML spine documents into styled blocks.
/// `loadResource` reads another file of the book by resolved href (style sheets, @import);
/// it returns nil for anything outside the archive or missing.
public struct ChapterConverter: Sendable {
  public var options: IngestOptions
  public var loadResource: @Sendable (String) -> Data?
  /// The book's language (OPF dc:language), used when the document names none.
  public var bookLanguage: String?

  public init(options: IngestOptions, bookLanguage: String?, loadResource: @escaping @Sendable (String) -> Data?) {
    self.options = options
    self.bookLanguage = bookLanguage
    self.loadResource = loadResource
  }

  /// Never throws: a broken document degrades (HTML recovery, or an empty chapter) with warnings.
  public func convert(_ source: ChapterSource) -> ConvertedChapter {
    // Placeholder until the Markup owner lands the libxml2 converter.
    ConvertedChapter(
      chapter: Chapter(
        spineIndex: source.spineIndex, href: source.href, mediaType: source.mediaType,
        linear: source.linear, size: source.data.count, language: bookLanguage, direction: nil,
        blocks: [], anchors: [:], length: 0),
      fontFaces: [], warnings: [])
  }
}
