import Foundation
import QuireMotion

// `quire bench BOOK --flip`: how fast every animation is made.
//
// Two numbers per animation. End to end: the whole job as `quire flip`/`open`/`shelf` runs
// it — open and lay out the book as far as needed, render the pages, draw every frame and
// write the PNG frames and frames.json into a scratch folder — frames divided by wall-clock
// seconds. Composited: the frames alone (the same frames drawn again from the prepared
// animation, no encoding), frames per second of wall-clock time on all cores, which is what
// a player that has the pages in memory would get. The scratch folder is removed afterwards.

/// One animation's speed.
public struct FlipSpeed: Codable, Sendable, Hashable {
  /// "curl", "leaves", …, "open", "shelf".
  public var animation: String
  /// Frames drawn.
  public var frames: Int
  /// Frames per second of the whole job, encoding included.
  public var endToEndFPS: Double
  /// Frames per second of drawing the frames alone.
  public var compositedFPS: Double
}

/// `quire bench --flip`: every page-turn style, `open` and `shelf`, at the layout's page size,
/// and the shelf once more at its own default canvas (1200x900).
public enum FlipBenchmark {
  /// Measures each animation with `frames` frames (2…1000) from page `page` of `book`.
  public static func run(book: URL, layout: LayoutSettings, page: Int = 3, frames: Int = 60)
    throws(QuireError) -> [FlipSpeed]
  {
    let n = min(max(frames, 2), 1000)
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("quire-flip-bench-\(ProcessInfo.processInfo.processIdentifier)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    var out: [FlipSpeed] = []
    for style in PageTurnStyle.allCases {
      var r = FlipRequest(
        book: book, output: scratch.appendingPathComponent(style.rawValue), page: page)
      r.layout = layout
      r.turn = PageTurn(style: style, timing: AnimationTiming(frames: n))
      let endToEnd = try seconds { () throws(QuireError) in try FlipJob.run(r) }
      let turn = try PagedBook(
        book.path, layout: layout, threads: ProcessInfo.processInfo.activeProcessorCount,
        through: page + 1
      ).turn(from: page, r.turn)
      let composited = seconds { drawAll(n) { _ = turn.frame($0) } }
      out.append(
        FlipSpeed(
          animation: style.rawValue, frames: n, endToEndFPS: Double(n) / endToEnd,
          compositedFPS: Double(n) / composited))
    }
    out.append(try openSpeed(book, layout: layout, frames: n, scratch: scratch))
    out.append(
      try shelfSpeed(
        book, canvas: (layout.pageWidth, layout.pageHeight), name: "shelf", frames: n,
        scratch: scratch))
    out.append(
      try shelfSpeed(
        book, canvas: (1200, 900), name: "shelf-1200x900", frames: n, scratch: scratch))
    return out
  }

  private static func openSpeed(_ book: URL, layout: LayoutSettings, frames n: Int, scratch: URL)
    throws(QuireError) -> FlipSpeed
  {
    var r = OpenRequest(book: book, output: scratch.appendingPathComponent("open"))
    r.canvasWidth = layout.pageWidth
    r.canvasHeight = layout.pageHeight
    r.timing = AnimationTiming(frames: n)
    let endToEnd = try seconds { () throws(QuireError) in try OpenJob.run(r) }
    let anim = try OpenJob.animation(r)
    let timeline = try r.timing.timeline()
    let composited = seconds { drawAll(n) { _ = anim.frame(at: timeline.info($0).progress) } }
    return FlipSpeed(
      animation: "open", frames: n, endToEndFPS: Double(n) / endToEnd,
      compositedFPS: Double(n) / composited)
  }

  /// Eight copies of the book on a shelf of `canvas` pixels, grid to scatter with badges.
  private static func shelfSpeed(
    _ book: URL, canvas: (width: Int, height: Int), name: String, frames n: Int, scratch: URL
  ) throws(QuireError) -> FlipSpeed {
    var r = ShelfRequest(
      books: Array(repeating: book, count: 8), output: scratch.appendingPathComponent(name))
    r.canvasWidth = canvas.width
    r.canvasHeight = canvas.height
    r.progress = [0.4, nil, 1, nil, 0.75, nil, nil, 0.1]
    r.timing = AnimationTiming(frames: n)
    let endToEnd = try seconds { () throws(QuireError) in try ShelfJob.run(r) }
    let anim = try ShelfJob.animation(r)
    let timeline = try r.timing.timeline()
    let composited = seconds { drawAll(n) { _ = anim.frame(at: timeline.info($0).progress) } }
    return FlipSpeed(
      animation: name, frames: n, endToEndFPS: Double(n) / endToEnd,
      compositedFPS: Double(n) / composited)
  }

  /// Draws frames 0 ..< n on every core.
  private static func drawAll(_ n: Int, _ draw: @Sendable (Int) -> Void) {
    DispatchQueue.concurrentPerform(iterations: n) { draw($0) }
  }

  private static func seconds<E: Error>(_ work: () throws(E) -> Void) throws(E) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try work()
    return max(1e-9, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
  }

  /// The report as text, one line per animation.
  public static func text(_ speeds: [FlipSpeed]) -> String {
    let column = max(10, speeds.map(\.animation.count).max() ?? 0)
    var s = "animation".padding(toLength: column + 2, withPad: " ", startingAt: 0)
    s += "frames   end-to-end     composited\n"
    for v in speeds {
      s += v.animation.padding(toLength: column, withPad: " ", startingAt: 0)
      s += String(format: " %6d  %8.1f fps  %9.1f fps\n", v.frames, v.endToEndFPS, v.compositedFPS)
    }
    return s
  }
}
