import Foundation
import QuireMotion
import QuireRaster
import QuireTypeset

/// How many frames and how fast; shared by turns, openings and shelves.
public struct AnimationTiming: Sendable, Hashable {
  /// The number of frames (both ends included); nil: from `duration` (round(duration × fps)
  /// frames, each shown 1/fps s, so they last `duration`), else 30.
  public var frames: Int? = nil
  /// The duration in seconds, when `frames` is nil.
  public var duration: Double? = nil
  /// Frames per second.
  public var fps: Double = 30
  /// The easing curve.
  public var timing: TimingFunction = .easeInEaseOut
  /// Progress (0…1) at the first frame: part of a turn starts here.
  public var from = 0.0
  /// Progress (0…1) at the last frame (with `fallsBack`, at the middle frame).
  public var to = 1.0
  /// A cancelled turn: the motion goes from `from` to `to` and falls back to `from`.
  public var fallsBack = false

  /// 30 frames at 30 fps, ease in and out.
  public init() {}

  /// A fixed number of frames.
  public init(frames: Int, fps: Double = 30, timing: TimingFunction = .easeInEaseOut) {
    self.frames = frames
    self.fps = fps
    self.timing = timing
  }

  /// A still at `progress` (0…1): one frame.
  public static func still(at progress: Double) -> AnimationTiming {
    var t = AnimationTiming(frames: 1)
    t.from = progress
    t.to = progress
    return t
  }

  /// The frames' times, once the numbers are checked against `QuireLimits` (frame rate,
  /// frame count, duration and `duration × fps` frames) and the segment's ends against 0…1.
  func timeline() throws(QuireError) -> FlipTimeline {
    for (name, v) in [("from", from), ("to", to)] where !(v.isFinite && (0...1).contains(v)) {
      throw .invalidRequest(.timing("progress \(name) \(v) is outside 0…1"))
    }
    let whole = try wholeTimeline()
    return from == 0 && to == 1 && !fallsBack
      ? whole : whole.segment(from: from, to: to, fallsBack: fallsBack)
  }

  private func wholeTimeline() throws(QuireError) -> FlipTimeline {
    let rates = QuireLimits.framesPerSecond
    guard fps.isFinite, rates.contains(fps) else {
      throw .invalidRequest(
        .timing("\(fps) frames per second is outside \(rates.lowerBound)…\(rates.upperBound)"))
    }
    let f = timing
    let cap = QuireLimits.maxFrames
    if let frames {
      guard (1...cap).contains(frames) else {
        throw .invalidRequest(.timing("\(frames) frames is outside 1…\(cap)"))
      }
      return FlipTimeline(frameCount: frames, fps: fps, easing: { f($0) })
    }
    if let duration {
      let seconds = QuireLimits.durations
      guard duration.isFinite, seconds.contains(duration) else {
        throw .invalidRequest(
          .timing(
            "a duration of \(duration) s is outside \(seconds.lowerBound)…\(seconds.upperBound) s"))
      }
      // round(duration × fps) frames, each shown 1/fps s (FlipTimeline).
      let count = (duration * fps).rounded()
      guard count <= Double(cap) else {
        throw .invalidRequest(
          .timing(
            "\(duration) s at \(fps) fps is \(Int(count)) frames; at most \(cap) frames"))
      }
      return FlipTimeline(duration: duration, fps: fps, easing: { f($0) })
    }
    return FlipTimeline(frameCount: 30, fps: fps, easing: { f($0) })
  }
}

/// How a page turns.
public enum PageTurnStyle: String, Sendable, Hashable, CaseIterable {
  /// The page curls up from a corner, as around a cylinder.
  case curl
  /// The Leaves flip: the page folds over with a shadow.
  case leaves
  /// A straight fold along a moving line.
  case fold
  /// A hard page (a board book) swinging about the spine.
  case hard
  /// The next page slides in.
  case slide
  /// The pages cross-fade.
  case fade
  /// The next page pushes the current one out.
  case push

  var effect: (any PageTurnEffect)? { makeEffect(style: rawValue) }
}

/// One page turn: its style, geometry and timing.
public struct PageTurn: Sendable, Hashable {
  /// The effect.
  public var style = PageTurnStyle.curl
  /// To the next page or the previous one.
  public var direction = TurnDirection.next
  /// The corner the turn starts from.
  public var corner = TurnCorner.bottom
  /// What the back of the turning leaf shows.
  public var back = LeafBack.mirrored
  /// Turn two-page spreads instead of single pages.
  public var spread = false
  /// Spreads only: both pages darken toward the spine (the gutter shadow of an open book,
  /// `SpineShading`), before, during and after the turn — frame 0 then equals the spread
  /// image `render --spreads` writes.
  public var spineShading = true
  /// Right-to-left geometry; nil: from the book's page-progression direction.
  public var rightToLeft: Bool? = nil
  /// Frames and easing.
  public var timing = AnimationTiming()

  /// A curl to the next page, from the bottom corner, 30 frames.
  public init() {}

  /// A turn in `style` with the defaults for the rest.
  public init(style: PageTurnStyle, timing: AnimationTiming = AnimationTiming()) {
    self.style = style
    self.timing = timing
  }

  /// The page index (from 0) a single-page turn from page index `first` ends on (spread
  /// turns follow the book's pairing: `PagedBook.spreadTurn`).
  func target(from first: Int) -> Int { first + (direction == .next ? 1 : -1) }
}

/// A page turn ready to draw: frame i is the turn at the i-th time of its timeline. Frame 0
/// is the starting page exactly, the last frame the page turned to.
public struct PageTurnAnimation: Sendable {
  let renderer: PageTurnRenderer
  let input: TurnInput
  let timeline: FlipTimeline
  /// The style's name.
  public let style: String
  /// Frame width in pixels (two pages for a spread).
  public let width: Int
  /// Frame height in pixels.
  public let height: Int

  /// The number of frames.
  public var frameCount: Int { timeline.frameCount }
  /// Frames per second.
  public var fps: Double { timeline.fps }

  /// Frame `index` (0 ..< frameCount), RGBA.
  public func frame(_ index: Int) -> PixelBuffer {
    renderer.frame(at: timeline.info(min(max(0, index), frameCount - 1)).progress, input: input)
  }

  /// Writes the frames to `output`: a folder (frame-0001.png … + frames.json), .png/.apng,
  /// .webp, or .mp4/.webm (through ffmpeg).
  public func write(to output: URL) throws(QuireError) {
    let renderer = renderer
    let input = input
    try writeFrames(output.path, timeline: timeline, style: style, width: width, height: height) {
      renderer.frame(at: $0, input: input)
    }
  }
}

extension PagedBook {
  /// The turn from page `number` (from 1) to the next page (or the previous one). A spread
  /// turn goes from the spread holding `number` to the next (or previous) one of the book's
  /// pairing (`spreads(showing:)`, what `render --spreads` writes).
  public func turn(from number: Int, _ turn: PageTurn = PageTurn()) throws(QuireError)
    -> PageTurnAnimation
  {
    let count = pageCount
    guard number >= 1 else { throw .invalidRequest(.pageNumberBelowOne(number)) }
    guard number <= count else { throw .invalidRequest(.noSuchPage(number, pageCount: count)) }
    if turn.spread {
      guard let (current, target) = spreadTurn(from: number, direction: turn.direction) else {
        throw .invalidRequest(.nothingToTurnTo(page: number, direction: turn.direction))
      }
      return try spreadTurn(from: current, to: target, turn)
    }
    return try singleTurn(turn, pages: singleTurnPages(from: number, turn))
  }

  /// The display lists of a single-page turn from page `number` (from 1): the page and the
  /// one it turns to. Laid out here; drawn by `singleTurn(_:pages:)`, on any thread.
  func singleTurnPages(from number: Int, _ turn: PageTurn) throws(QuireError) -> [Page?] {
    let first = number - 1
    guard (0..<pageCount).contains(turn.target(from: first)) else {
      throw .invalidRequest(.nothingToTurnTo(page: number, direction: turn.direction))
    }
    return try shownPageLists([first, turn.target(from: first)])
  }

  /// The single-page turn between the two pages of `lists` (`singleTurnPages`), drawn here.
  func singleTurn(_ turn: PageTurn, pages lists: [Page?]) throws(QuireError)
    -> PageTurnAnimation
  {
    let images = draw(lists)
    return try animation(turn, .single(TurnPages(current: images[0], next: images[1])))
  }

  /// The spread turn from spread `current` to spread `target` (both of `spreads(showing:)`;
  /// an empty side is white paper), forward when `turn.direction` is next.
  func spreadTurn(from current: Spread, to target: Spread, _ turn: PageTurn) throws(QuireError)
    -> PageTurnAnimation
  {
    try spreadTurn(turn, pages: spreadTurnPages(from: current, to: target))
  }

  /// The display lists of a spread turn from `current` to `target`: left and right of each,
  /// nil for an empty side. Laid out here; drawn by `spreadTurn(_:pages:)`, on any thread.
  func spreadTurnPages(from current: Spread, to target: Spread) throws(QuireError) -> [Page?] {
    let shown = [current.left, current.right, target.left, target.right].map { ($0 ?? 0) - 1 }
    return try shownPageLists(shown)
  }

  /// The spread turn between the four pages of `lists` (`spreadTurnPages`), drawn here.
  func spreadTurn(_ turn: PageTurn, pages lists: [Page?]) throws(QuireError)
    -> PageTurnAnimation
  {
    var turn = turn
    turn.spread = true
    let images = draw(lists)
    let pages = SpreadPages(
      leftCurrent: images[0], rightCurrent: images[1], leftNext: images[2], rightNext: images[3])
    return try animation(turn, .spread(turn.spineShading ? pages.withSpineShading() : pages))
  }

  private func animation(_ turn: PageTurn, _ input: TurnInput) throws(QuireError)
    -> PageTurnAnimation
  {
    guard let effect = turn.style.effect else {
      throw .internalError("no effect for style \(turn.style.rawValue)")
    }
    var options = TurnOptions()
    options.direction = turn.direction
    options.corner = turn.corner
    options.back = turn.back
    options.spread = turn.spread
    options.rightToLeft = turn.rightToLeft ?? rightToLeft
    return PageTurnAnimation(
      renderer: PageTurnRenderer(effect: effect, options: options), input: input,
      timeline: try turn.timing.timeline(), style: effect.name,
      width: turn.spread ? 2 * settings.pageWidth : settings.pageWidth,
      height: settings.pageHeight)
  }

  /// The book's two-page spreads, paired as EPUB 3.3 says (Spreads.swift: the first page
  /// alone on the recto side, `page-spread-*` from the spine, right to left in an `rtl`
  /// book), with only the pages `showing` keeps (nil: all): the one pairing of
  /// `render --spreads`, `flip --spread`, spread turns in a chain and the flipbook. Pages are
  /// those laid out so far (a book opened for a turn is laid out through the pages it needs).
  public func spreads(showing: ClosedRange<Int>? = nil) -> [Spread] {
    SpreadPlan.pair(
      pages.book.records.map { ($0.page.number, $0.page.rendition) },
      direction: pages.book.document.metadata.direction,
      shown: { showing?.contains($0) ?? true })
  }

  /// The spread holding page `number` (from 1) and the one a turn in `direction` shows, by
  /// the book's pairing; nil when there is none.
  func spreadTurn(from number: Int, direction: TurnDirection) -> (current: Spread, target: Spread)?
  {
    let spreads = spreads()
    guard let k = spreads.firstIndex(where: { $0.holds(number) }) else { return nil }
    let t = k + (direction == .next ? 1 : -1)
    return spreads.indices.contains(t) ? (spreads[k], spreads[t]) : nil
  }

  /// The page index (from 0) a chain's turn from page index `index` ends on: the next or
  /// previous page, or for a spread turn the first page (in reading order) of the next or
  /// previous spread of the book's pairing; −1 when there is none.
  func chainTarget(from index: Int, _ turn: PageTurn) -> Int {
    guard turn.spread else { return turn.target(from: index) }
    guard let (_, target) = spreadTurn(from: index + 1, direction: turn.direction) else {
      return -1
    }
    return (target.readingOrder(rtl: rightToLeft).first ?? 0) - 1
  }

  /// The spread holding page `number` (from 1) at rest, as a spread turn starts or ends on
  /// it: the book's pairing, blank paper for an empty side, with the gutter shadow
  /// (`SpineShading`) when `turn` asks for it.
  func stillSpread(at number: Int, _ turn: PageTurn) throws(QuireError) -> PixelBuffer {
    guard let spread = spreads().first(where: { $0.holds(number) }) else {
      throw .invalidRequest(.noSuchPage(number, pageCount: pageCount))
    }
    return try still(spread, turn)
  }

  /// Spread `spread` at rest: its two pages side by side (white paper for an empty side), with
  /// the gutter shadow when `turn` asks for it — the first frame of a spread turn from it.
  func still(_ spread: Spread, _ turn: PageTurn) throws(QuireError) -> PixelBuffer {
    still(turn, pages: try stillPages(spread))
  }

  /// The display lists of spread `spread`'s two pages (nil: an empty side), laid out here.
  func stillPages(_ spread: Spread) throws(QuireError) -> [Page?] {
    try shownPageLists([spread.left, spread.right].map { ($0 ?? 0) - 1 })
  }

  /// The spread at rest of the two pages of `lists` (`stillPages`), drawn here.
  func still(_ turn: PageTurn, pages lists: [Page?]) -> PixelBuffer {
    let images = draw(lists)
    let pages = SpreadPages(
      leftCurrent: images[0], rightCurrent: images[1], leftNext: images[0], rightNext: images[1])
    return (turn.spineShading ? pages.withSpineShading() : pages).currentSpread
  }

  /// The display lists of the pages at `indices` (from 0), nil where out of range (blank
  /// paper). Laying out is the part of drawing a page that must run one page at a time
  /// (`BookPages` keeps the two most recent chapters); `draw` then runs on any thread.
  /// Not through a `PageCache` and `blocking`: a turn needs two to four pages once, and
  /// waiting on an async task from synchronous code starves Swift's cooperative pool when
  /// every pool thread is such a caller (tests run on it): the turn never finished.
  func shownPageLists(_ indices: [Int]) throws(QuireError) -> [Page?] {
    var out: [Page?] = []
    for i in indices {
      out.append(i >= 0 && i < pages.pageCount ? try pages.page(i) : nil)
    }
    return out
  }

  /// The pages of `lists` drawn as rgba8, blank paper for nil; safe on several threads at
  /// once (`PageRenderer` is).
  func draw(_ lists: [Page?]) -> [PixelBuffer] {
    let blank = PixelBuffer(width: pages.width, height: pages.height, format: .rgba8)
    return lists.map { $0.map { pages.draw($0, format: .rgba8) } ?? blank }
  }
}

/// What `quire flip` asks for.
public struct FlipRequest: Sendable {
  /// The book.
  public var book: URL
  /// Where the frames go (see `PageTurnAnimation.write(to:)`).
  public var output: URL
  /// The page (from 1) the turn starts on.
  public var page: Int
  /// The turn.
  public var turn = PageTurn()
  /// How the book is laid out.
  public var layout = LayoutSettings()

  /// A default turn of `page` of `book` into `output`.
  public init(book: URL, output: URL, page: Int) {
    self.book = book
    self.output = output
    self.page = page
  }
}

/// `quire flip`: one page turn of a book, written as frames or an animation.
public enum FlipJob {
  /// Lays the book out only as far as the pages the turn shows, renders the turn and writes
  /// it to `output`.
  public static func run(_ r: FlipRequest) throws(QuireError) {
    guard FlipOutputKind(path: r.output.path) != nil else {
      throw .invalidRequest(.outputKind(path: r.output.path))
    }
    let last = r.page + (r.turn.spread ? 3 : 1)
    let book = try PagedBook(
      r.book.path, layout: r.layout, threads: ProcessInfo.processInfo.activeProcessorCount,
      through: last)
    try book.turn(from: r.page, r.turn).write(to: r.output)
  }
}

/// Writes frames through the motion encoders, mapping their errors to `QuireError`.
func writeFrames(
  _ output: String, timeline: FlipTimeline, style: String, width: Int, height: Int,
  render: @escaping @Sendable (Double) -> PixelBuffer
) throws(QuireError) {
  guard FlipOutputKind(path: output) != nil else {
    throw .invalidRequest(.outputKind(path: output))
  }
  if let problem = LayoutSettings.canvasProblem(width: width, height: height) {
    throw .invalidRequest(.canvas(problem))
  }
  do {
    try FlipOutput.write(
      to: output, timeline: timeline, style: style, width: width, height: height, render: render)
  } catch let e as FrameSinkError {
    throw .cannotCreate(path: output, reason: e.description)
  } catch {
    throw .cannotCreate(path: output, reason: "cannot write the frames")
  }
}
