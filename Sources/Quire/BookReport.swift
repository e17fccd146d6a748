import Foundation
import QuireIngest

/// What `quire info` reports about a book, without laying it out: metadata, spine, table of
/// contents, embedded fonts, images and what was worked around while reading it.
public struct BookReport: Encodable, Sendable {
  /// One spine item.
  public struct SpineItem: Encodable, Sendable {
    /// Its spine index (from 0).
    public var index: Int
    /// Its path in the book.
    public var href: String
    /// Its media type.
    public var mediaType: String
    /// Whether it is in the linear reading order.
    public var linear: Bool
    /// Its size in bytes.
    public var size: Int
    /// Its length in characters.
    public var characters: Int
    /// EPUB rendition (fixed layout): "reflowable" or "pre-paginated".
    public var layout: String? = nil
    /// The orientation it wants: "auto", "landscape", "portrait".
    public var orientation: String? = nil
    /// When it is in a spread: "auto", "none", "landscape", "both".
    public var spread: String? = nil
    /// The spread side it asks for: "left", "right", "center".
    public var pageSpread: String? = nil
    /// Its own rendition properties that override the package's, as written.
    public var overrides: [String]? = nil
    /// The viewport (ICB) of a pre-paginated XHTML item: width, height in CSS px.
    public var viewport: [Double]? = nil
  }

  /// The package-wide rendition properties (EPUB fixed layout).
  public struct Rendition: Encodable, Sendable {
    /// "reflowable" or "pre-paginated".
    public var layout: String
    /// "auto", "landscape" or "portrait".
    public var orientation: String
    /// "auto", "none", "landscape" or "both".
    public var spread: String
  }

  /// One table-of-contents entry.
  public struct TOCEntry: Encodable, Sendable {
    /// Its title.
    public var title: String
    /// Its target as written in the book.
    public var href: String
    /// The target's spine index, when it resolved.
    public var spine: Int?
    /// The target's character offset, when it resolved.
    public var offset: Int?
    /// Nested entries.
    public var children: [TOCEntry]
  }

  /// One embedded font.
  public struct Font: Encodable, Sendable {
    /// Its family name.
    public var family: String
    /// Its weight (400 regular, 700 bold).
    public var weight: Int
    /// Whether it is italic.
    public var italic: Bool
    /// Its path in the book.
    public var href: String
    /// Its size in bytes.
    public var bytes: Int
    /// Whether its obfuscation was undone.
    public var deobfuscated: Bool
  }

  /// One image.
  public struct Image: Encodable, Sendable {
    /// Its path in the book.
    public var href: String
    /// Its media type.
    public var mediaType: String
    /// Its size in bytes.
    public var size: Int
  }

  /// "epub", "html" or "text".
  public var format: String
  /// The title.
  public var title: String
  /// Authors and other creators.
  public var creators: [String]
  /// The language, when named.
  public var language: String?
  /// The identifier, when given.
  public var identifier: String?
  /// The publication date, when given.
  public var date: String?
  /// The publisher, when given.
  public var publisher: String?
  /// The description, when given.
  public var description: String?
  /// The cover image's path, when declared.
  public var cover: String?
  /// Page progression: "ltr" or "rtl".
  public var direction: String
  /// The spine.
  public var spine: [SpineItem]
  /// The table of contents.
  public var toc: [TOCEntry]
  /// Embedded fonts.
  public var fonts: [Font]
  /// Images.
  public var images: [Image]
  /// What was worked around while reading the book.
  public var warnings: [WarningEntry]
  /// The title's writing direction (`dir` of dc:title, else the package's): "ltr", "rtl",
  /// nil when not given.
  public var titleDirection: String? = nil
  /// Each creator's writing direction, as `titleDirection`, in the order of `creators`.
  public var creatorDirections: [String?] = []
  /// The package's rendition properties (EPUBs only).
  public var rendition: Rendition? = nil

  /// Reads the book at `url`. With `strict`, anything worked around is an error.
  public static func read(
    _ url: URL, reading: ReadingOptions = ReadingOptions(), strict: Bool = false
  )
    throws(QuireError) -> BookReport
  {
    let doc: Document
    do {
      doc = try Book.open(url, options: reading.ingestOptions(viewport: nil))
    } catch {
      throw QuireError(error)
    }
    var log = DiagnosticLog()
    log.add(contentsOf: doc.warnings)
    if strict, let first = log.entries.first?.first { throw .strict(first) }
    let m = doc.metadata
    var report = BookReport(
      format: doc.format.rawValue, title: m.title, creators: m.creators, language: m.language,
      identifier: m.identifier, date: m.date, publisher: m.publisher, description: m.description,
      cover: m.coverHref, direction: m.direction.rawValue,
      spine: doc.chapters.map(Self.spineItem),
      toc: doc.toc.map(Self.entry),
      fonts: doc.fonts.map {
        Font(
          family: $0.family, weight: $0.weight, italic: $0.italic, href: $0.href,
          bytes: $0.data.count, deobfuscated: $0.wasObfuscated)
      },
      images: doc.images.map { Image(href: $0.href, mediaType: $0.mediaType, size: $0.size) },
      warnings: log.entries.map(WarningEntry.init))
    report.titleDirection = m.titleDirection?.rawValue
    report.creatorDirections = m.creatorDirections.map { $0?.rawValue }
    report.rendition = Self.rendition(m)
    return report
  }

  private static func entry(_ e: QuireIngest.TOCEntry) -> TOCEntry {
    TOCEntry(
      title: e.title, href: e.href, spine: e.location?.spine, offset: e.location?.offset,
      children: e.children.map(entry))
  }
}
