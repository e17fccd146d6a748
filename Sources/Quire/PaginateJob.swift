import Foundation
import QuireIngest
import QuireTypeset

/// The layout a page map was made with (the manifest's `layout`).
public struct LayoutSummary: Codable, Sendable, Hashable {
  /// Page width in pixels.
  public var width: Int
  /// Page height in pixels.
  public var height: Int
  /// Body text size in pixels.
  public var fontSize: Double
  /// Margins: top, right, bottom, left.
  public var margins: [Double]
  /// Line height as a multiple of the font size.
  public var lineHeight: Double
  /// The names of the fonts the pages use, in first-use order.
  public var fonts: [String]
  /// The layout engine's version.
  public var engine: String
  /// The layout key (see `PagedBook.layoutKey`).
  public var key: String

  init(_ settings: LayoutSettings, fonts: [FontFace], key: String) {
    let m = settings.effectiveMargins
    width = settings.pageWidth
    height = settings.pageHeight
    fontSize = settings.fontSize
    margins = [m.top, m.right, m.bottom, m.left]
    lineHeight = settings.lineHeight
    self.fonts = fonts.map(\.name)
    engine = layoutEngineVersion
    self.key = key
  }
}

/// A position in the book that survives relayout: a spine index and a character offset in
/// that document.
public struct BookLocation: Codable, Sendable, Hashable {
  /// The spine index (from 0).
  public var spine: Int
  /// The character (Unicode scalar) offset in the spine document.
  public var offset: Int

  init(_ l: Location) {
    spine = l.spine
    offset = l.offset
  }

  init(spine: Int, offset: Int) {
    self.spine = spine
    self.offset = offset
  }
}

/// One kind of problem in one file, as the manifest lists it: `{kind, file, message, count}`.
public struct WarningEntry: Codable, Sendable, Hashable {
  /// The diagnostic's kind.
  public var kind: String
  /// The file inside the book (or the book).
  public var file: String
  /// The first occurrence's message.
  public var message: String
  /// How many occurrences there were.
  public var count: Int

  init(_ e: DiagnosticLog.Entry) {
    kind = e.first.kind.rawValue
    file = e.first.file
    message = e.first.message
    count = e.count
  }
}

/// What `quire paginate` reports: the page count and every page's source map.
public struct PageMap: Codable, Sendable {
  /// One page: where it comes from.
  public struct Entry: Codable, Sendable, Hashable {
    /// The page number (from 1).
    public var number: Int
    /// The spine index of its document.
    public var spine: Int
    /// The href of its document.
    public var href: String
    /// Where its content starts.
    public var start: BookLocation
    /// Where its content ends.
    public var end: BookLocation
  }

  /// The number of pages.
  public var pageCount: Int
  /// The layout used.
  public var layout: LayoutSummary
  /// What was worked around, one entry per kind and file.
  public var warnings: [WarningEntry]
  /// Every page, in order.
  public var pages: [Entry]
  /// Typographic quality numbers, when asked for.
  public var stats: QualityReport?
}

/// What `quire paginate` asks for.
public struct PaginateRequest: Sendable {
  /// The book.
  public var book: URL
  /// How the book is laid out.
  public var layout = LayoutSettings()
  /// Worker threads (at least 1).
  public var threads = ProcessInfo.processInfo.activeProcessorCount
  /// Add typographic quality numbers.
  public var stats = false
  /// Fail on any diagnostic instead of working around it.
  public var strict = false
  /// The persisted layout cache: a book seen before is answered from it, and every layout is
  /// stored in it. nil: none.
  public var cache: LayoutCache? = nil

  /// A pagination of `book` with the defaults.
  public init(book: URL) { self.book = book }
}

/// `quire paginate`: layout only, no pixels.
public enum PaginateJob {
  /// Lays the book out and returns its page map. No page's display list is kept; with
  /// `stats`, each page's line boxes are (the quality numbers are computed from them).
  public static func run(_ r: PaginateRequest) throws(QuireError) -> PageMap {
    guard r.threads >= 1 else { throw .invalidRequest(.threads(r.threads)) }
    try r.layout.check()
    let cacheKey = r.cache?.key(r.book, r.layout)
    if let cacheKey, let hit = cachedMap(r, key: cacheKey) { return hit }
    var plan = PaginationPlan()
    plan.threads = r.threads
    plan.keepBoxes = r.stats
    plan.strict = r.strict
    let book = try BookPagination(path: r.book.path, settings: r.layout, plan: plan)
      .run(visit: { _, _ in })
    r.cache?.remember(book, settings: r.layout, key: cacheKey, boxes: r.stats)
    let pages = book.records.map(\.page)
    var stats: QualityReport? = nil
    if r.stats {
      let layout = BookLayout(
        pages: pages, fonts: FontTable(faces: book.fontsUsed),
        key: book.typesetter.key, warnings: [])
      stats = QualityReport(layout: layout, options: r.layout.layoutOptions)
    }
    let map = PageMap(
      pageCount: pages.count,
      layout: LayoutSummary(r.layout, fonts: book.fontsUsed, key: book.key),
      warnings: book.diagnostics.entries.map(WarningEntry.init),
      pages: pages.map {
        PageMap.Entry(
          number: $0.number, spine: $0.spine, href: $0.href, start: BookLocation($0.start),
          end: BookLocation($0.end))
      }, stats: stats)
    // The book's block tree and caches are freed beside the caller's output (Disposal.swift).
    Disposal.release(consume book)
    return map
  }
}
