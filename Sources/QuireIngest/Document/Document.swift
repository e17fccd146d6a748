// The Document: what Ingest hands to Typeset. Plain Swift values, no C pointers, Sendable,
// so chapters can be laid out in parallel.
//
// Units: every length in a `ComputedStyle` is in *root ems* (`Length.rem`) or a percentage of
// the containing block's width. Ingest does not know the reader's font size: the typesetter
// multiplies rem by `--font-size`. Absolute CSS lengths (px, pt) are converted with the CSS
// reference root of 16 px, so a publisher's `font-size: 12pt` becomes 1 rem.
//
// Locations: a `Location` is (spine index, character offset), where the offset counts
// Unicode scalars of the chapter's text in document order (the text of every `TextRun`,
// each `lineBreak` counting as one). Locations survive relayout; page numbers do not.

import Foundation
import QuireCore

/// A point in the book that survives relayout.
public struct Location: Hashable, Comparable, Sendable, Codable {
  public var spine: Int
  public var offset: Int
  public init(spine: Int, offset: Int) {
    self.spine = spine
    self.offset = offset
  }
  public static func < (a: Location, b: Location) -> Bool {
    (a.spine, a.offset) < (b.spine, b.offset)
  }
}

public enum BookFormat: String, Sendable, Codable { case epub, html, text }

public enum TextDirection: String, Sendable, Codable, Hashable { case ltr, rtl }

/// A whole book, converted once.
public struct Document: Sendable {
  public var format: BookFormat
  public var metadata: BookMetadata
  /// One chapter per spine item, in spine order (non-linear ones included, marked).
  public var chapters: [Chapter]
  public var toc: [TOCEntry]
  /// Embedded fonts from @font-face rules, already de-obfuscated.
  public var fonts: [EmbeddedFont]
  /// Every image the book's manifest holds (href → media type), for `quire info`.
  public var images: [ImageResource]
  /// Bytes of archive resources (images) by resolved href.
  public var resources: any ResourceStore
  /// Damaged content that was worked around, in the order found (spine order for chapters).
  public var warnings: [Diagnostic]
  /// Landmarks (EPUB 3 nav `landmarks`, else the EPUB 2 guide): cover, toc, start of text…
  public var landmarks: [Landmark] = []

  public init(
    format: BookFormat, metadata: BookMetadata, chapters: [Chapter], toc: [TOCEntry],
    fonts: [EmbeddedFont], images: [ImageResource], resources: any ResourceStore,
    warnings: [Diagnostic]
  ) {
    self.format = format
    self.metadata = metadata
    self.chapters = chapters
    self.toc = toc
    self.fonts = fonts
    self.images = images
    self.resources = resources
    self.warnings = warnings
  }
}

/// Gives the bytes of a resource (an image) inside the book, by its resolved href.
public protocol ResourceStore: Sendable {
  func data(forHref href: String) -> Data?
}

/// A store with nothing in it (plain text books).
public struct EmptyResourceStore: ResourceStore {
  public init() {}
  public func data(forHref href: String) -> Data? { nil }
}

public struct BookMetadata: Sendable, Codable, Hashable {
  public var title: String
  public var creators: [String]
  public var language: String?
  public var identifier: String?
  public var date: String?
  public var publisher: String?
  public var description: String?
  /// Resolved href of the cover image, if the book names one.
  public var coverHref: String?
  /// From the spine's page-progression-direction, else from the language, else ltr.
  public var direction: TextDirection

  public init(
    title: String = "", creators: [String] = [], language: String? = nil,
    identifier: String? = nil, date: String? = nil, publisher: String? = nil,
    description: String? = nil, coverHref: String? = nil, direction: TextDirection = .ltr
  ) {
    self.title = title
    self.creators = creators
    self.language = language
    self.identifier = identifier
    self.date = date
    self.publisher = publisher
    self.description = description
    self.coverHref = coverHref
    self.direction = direction
  }
}

public struct TOCEntry: Sendable, Codable, Hashable {
  public var title: String
  /// The raw target href (resolved against the archive root, fragment kept).
  public var href: String
  /// Where the target lands in the Document, when it resolves.
  public var location: Location?
  public var children: [TOCEntry]
  public init(title: String, href: String, location: Location?, children: [TOCEntry] = []) {
    self.title = title
    self.href = href
    self.location = location
    self.children = children
  }
}

/// A structural landmark of the book ("cover", "toc", "bodymatter"/"text", …).
public struct Landmark: Sendable, Codable, Hashable {
  /// epub:type (EPUB 3) or guide type (EPUB 2), as written.
  public var type: String
  public var title: String
  /// Resolved href inside the archive, fragment kept.
  public var href: String
  public var location: Location?
  public init(type: String, title: String, href: String, location: Location?) {
    self.type = type
    self.title = title
    self.href = href
    self.location = location
  }
}

public struct EmbeddedFont: Sendable {
  public var family: String
  public var weight: Int
  public var italic: Bool
  public var href: String
  /// The font file, de-obfuscated when it was obfuscated.
  public var data: Data
  public var wasObfuscated: Bool
  public init(
    family: String, weight: Int, italic: Bool, href: String, data: Data, wasObfuscated: Bool
  ) {
    self.family = family
    self.weight = weight
    self.italic = italic
    self.href = href
    self.data = data
    self.wasObfuscated = wasObfuscated
  }
}

public struct ImageResource: Sendable, Codable, Hashable {
  public var href: String
  public var mediaType: String
  public var size: Int
  public init(href: String, mediaType: String, size: Int) {
    self.href = href
    self.mediaType = mediaType
    self.size = size
  }
}

/// One spine item.
public struct Chapter: Sendable {
  public var spineIndex: Int
  public var href: String
  public var mediaType: String
  public var linear: Bool
  /// Size in bytes of the source document.
  public var size: Int
  public var language: String?
  public var direction: TextDirection?
  public var blocks: [Block]
  /// Element ids (fragment targets) → character offset in this chapter.
  public var anchors: [String: Int]
  /// Total characters (Unicode scalars) in this chapter; Locations run 0..<length.
  public var length: Int

  public init(
    spineIndex: Int, href: String, mediaType: String, linear: Bool, size: Int,
    language: String?, direction: TextDirection?, blocks: [Block], anchors: [String: Int],
    length: Int
  ) {
    self.spineIndex = spineIndex
    self.href = href
    self.mediaType = mediaType
    self.linear = linear
    self.size = size
    self.language = language
    self.direction = direction
    self.blocks = blocks
    self.anchors = anchors
    self.length = length
  }
}
