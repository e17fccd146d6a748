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
//
// Rows (every command that makes frames): each page-turn style as PNG frames; curl again as
// APNG, animated WebP and MP4 (ffmpeg, when installed) — the encoders' cost, which does not
// depend on the style; a spread turn; a cancelled turn; `open` and `open --close`; the shelf
// both ways (`--toggle`) at the page size and at its own 1200x900; a `--timeline` chain (open,
// turn, turn, close); and `quire flipbook` over six pages: every frame it writes (pages,
// spread stills and the moving frames of its turn strips) per second end to end, and per
// kind of turn strip (single-page, spread: frames drawn, packed and encoded in the default
// sheet format, per second of the strips' own time — each sheet timed on its thread — with
// every core making strips).

/// One animation's speed.
public struct FlipSpeed: Codable, Sendable, Hashable {
  /// "curl", "leaves", …, "open", "shelf".
  public var animation: String
  /// Frames drawn.
  public var frames: Int
  /// Frames per second of the whole job, encoding included.
  public var endToEndFPS: Double
  /// Frames per second of drawing the frames alone; nil where the row measures only the job
  /// (an encoder, the flipbook).
  public var compositedFPS: Double?
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
      out.append(
        try turnSpeed(
          book, layout: layout, page: page, turn: PageTurn(style: style, timing: .init(frames: n)),
          name: style.rawValue, scratch: scratch))
    }
    out += try encoderSpeeds(book, layout: layout, page: page, frames: n, scratch: scratch)
    var spread = PageTurn(style: .curl, timing: .init(frames: n))
    spread.spread = true
    out.append(
      try turnSpeed(
        book, layout: layout, page: page, turn: spread, name: "curl --spread", scratch: scratch))
    var cancel = PageTurn(style: .curl, timing: .init(frames: n))
    cancel.timing.to = 0.5
    cancel.timing.fallsBack = true
    out.append(
      try turnSpeed(
        book, layout: layout, page: page, turn: cancel, name: "curl --cancel", scratch: scratch))
    out.append(try openSpeed(book, layout: layout, frames: n, closing: false, scratch: scratch))
    out.append(try openSpeed(book, layout: layout, frames: n, closing: true, scratch: scratch))
    out.append(
      try shelfSpeed(
        book, canvas: (layout.pageWidth, layout.pageHeight), name: "shelf", frames: n,
        scratch: scratch))
    out.append(
      try shelfSpeed(
        book, canvas: (layout.pageWidth, layout.pageHeight), name: "shelf --toggle", frames: n,
        toggle: true, scratch: scratch))
    out.append(
      try shelfSpeed(
        book, canvas: (1200, 900), name: "shelf-1200x900", frames: n, scratch: scratch))
    out.append(try chainSpeed(book, layout: layout, frames: n, scratch: scratch))
    out += try flipbookSpeeds(book, layout: layout, page: page, scratch: scratch)
    return out
  }

  /// A page turn written as PNG frames (end to end) and drawn again (composited).
  private static func turnSpeed(
    _ book: URL, layout: LayoutSettings, page: Int, turn: PageTurn, name: String, scratch: URL
  ) throws(QuireError) -> FlipSpeed {
    var r = FlipRequest(
      book: book, output: scratch.appendingPathComponent("turn-\(name.count)-\(name.hashValue)"),
      page: page)
    r.layout = layout
    r.turn = turn
    let n = try turn.timing.timeline().frameCount
    let endToEnd = try seconds { () throws(QuireError) in try FlipJob.run(r) }
    let animation = try PagedBook(
      book.path, layout: layout, threads: ProcessInfo.processInfo.activeProcessorCount,
      through: page + 3
    ).turn(from: page, turn)
    let composited = seconds { drawAll(n) { _ = animation.frame($0) } }
    return FlipSpeed(
      animation: name, frames: n, endToEndFPS: Double(n) / endToEnd,
      compositedFPS: Double(n) / composited)
  }

  /// The curl written as APNG, animated WebP and (when ffmpeg is installed) MP4, end to end.
  private static func encoderSpeeds(
    _ book: URL, layout: LayoutSettings, page: Int, frames n: Int, scratch: URL
  ) throws(QuireError) -> [FlipSpeed] {
    var kinds = ["apng", "webp"]
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")
      || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/ffmpeg")
    {
      kinds.append("mp4")
    }
    var out: [FlipSpeed] = []
    try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    for kind in kinds {
      var r = FlipRequest(
        book: book, output: scratch.appendingPathComponent("curl.\(kind)"), page: page)
      r.layout = layout
      r.turn = PageTurn(style: .curl, timing: AnimationTiming(frames: n))
      let endToEnd = try seconds { () throws(QuireError) in try FlipJob.run(r) }
      out.append(
        FlipSpeed(
          animation: "curl → \(kind)", frames: n, endToEndFPS: Double(n) / endToEnd,
          compositedFPS: nil))
    }
    return out
  }

  private static func openSpeed(
    _ book: URL, layout: LayoutSettings, frames n: Int, closing: Bool, scratch: URL
  ) throws(QuireError) -> FlipSpeed {
    let name = closing ? "open --close" : "open"
    var r = OpenRequest(book: book, output: scratch.appendingPathComponent(name))
    r.canvasWidth = layout.pageWidth
    r.canvasHeight = layout.pageHeight
    r.closing = closing
    r.timing = AnimationTiming(frames: n)
    let endToEnd = try seconds { () throws(QuireError) in try OpenJob.run(r) }
    let anim = try OpenJob.animation(r)
    let timeline = try r.timing.timeline()
    let composited = seconds {
      drawAll(n) { _ = anim.frame(at: timeline.info($0).progress, closing: closing) }
    }
    return FlipSpeed(
      animation: name, frames: n, endToEndFPS: Double(n) / endToEnd,
      compositedFPS: Double(n) / composited)
  }

  /// Eight copies of the book on a shelf of `canvas` pixels, grid to scatter with badges (and
  /// back with `toggle`).
  private static func shelfSpeed(
    _ book: URL, canvas: (width: Int, height: Int), name: String, frames n: Int,
    toggle: Bool = false, scratch: URL
  ) throws(QuireError) -> FlipSpeed {
    var r = ShelfRequest(
      books: Array(repeating: book, count: 8), output: scratch.appendingPathComponent(name))
    r.canvasWidth = canvas.width
    r.canvasHeight = canvas.height
    r.progress = [0.4, nil, 1, nil, 0.75, nil, nil, 0.1]
    r.timing = AnimationTiming(frames: n)
    r.toggle = toggle
    let endToEnd = try seconds { () throws(QuireError) in try ShelfJob.run(r) }
    let anim = try ShelfJob.animation(r)
    let timeline = try r.timing.timeline()
    let composited = seconds { drawAll(n) { _ = anim.frame(at: timeline.info($0).progress) } }
    return FlipSpeed(
      animation: name, frames: n, endToEndFPS: Double(n) / endToEnd,
      compositedFPS: Double(n) / composited)
  }

  /// A `--timeline` chain at the page size: open, turn, turn, close, `n` frames each.
  private static func chainSpeed(
    _ book: URL, layout: LayoutSettings, frames n: Int, scratch: URL
  ) throws(QuireError) -> FlipSpeed {
    let segments = [ChainSegment.Kind.open, .turn, .turn, .close].map { kind in
      var s = ChainSegment(kind)
      s.timing = AnimationTiming(frames: n)
      return s
    }
    var r = ChainRequest(
      book: book, output: scratch.appendingPathComponent("timeline"), segments: segments)
    r.layout = layout
    let endToEnd = try seconds { () throws(QuireError) in try ChainJob.run(r) }
    let chain = try AnimationChain(r)
    let count = chain.frameCount
    let composited = seconds { drawAll(count) { _ = chain.frame($0) } }
    return FlipSpeed(
      animation: "timeline (open, turn, turn, close)", frames: count,
      endToEndFPS: Double(count) / endToEnd, compositedFPS: Double(count) / composited)
  }

  /// `quire flipbook` over six pages from `page` with 16-frame turns: every frame it writes
  /// per second end to end, and the frames of one turn strip per second of that strip.
  private static func flipbookSpeeds(
    _ book: URL, layout: LayoutSettings, page: Int, scratch: URL
  ) throws(QuireError) -> [FlipSpeed] {
    var r = FlipbookRequest(book: book, output: scratch.appendingPathComponent("flipbook"))
    r.firstPage = page
    r.lastPage = page + 5
    r.layout = layout
    var files = 0
    let start = DispatchTime.now().uptimeNanoseconds
    let summary = try FlipbookJob.run(r) { done, _ in files = done }
    let total = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let moving = FlipbookLimits.defaultFrames - 2
    let stills = files - summary.pages - summary.turns - summary.spreadTurns
    let frames = summary.pages + stills + moving * (summary.turns + summary.spreadTurns)
    // A strip's rate: its moving frames per second of its own drawing and encoding (timed
    // per sheet, on the thread that made it), with every core making strips.
    let cores = Double(max(1, ProcessInfo.processInfo.activeProcessorCount))
    func rate(_ count: Int, _ seconds: Double) -> Double {
      count == 0 ? 0 : Double(moving * count) * cores / max(1e-9, seconds)
    }
    let single = rate(summary.turns, summary.sheetSeconds.single)
    let spread = rate(summary.spreadTurns, summary.sheetSeconds.spread)
    return [
      FlipSpeed(
        animation: "flipbook (6 pages: pages, stills, strips)", frames: frames,
        endToEndFPS: Double(frames) / max(1e-9, total), compositedFPS: nil),
      FlipSpeed(
        animation: "flipbook turn strip", frames: moving, endToEndFPS: single,
        compositedFPS: nil),
      FlipSpeed(
        animation: "flipbook spread strip", frames: moving, endToEndFPS: spread,
        compositedFPS: nil),
    ]
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
      s += String(format: " %6d  %8.1f fps", v.frames, v.endToEndFPS)
      s += v.compositedFPS.map { String(format: "  %9.1f fps\n", $0) } ?? "          —\n"
    }
    return s
  }
}
