import Dispatch
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
    let anim = try animation(r)
    let closing = r.closing
    try writeFrames(
      r.output.path, timeline: r.timing.timeline(), style: closing ? "close" : "open",
      width: r.canvasWidth, height: r.canvasHeight
    ) { anim.frame(at: $0, closing: closing) }
  }

  /// The opening of `r.book`: the cover (the manifest's cover image, else page 1) sets the
  /// book's aspect; the book is laid out at the largest size of that aspect that fits the
  /// canvas, and the page after the cover rests there at the end.
  static func animation(_ r: OpenRequest) throws(QuireError) -> BookOpenAnimation {
    var probe = LayoutSettings(pageWidth: r.canvasWidth, pageHeight: r.canvasHeight)
    probe.reading = r.reading
    let (book, cover) = try layOut(
      r.book, canvas: (r.canvasWidth, r.canvasHeight), layout: probe, through: 3)
    let page = try pageUnderCover(book)
    let from = r.from ?? defaultShelf(width: Double(r.canvasWidth), height: Double(r.canvasHeight))
    var anim = BookOpenAnimation(
      cover: cover, firstPage: page, canvas: (r.canvasWidth, r.canvasHeight),
      from: (from.x, from.y, from.width, from.height), rightToLeft: book.rightToLeft)
    anim.shelf = ShelfBackdrop.image(
      width: r.canvasWidth, height: r.canvasHeight, book: anim.shelfRect)
    return anim
  }

  /// Default shelf cell: a book a third of the canvas tall on a shelf at the lower left.
  static func defaultShelf(width w: Double, height h: Double) -> CanvasRect {
    CanvasRect(x: w * 0.08, y: h * 0.52, width: w * 0.3, height: h * 0.33)
  }

  /// The book laid out for an opening on `canvas` (`layout` at the canvas size first, to read
  /// the cover; again at the largest page of the cover's aspect inside the canvas when that
  /// differs), through page `through`, and its cover.
  static func layOut(
    _ url: URL, canvas: (Int, Int), layout: LayoutSettings, through: Int
  ) throws(QuireError) -> (book: PagedBook, cover: PixelBuffer) {
    var probe = layout
    probe.pageWidth = canvas.0
    probe.pageHeight = canvas.1
    let threads = ProcessInfo.processInfo.activeProcessorCount
    let first = try PagedBook(url.path, layout: probe, threads: threads, through: through)
    let cover = try Cover.image(of: first)
    let (pw, ph) = fitted(
      aspect: Double(max(cover.width, 1)) / Double(max(cover.height, 1)), canvas: canvas)
    guard (pw, ph) != canvas else { return (first, cover) }
    var settings = probe
    settings.pageWidth = pw
    settings.pageHeight = ph
    return (try PagedBook(url.path, layout: settings, threads: threads, through: through), cover)
  }

  /// The largest page of `aspect` (width / height, bounded to 1:4…4:1) inside the canvas.
  static func fitted(aspect: Double, canvas: (Int, Int)) -> (Int, Int) {
    let a = min(max(aspect.isFinite ? aspect : 0.75, 0.25), 4)
    let (cw, ch) = canvas
    if Double(cw) / Double(ch) > a {
      return (max(1, min(cw, Int((Double(ch) * a).rounded()))), ch)
    }
    return (cw, max(1, min(ch, Int((Double(cw) / a).rounded()))))
  }

  /// The page under the cover: the page after the cover (the title page). Page 1 is the
  /// cover when it shows the manifest's cover image, has no text, or the book has no cover
  /// image (then page 1 is what the cover shows); otherwise page 1 lies under the cover.
  static func pageUnderCover(_ book: PagedBook) throws(QuireError) -> PixelBuffer {
    try book.pages.render(pageUnderCoverIndex(book), format: .rgba8)
  }

  /// The index (from 0) of the page under the cover (see `pageUnderCover`).
  static func pageUnderCoverIndex(_ book: PagedBook) throws(QuireError) -> Int {
    let pages = book.pages
    guard pages.pageCount > 1 else { return 0 }
    let document = pages.book.document
    let first = try pages.page(0)
    let coverImage = document.metadata.coverHref
    let pageOneIsCover =
      coverImage == nil || first.lines.isEmpty
      || first.images.contains { $0.href == coverImage }
    return pageOneIsCover ? 1 : 0
  }
}

/// Where a shelf's books lie: in the grid, or scattered in a pile.
public enum ShelfSide: String, Sendable, Hashable, CaseIterable {
  /// The grid, four books per row.
  case grid
  /// The scattered pile (built in, or from a layout file).
  case scatter
}

/// What `quire shelf` asks for: several books' covers, grid ⇄ scattered.
public struct ShelfRequest: Sendable {
  /// Where the books start.
  public enum Arrangement: Sendable, Hashable {
    /// The built-in scattered pile.
    case scatter
    /// The grid.
    case grid
    /// Scattered at the placements of a file: JSON [{"x":…,"y":…,"angle":deg}] or the
    /// bookshelf app's plist (nested dictionaries with center/angle/size).
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
  /// Where the covers start (the scattered layout, when scattered).
  public var arrangement = Arrangement.grid
  /// The book (from 1) brought to the front, if any.
  public var front: Int? = nil
  /// Per book a download progress 0…1 drawn as a badge, or nil for none.
  public var progress: [Double?] = []
  /// Frames and easing.
  public var timing = AnimationTiming()
  /// How the books' content is read.
  public var reading = ReadingOptions()
  /// Where the covers go; nil: the other side (grid → scatter, scatter → grid).
  public var to: ShelfSide? = nil
  /// There and back: to `to` and back to where they started.
  public var toggle = false

  /// A shelf of `books` into `output` with the defaults.
  public init(books: [URL], output: URL) {
    self.books = books
    self.output = output
  }
}

/// `quire shelf`: the covers of several books moving between a grid and a scattered pile.
public enum ShelfJob {
  /// Renders the shelf animation and writes it to `output`.
  public static func run(_ r: ShelfRequest) throws(QuireError) {
    let anim = try animation(r)
    var timing = r.timing
    if r.toggle { timing.fallsBack = true }
    let timeline = try timing.timeline()
    try writeFrames(
      r.output.path, timeline: timeline, style: "shelf", width: r.canvasWidth,
      height: r.canvasHeight
    ) { anim.frame(at: $0) }
  }

  /// The animation `r` asks for, badges drawn.
  static func animation(_ r: ShelfRequest) throws(QuireError) -> ShelfAnimation {
    guard (1...200).contains(r.books.count) else {
      throw .invalidRequest(.shelfSize(r.books.count))
    }
    if let k = r.front, !(1...r.books.count).contains(k) {
      throw .invalidRequest(.noSuchShelfBook(k, bookCount: r.books.count))
    }
    let (start, placements) = try startingPoint(r.arrangement)
    let end = r.to ?? (start == .grid ? .scatter : .grid)
    var anim = ShelfAnimation(
      covers: [], canvas: (r.canvasWidth, r.canvasHeight), scatter: placements,
      front: r.front.map { $0 - 1 }, progress: r.progress)
    anim.start = start == .grid ? .grid : .scatter
    anim.end = end == .grid ? .grid : .scatter
    anim.covers = try covers(r, atLeast: anim.largestCoverBox(count: r.books.count))
    anim.labeler = badgeLabeler()
    anim.drawBadges()
    anim.reduceCovers()
    return anim
  }

  /// The books' covers, read in parallel from their packages (`Cover.read`: a book is laid
  /// out, through page 1 only, when its package and first document show no cover image);
  /// JPEG covers decode at the smallest DCT scale that is at least `atLeast`.
  static func covers(_ r: ShelfRequest, atLeast: (width: Int, height: Int)?) throws(QuireError)
    -> [PixelBuffer]
  {
    var layout = LayoutSettings(pageWidth: 300, pageHeight: 400)
    layout.reading = r.reading
    let settings = layout
    let results = Mutex<[Int: Result<PixelBuffer, QuireError>]>([:])
    let books = r.books
    DispatchQueue.concurrentPerform(iterations: books.count) { i in
      let result: Result<PixelBuffer, QuireError>
      do {
        result = .success(try Cover.read(books[i].path, page: settings, atLeast: atLeast))
      } catch let e as QuireError {
        result = .failure(e)
      } catch {
        result = .failure(.internalError("cover: unexpected \(type(of: error))"))
      }
      results.withLock { $0[i] = result }
    }
    let all = results.withLock { $0 }
    var out: [PixelBuffer] = []
    for i in 0..<books.count {
      switch all[i] {
      case .success(let cover): out.append(cover)
      case .failure(let e): throw e
      case nil: throw .internalError("cover \(i) was not read")
      }
    }
    return out
  }

  /// Where the books start, and the scattered placements (nil: the built-in pile).
  static func startingPoint(_ arrangement: ShelfRequest.Arrangement) throws(QuireError)
    -> (ShelfSide, [ShelfPlacement]?)
  {
    switch arrangement {
    case .scatter: return (.scatter, nil)
    case .grid: return (.grid, nil)
    case .file(let url):
      guard let data = FileManager.default.contents(atPath: url.path) else {
        throw .cannotOpen(file: url.path, reason: "no such file or not readable")
      }
      do {
        return (.scatter, try ShelfPlacement.parseLayout(data, file: url.path))
      } catch {
        throw .badData(file: url.path, reason: "\(error)")
      }
    }
  }

  /// The badges' percentages are set in the vendored DejaVu Sans (fonts/, found as the
  /// typesetter finds it: `QUIRE_FONTS`, next to the executable, or the source tree); nil
  /// when it cannot be read (rings without text).
  static func badgeLabeler() -> BadgeLabeler? {
    var candidates: [URL] = []
    if let env = ProcessInfo.processInfo.environment["QUIRE_FONTS"], !env.isEmpty {
      candidates.append(URL(fileURLWithPath: env))
    }
    var dir = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
      .deletingLastPathComponent()
    for _ in 0..<8 {
      candidates.append(dir.appendingPathComponent("fonts"))
      dir = dir.deletingLastPathComponent()
    }
    // Sources/Quire/ShelfJobs.swift → the package root.
    candidates.append(
      URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("fonts"))
    for folder in candidates {
      if let data = FileManager.default.contents(
        atPath: folder.appendingPathComponent("DejaVuSans.ttf").path)
      {
        return BadgeLabeler(fontBytes: [UInt8](data))
      }
    }
    return nil
  }
}
