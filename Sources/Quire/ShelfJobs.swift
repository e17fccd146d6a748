import Foundation
import QuireIngest
import QuireMotion
import QuireRaster

/// A rectangle on an animation canvas, in pixels, origin top-left.
public struct CanvasRect: Sendable, Hashable {
  /// Left edge.
  public var x: Double
  /// Top edge.
  public var y: Double
  /// Width.
  public var width: Double
  /// Height.
  public var height: Double

  /// A rectangle from its origin and size.
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }
}

/// What `quire open` asks for: the book's cover swinging open from a shelf rectangle.
public struct OpenRequest: Sendable {
  /// The book.
  public var book: URL
  /// Where the frames go (a folder, .png/.apng, .webp, .mp4/.webm).
  public var output: URL
  /// Canvas width; the book is laid out at the canvas size.
  public var canvasWidth = 600
  /// Canvas height.
  public var canvasHeight = 800
  /// The shelf rectangle the book starts from; nil: a quarter-size book in the lower left.
  public var from: CanvasRect? = nil
  /// Play it backwards: the book closes into the rectangle.
  public var closing = false
  /// Frames and easing.
  public var timing = AnimationTiming()
  /// How the book's content is read.
  public var reading = ReadingOptions()

  /// An opening of `book` into `output` with the defaults.
  public init(book: URL, output: URL) {
    self.book = book
    self.output = output
  }
}

/// `quire open`: the iBooks-style opening of a book.
public enum OpenJob {
  /// Renders the opening (or closing) and writes it to `output`.
  public static func run(_ r: OpenRequest) throws(QuireError) {
    var settings = LayoutSettings(pageWidth: r.canvasWidth, pageHeight: r.canvasHeight)
    settings.reading = r.reading
    let book = try PagedBook(
      r.book.path, layout: settings, threads: ProcessInfo.processInfo.activeProcessorCount,
      through: nil)
    let firstPage = try pageUnderCover(book)
    let cover = try Cover.image(of: book)
    // Default shelf cell: a quarter-size book in the lower left, as on a shelf.
    let w = Double(r.canvasWidth)
    let h = Double(r.canvasHeight)
    let from = r.from ?? CanvasRect(x: w * 0.08, y: h * 0.6, width: w * 0.22, height: h * 0.22)
    let anim = BookOpenAnimation(
      cover: cover, firstPage: firstPage, canvas: (r.canvasWidth, r.canvasHeight),
      from: (from.x, from.y, from.width, from.height))
    let closing = r.closing
    try writeFrames(
      r.output.path, timeline: r.timing.timeline(), style: closing ? "close" : "open",
      width: r.canvasWidth, height: r.canvasHeight
    ) { anim.frame(at: $0, closing: closing) }
  }

  /// The page under the cover: the first page with text of the first linear spine item (a
  /// cover document is usually non-linear, and showing the cover twice would hide the
  /// effect); else page 1.
  static func pageUnderCover(_ book: PagedBook) throws(QuireError) -> PixelBuffer {
    let pages = book.pages
    let linear = Set(pages.book.document.chapters.filter(\.linear).map(\.spineIndex))
    for (i, r) in pages.book.records.enumerated() where linear.contains(r.page.spine) {
      if try !pages.page(i).lines.isEmpty { return try pages.render(i, format: .rgba8) }
    }
    return try pages.render(0, format: .rgba8)
  }
}

/// What `quire shelf` asks for: several books' covers, grid ⇄ scattered.
public struct ShelfRequest: Sendable {
  /// How the covers move.
  public enum Arrangement: Sendable, Hashable {
    /// The built-in scatter.
    case scatter
    /// Every book stays in its grid cell.
    case grid
    /// Placements from a file: JSON [{"x":…,"y":…,"angle":deg}] or the bookshelf plist.
    case file(URL)
  }

  /// The books, in grid order.
  public var books: [URL]
  /// Where the frames go.
  public var output: URL
  /// Canvas width.
  public var canvasWidth = 1200
  /// Canvas height.
  public var canvasHeight = 900
  /// Where the covers go from the grid.
  public var arrangement = Arrangement.scatter
  /// The book (from 1) brought to the front, if any.
  public var front: Int? = nil
  /// Per book a download progress 0…1 drawn as a badge, or nil for none.
  public var progress: [Double?] = []
  /// Frames and easing.
  public var timing = AnimationTiming()
  /// How the books' content is read.
  public var reading = ReadingOptions()

  /// A shelf of `books` into `output` with the defaults.
  public init(books: [URL], output: URL) {
    self.books = books
    self.output = output
  }
}

/// `quire shelf`: the covers of several books animating from a grid to a scatter.
public enum ShelfJob {
  /// Renders the shelf animation and writes it to `output`.
  public static func run(_ r: ShelfRequest) throws(QuireError) {
    guard (1...200).contains(r.books.count) else {
      throw .invalidRequest(.shelfSize(r.books.count))
    }
    if let k = r.front, !(1...r.books.count).contains(k) {
      throw .invalidRequest(.noSuchShelfBook(k, bookCount: r.books.count))
    }
    let timeline = try r.timing.timeline()
    var settings = LayoutSettings(pageWidth: 300, pageHeight: 400)
    settings.reading = r.reading
    var covers: [PixelBuffer] = []
    for url in r.books {
      covers.append(
        try Cover.image(of: PagedBook(url.path, layout: settings, threads: 2, through: 1)))
    }
    let anim = ShelfAnimation(
      covers: covers, canvas: (r.canvasWidth, r.canvasHeight), scatter: try scatter(r.arrangement),
      front: r.front.map { $0 - 1 }, progress: r.progress)
    try writeFrames(
      r.output.path, timeline: timeline, style: "shelf", width: r.canvasWidth,
      height: r.canvasHeight
    ) { anim.frame(at: $0) }
  }

  /// The placements: nil for the built-in scatter, empty to stay in the grid.
  static func scatter(_ arrangement: ShelfRequest.Arrangement) throws(QuireError)
    -> [ShelfPlacement]?
  {
    switch arrangement {
    case .scatter: return nil
    case .grid: return []
    case .file(let url):
      guard let data = FileManager.default.contents(atPath: url.path) else {
        throw .cannotOpen(file: url.path, reason: "no such file or not readable")
      }
      do {
        return try ShelfPlacement.parseLayout(data, file: url.path)
      } catch {
        throw .badData(file: url.path, reason: "\(error)")
      }
    }
  }
}

/// A book's cover picture: the manifest's cover image when it decodes, else page 1.
enum Cover {
  static func image(of book: PagedBook) throws(QuireError) -> PixelBuffer {
    let document = book.pages.book.document
    if let href = document.metadata.coverHref,
      let data = document.resources.data(forHref: href),
      let decoded = decodeImage(data, href: href)
    {
      return decoded.converted(to: .rgba8)
    }
    return try book.page(1, color: .rgb)
  }
}
