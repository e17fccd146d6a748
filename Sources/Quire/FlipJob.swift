import Foundation

/// The styles `quire flip --style` accepts, in help order.
public let flipStyles = pageTurnStyles

/// How many frames and how fast; shared by flip, open and shelf.
public struct AnimationTiming: Sendable {
  public var frames: Int? = nil
  public var duration: Double? = nil
  public var fps: Double = 30
  public var timing: TimingFunction = .easeInEaseOut
  public init() {}

  public var timeline: FlipTimeline {
    let f = timing
    if let d = duration { return FlipTimeline(duration: d, fps: fps, easing: { f($0) }) }
    return FlipTimeline(frameCount: frames ?? 30, fps: fps, easing: { f($0) })
  }
}

public struct FlipRequest: Sendable {
  public var book: String
  public var output: String
  /// 1-based page the turn starts on.
  public var page: Int
  public var style = "curl"
  public var turn = TurnOptions()
  /// nil: from the book's page-progression direction.
  public var rightToLeft: Bool? = nil
  public var timing = AnimationTiming()
  public var ingest = IngestOptions()
  public var layout = LayoutOptions()
  public init(book: String, output: String, page: Int) {
    self.book = book
    self.output = output
    self.page = page
  }
}

public enum FlipJob {
  /// Renders the turn from `page` (to the next page, or the previous with `.prev`) and writes
  /// it to `output`. Pages come through a `PageCache`, as a reader app would get them.
  public static func run(_ r: FlipRequest) throws(QuireError) {
    guard let effect = makeEffect(style: r.style) else {
      throw .usage("--style must be one of \(flipStyles.joined(separator: "|")), got '\(r.style)'")
    }
    let book = try LaidOutBook.open(
      r.book, ingest: r.ingest, layout: r.layout,
      threads: ProcessInfo.processInfo.activeProcessorCount)
    let count = book.layout.pages.count
    guard (1...max(1, count)).contains(r.page), count > 0 else {
      throw .usage("--page \(r.page): \(r.book) has \(count) pages")
    }
    var options = r.turn
    options.rightToLeft = r.rightToLeft ?? (book.document.metadata.direction == .rtl)
    let forward = options.direction == .next
    let step = forward ? 1 : -1
    // Page indices (from 0) the turn shows; nil where the book has no page (blank paper).
    let first = r.page - 1
    let wanted: [Int]
    if options.spread {
      // The current spread is (N, N+1); forward shows (N+2, N+3), backward (N−2, N−1).
      // SpreadPages holds display positions: left to right in an LTR book, but in an RTL
      // book the earlier page of a spread sits on the right.
      let n = first
      let m = first + 2 * step
      wanted = options.rightToLeft ? [n + 1, n, m + 1, m] : [n, n + 1, m, m + 1]
    } else {
      wanted = [first, first + step]
    }
    let target = options.spread ? first + 2 * step : first + step
    guard target >= 0, target < count else {
      throw .usage("--page \(r.page): no page to turn to (\(forward ? "last" : "first") page)")
    }
    let source = BookPages(book: book, options: r.layout)
    let cache = PageCache(source: source, radius: 2, layoutKey: book.layout.key)
    let images: [PixelBuffer]
    do {
      images = try blocking {
        var out: [PixelBuffer] = []
        for i in wanted {
          if i >= 0 && i < count {
            out.append(try await cache.page(i))
          } else {
            out.append(PixelBuffer(width: r.layout.width, height: r.layout.height, format: .rgba8))
          }
        }
        return out
      }
    } catch {
      throw .internalError("page cache: \(error)")
    }
    let input: TurnInput =
      options.spread
      ? .spread(
        SpreadPages(
          leftCurrent: images[0], rightCurrent: images[1], leftNext: images[2], rightNext: images[3]
        ))
      : .single(TurnPages(current: images[0], next: images[1]))
    let renderer = PageTurnRenderer(effect: effect, options: options)
    let width = options.spread ? 2 * r.layout.width : r.layout.width
    try write(
      r.output, timeline: r.timing.timeline, style: effect.name, width: width,
      height: r.layout.height
    ) {
      renderer.frame(at: $0, input: input)
    }
  }

  /// Writes frames through the motion encoders, mapping their errors to sysexits.
  static func write(
    _ output: String, timeline: FlipTimeline, style: String, width: Int, height: Int,
    render: @escaping @Sendable (Double) -> PixelBuffer
  ) throws(QuireError) {
    guard FlipOutputKind(path: output) != nil else {
      throw .usage("-o \(output): use a folder, .png/.apng, .webp, .mp4 or .webm")
    }
    do {
      try FlipOutput.write(
        to: output, timeline: timeline, style: style, width: width, height: height, render: render)
    } catch let e as FrameSinkError {
      throw .cannotCreate(path: output, reason: e.description)
    } catch {
      throw .cannotCreate(path: output, reason: "\(error)")
    }
  }
}

/// `quire open`: the book's cover swinging open from a shelf rectangle.
public struct OpenRequest: Sendable {
  public var book: String
  public var output: String
  public var canvas: (width: Int, height: Int) = (600, 800)
  public var from: (x: Double, y: Double, w: Double, h: Double)? = nil
  public var closing = false
  public var timing = AnimationTiming()
  public var ingest = IngestOptions()
  public var layout = LayoutOptions()
  public init(book: String, output: String) {
    self.book = book
    self.output = output
  }
}

public enum OpenJob {
  public static func run(_ r: OpenRequest) throws(QuireError) {
    var layout = r.layout
    layout.width = r.canvas.width
    layout.height = r.canvas.height
    layout.margins = .proportional(width: layout.width, height: layout.height)
    let book = try LaidOutBook.open(
      r.book, ingest: r.ingest, layout: layout,
      threads: ProcessInfo.processInfo.activeProcessorCount)
    let renderer = book.makeRenderer()
    let pages = book.layout.pages
    // The page under the cover: the first page of the first linear spine item (a cover
    // document is usually non-linear, and showing the cover twice would hide the effect).
    let linear = Set(book.document.chapters.filter(\.linear).map(\.spineIndex))
    let under = pages.first { linear.contains($0.spine) && !$0.lines.isEmpty } ?? pages.first
    let firstPage =
      under.map { renderer.render($0, width: layout.width, height: layout.height, format: .rgba8) }
      ?? PixelBuffer(width: layout.width, height: layout.height, format: .rgba8)
    let cover = Cover.image(
      of: book, width: layout.width, height: layout.height, renderer: renderer)
    // Default shelf cell: a quarter-size book in the lower left, as on a shelf.
    let from =
      r.from ?? (
        Double(r.canvas.width) * 0.08, Double(r.canvas.height) * 0.6,
        Double(r.canvas.width) * 0.22, Double(r.canvas.height) * 0.22
      )
    let anim = BookOpenAnimation(
      cover: cover, firstPage: firstPage, canvas: r.canvas, from: from)
    let closing = r.closing
    try FlipJob.write(
      r.output, timeline: r.timing.timeline, style: closing ? "close" : "open",
      width: r.canvas.width,
      height: r.canvas.height
    ) { anim.frame(at: $0, closing: closing) }
  }
}

/// `quire shelf`: several books' covers, grid ⇄ scattered.
public struct ShelfRequest: Sendable {
  public var books: [String]
  public var output: String
  public var canvas: (width: Int, height: Int) = (1200, 900)
  /// nil: the built-in scatter; else a JSON or plist file.
  public var layoutFile: String? = nil
  /// "grid": stay in the grid (no scatter); "scatter": the built-in scatter.
  public var layoutName = "scatter"
  public var front: Int? = nil
  public var progress: [Double?] = []
  public var timing = AnimationTiming()
  public var ingest = IngestOptions()
  public init(books: [String], output: String) {
    self.books = books
    self.output = output
  }
}

public enum ShelfJob {
  public static func run(_ r: ShelfRequest) throws(QuireError) {
    guard !r.books.isEmpty, r.books.count <= 200 else { throw .usage("shelf: give 1…200 books") }
    var covers: [PixelBuffer] = []
    var layout = LayoutOptions()
    layout.width = 300
    layout.height = 400
    layout.margins = .proportional(width: 300, height: 400)
    for path in r.books {
      let book = try LaidOutBook.open(path, ingest: r.ingest, layout: layout, threads: 2)
      covers.append(Cover.image(of: book, width: 300, height: 400, renderer: book.makeRenderer()))
    }
    var scatter: [ShelfPlacement]? = nil
    if let file = r.layoutFile {
      guard let data = FileManager.default.contents(atPath: file) else {
        throw .ingest(.cannotOpen(path: file, reason: "no such file or not readable"))
      }
      do {
        scatter = try ShelfPlacement.parseLayout(data, file: file)
      } catch {
        throw .ingest(.badData(file: file, reason: "\(error)"))
      }
    } else if r.layoutName == "grid" {
      scatter = []  // an empty scatter keeps every book in its grid cell
    }
    if let k = r.front, !(1...covers.count).contains(k) {
      throw .usage("--front \(k): there are \(covers.count) books")
    }
    let anim = ShelfAnimation(
      covers: covers, canvas: r.canvas, scatter: scatter, front: r.front.map { $0 - 1 },
      progress: r.progress)
    try FlipJob.write(
      r.output, timeline: r.timing.timeline, style: "shelf", width: r.canvas.width,
      height: r.canvas.height
    ) { anim.frame(at: $0) }
  }
}

/// A book's cover picture: the manifest's cover image when it decodes, else page 1.
enum Cover {
  static func image(of book: LaidOutBook, width: Int, height: Int, renderer: PageRenderer)
    -> PixelBuffer
  {
    if let href = book.document.metadata.coverHref,
      let data = book.document.resources.data(forHref: href),
      let decoded = decodeImage(data, href: href)
    {
      return decoded.converted(to: .rgba8)
    }
    if let first = book.layout.pages.first {
      return renderer.render(first, width: width, height: height, format: .rgba8)
    }
    return PixelBuffer(width: width, height: height, format: .rgba8)
  }
}
