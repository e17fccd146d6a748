// Chains: several animations of one book played as one — open the book, turn a page, turn
// another, close it (`quire flip BOOK --timeline FILE -o OUT`).
//
// Boundary frames. Every animation starts and ends on an exact picture (a turn's frame 0 is
// the page it starts on, its last frame the page it ends on; an opening ends on the page
// under the cover at rest; a closing starts there). A chain uses that: consecutive segments
// share their boundary frame — it is written once, as the last frame of the segment it ends
// and the first of the next — so the chain has Σ frames − (segments − 1) frames and never
// shows a frame twice at a joint, and the picture at each joint is the same from both sides
// (the tests render both and compare the bytes).
//
// Canvas. A chain without an opening or a closing is page-sized (the layout's --size), as
// `quire flip` is, or two pages wide when its turns are spread turns ("spread": true): every
// turn of such a chain turns a spread and a hold shows the spread at rest, gutter shadow
// included — the picture a spread turn starts and ends on — so its joints match as a single
// page chain's do. Spread turns do not mix with single-page turns or with an opening or a
// closing (the opened book shows one page). With one, the canvas is the layout's size and the book is laid out as
// `quire open` lays it out (the largest page of the cover's aspect inside the canvas); a turn
// between them is drawn at the open book's resting rectangle on the shelf it rests on, which
// is what the opening's last frame shows. One shelf rectangle serves every opening and
// closing of the chain, so the picture between them cannot change.
//
// Frames are drawn on demand in the recorder's batches (pages of the segments in flight
// only, a few segments kept: memory does not grow with the chain), in parallel, with the
// same bytes whatever the order. frames.json lists the segments (kind, style, first and
// last frame, pages) and each frame's segment with that segment's own t and progress.
//
// Timeline file (JSON, at most 1 MB and 1,000 segments):
//   {"segments": [{"kind": "open", "frames": 24},
//                 {"kind": "turn", "style": "curl", "duration": 0.8, "timing": "easeOut"},
//                 {"kind": "hold", "frames": 10},
//                 {"kind": "turn", "direction": "prev", "corner": "top"},
//                 {"kind": "turn", "spread": true},
//                 {"kind": "close"}],
//    "shelf": [x, y, width, height]}
// kind: open | turn | hold | close; frames (≥ 2) or duration (s), timing; for turns style,
// direction, corner, back, spread. An unknown key or value is an error naming the segment.

import Foundation
import QuireMotion
import QuireRaster
import Synchronization

/// One animation of a chain.
public struct ChainSegment: Sendable, Hashable {
  /// What the segment does.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// The cover swings open (the book must be closed: the chain's first segment, or after a
    /// close); it ends on the page under the cover.
    case open
    /// One page turn from the page showing (the book must be open).
    case turn
    /// The picture showing, held still.
    case hold
    /// The book closes over the page showing.
    case close
  }

  /// What the segment does.
  public var kind: Kind
  /// A turn's style, direction, corner, back and spread (its timing is `timing`).
  public var turn = PageTurn()
  /// Frames (both ends; at least 2) and easing.
  public var timing = AnimationTiming(frames: 30)

  /// A segment of `kind` with the defaults.
  public init(_ kind: Kind) { self.kind = kind }
}

/// What `quire flip --timeline` asks for.
public struct ChainRequest: Sendable {
  /// The book.
  public var book: URL
  /// Where the frames go (a folder, .png/.apng, .webp, .mp4/.webm).
  public var output: URL
  /// The segments, in order (1…`ChainRequest.maxSegments`).
  public var segments: [ChainSegment]
  /// The page (from 1) showing when the chain does not start with an opening.
  public var page = 1
  /// How the book is laid out; its page size is the canvas.
  public var layout = LayoutSettings()
  /// Right-to-left geometry; nil: from the book.
  public var rightToLeft: Bool? = nil
  /// Frames per second of the whole chain.
  public var fps = 30.0
  /// Where an opening starts and a closing ends; nil: `quire open`'s default shelf cell.
  public var shelf: CanvasRect? = nil
  /// The timeline file the segments came from: a segment that cannot play (a turn past the
  /// last page, a close of a closed book) is then bad data in that file, else a bad request.
  public var source: String? = nil

  func problem(_ why: String) -> QuireError {
    source.map { .badData(file: $0, reason: why) } ?? .invalidRequest(.timing(why))
  }

  /// The most segments a chain may have.
  public static let maxSegments = 1000

  /// A chain of `segments` of `book` into `output`.
  public init(book: URL, output: URL, segments: [ChainSegment]) {
    self.book = book
    self.output = output
    self.segments = segments
  }
}

/// `quire flip --timeline`: a chain of animations written as one.
public enum ChainJob {
  /// Lays the book out, plays the chain and writes it to `output`.
  public static func run(_ r: ChainRequest) throws(QuireError) {
    guard FlipOutputKind(path: r.output.path) != nil else {
      throw .invalidRequest(.outputKind(path: r.output.path))
    }
    let chain = try AnimationChain(r)
    if let problem = LayoutSettings.canvasProblem(width: chain.width, height: chain.height) {
      throw .invalidRequest(.canvas(problem))
    }
    do {
      try FlipOutput.write(
        to: r.output.path, schedule: chain.schedule, style: "chain", width: chain.width,
        height: chain.height, segments: chain.records
      ) { chain.frame(at: $0) }
    } catch let e as FrameSinkError {
      throw .cannotCreate(path: r.output.path, reason: e.description)
    } catch {
      throw .cannotCreate(path: r.output.path, reason: "cannot write the frames")
    }
    if let failure = chain.failure { throw failure }
  }
}

/// A chain planned (pages and frames of every segment checked) and ready to draw.
public struct AnimationChain: Sendable {
  /// One segment placed on the chain's timeline.
  struct Step: Sendable {
    var segment: ChainSegment
    var timeline: FlipTimeline
    /// The chain's frame index of the segment's frame 0.
    var start: Int
    /// Page indices (from 0) showing at the segment's start and end.
    var fromPage: Int
    var toPage: Int
    /// Whether the book is open at the segment's start (a hold keeps the state).
    var openAtStart: Bool
  }

  let steps: [Step]
  let book: PagedBook
  let stage: ChainStage?
  let rightToLeft: Bool
  /// The turns are spread turns: frames are two pages wide.
  let spreads: Bool
  private let players = PlayerCache()
  /// Canvas width in pixels.
  public let width: Int
  /// Canvas height in pixels.
  public let height: Int
  /// Frames per second.
  public let fps: Double

  /// The number of frames: Σ segment frames − (segments − 1).
  public var frameCount: Int { steps.last.map { $0.start + $0.timeline.frameCount } ?? 0 }

  /// Plans `r`: lays the book out as far as the turns go and checks every segment.
  public init(_ r: ChainRequest) throws(QuireError) {
    guard (1...ChainRequest.maxSegments).contains(r.segments.count) else {
      throw r.problem("a chain has 1…\(ChainRequest.maxSegments) segments, got \(r.segments.count)")
    }
    let timelines = try Self.timelines(r)
    let theatre = r.segments.contains { $0.kind == .open || $0.kind == .close }
    let turns = r.segments.filter { $0.kind == .turn }.count
    let reach = (theatre ? max(3, r.page) : r.page) + 2 * turns + 2
    var staged: (book: PagedBook, stage: ChainStage, underCover: Int)? = nil
    if theatre { staged = try ChainStage.make(r, through: reach) }
    if let staged {
      book = staged.book
    } else {
      book = try PagedBook(
        r.book.path, layout: r.layout, threads: ProcessInfo.processInfo.activeProcessorCount,
        through: reach)
    }
    stage = staged?.stage
    rightToLeft = r.rightToLeft ?? book.rightToLeft
    spreads = try Self.spreadMode(r, theatre: theatre)
    width = theatre ? r.layout.pageWidth : book.settings.pageWidth * (spreads ? 2 : 1)
    height = theatre ? r.layout.pageHeight : book.settings.pageHeight
    fps = r.fps
    let firstPage = r.segments.first?.kind == .open ? staged?.underCover ?? 0 : r.page - 1
    steps = try Self.steps(r, timelines, firstPage: firstPage, book: book)
  }

  /// Whether the chain turns spreads: all its turns do, or none; never with an opening or a
  /// closing.
  private static func spreadMode(_ r: ChainRequest, theatre: Bool) throws(QuireError) -> Bool {
    let turns = r.segments.enumerated().filter { $0.element.kind == .turn }
    guard let first = turns.first else { return false }
    let spread = first.element.turn.spread
    if let odd = turns.first(where: { $0.element.turn.spread != spread }) {
      throw r.problem(
        "segment \(odd.offset + 1): spread and single-page turns do not mix in one chain")
    }
    if spread, theatre {
      throw r.problem(
        "spread turns do not mix with an opening or a closing (the open book shows one page)")
    }
    return spread
  }

  /// Each segment's timeline at the chain's rate; the total is bounded by the frame cap.
  private static func timelines(_ r: ChainRequest) throws(QuireError) -> [FlipTimeline] {
    var out: [FlipTimeline] = []
    var total = 1
    for (k, s) in r.segments.enumerated() {
      var timing = s.timing
      timing.fps = r.fps
      let t: FlipTimeline
      do { t = try timing.timeline() } catch { throw r.problem("segment \(k + 1): \(error)") }
      guard t.frameCount >= 2 else { throw r.problem("segment \(k + 1): at least 2 frames") }
      total += t.frameCount - 1
      guard total <= QuireLimits.maxFrames else {
        throw r.problem("the chain has more than \(QuireLimits.maxFrames) frames")
      }
      out.append(t)
    }
    return out
  }

  /// Walks the segments: pages shown, open or closed, where each starts on the timeline.
  private static func steps(
    _ r: ChainRequest, _ timelines: [FlipTimeline], firstPage: Int, book: PagedBook
  ) throws(QuireError) -> [Step] {
    let segments = r.segments
    var open = segments.first?.kind != .open
    var page = firstPage
    var start = 0
    var out: [Step] = []
    guard (0..<book.pageCount).contains(page) else {
      throw .invalidRequest(.noSuchPage(page + 1, pageCount: book.pageCount))
    }
    for (k, s) in segments.enumerated() {
      let from = page
      let wasOpen = open
      switch s.kind {
      case .open:
        guard !open else { throw r.problem("segment \(k + 1): an opening, but the book is open") }
        open = true
      case .close:
        guard open else { throw r.problem("segment \(k + 1): a closing, but the book is closed") }
        open = false
      case .turn:
        guard open else { throw r.problem("segment \(k + 1): a turn, but the book is closed") }
        page = book.chainTarget(from: page, s.turn)
        guard (0..<book.pageCount).contains(page) else {
          let way = s.turn.direction == .next ? "after" : "before"
          throw r.problem("segment \(k + 1): no page \(way) page \(from + 1) to turn to")
        }
      case .hold: break
      }
      out.append(
        Step(
          segment: s, timeline: timelines[k], start: start, fromPage: from, toPage: page,
          openAtStart: wasOpen))
      start += timelines[k].frameCount - 1
    }
    return out
  }

  /// Where frame `index` of the chain sits: its segment (the earlier one at a joint) and that
  /// segment's t and progress.
  public func position(_ index: Int) -> (segment: Int, frame: Int) {
    let g = min(max(0, index), frameCount - 1)
    var lo = 0
    var hi = steps.count - 1
    // The first segment whose last frame is at or after g.
    while lo < hi {
      let mid = (lo + hi) / 2
      if steps[mid].start + steps[mid].timeline.frameCount - 1 >= g {
        hi = mid
      } else {
        lo = mid + 1
      }
    }
    return (lo, g - steps[lo].start)
  }

  var schedule: FrameSchedule {
    let chain = self
    return FrameSchedule(frameCount: frameCount, fps: fps) { g in
      let (k, i) = chain.position(g)
      let info = chain.steps[k].timeline.info(i)
      return FrameInfo(index: g, t: info.t, progress: info.progress, segment: k)
    }
  }

  var records: [SegmentRecord] {
    steps.enumerated().map { k, s in
      SegmentRecord(
        index: k + 1, kind: s.segment.kind.rawValue,
        style: s.segment.kind == .turn ? s.segment.turn.style.rawValue : nil,
        firstFrame: s.start + 1, lastFrame: s.start + s.timeline.frameCount,
        fromPage: s.fromPage + 1, toPage: s.toPage + 1)
    }
  }

  /// Frame `index` of the chain (0 ..< frameCount), RGBA, canvas-sized.
  public func frame(_ index: Int) -> PixelBuffer {
    let (k, i) = position(index)
    return frame(segment: k, frame: i)
  }

  func frame(at info: FrameInfo) -> PixelBuffer { frame(info.index) }

  /// Frame `i` of segment `k` (both from 0): a joint can be drawn from either side.
  public func frame(segment k: Int, frame i: Int) -> PixelBuffer {
    let step = steps[k]
    let progress = step.timeline.info(min(max(0, i), step.timeline.frameCount - 1)).progress
    return player(k).frame(progress)
  }

  /// The segment's player, made on first use; a few are kept (the recorder's batches move
  /// forward), so pages are rendered about once per segment.
  private func player(_ k: Int) -> SegmentPlayer {
    if let p = players.entries.withLock({ $0[k] }) { return p }
    let p: SegmentPlayer
    do { p = try makePlayer(steps[k]) } catch {
      players.failure.withLock { $0 = $0 ?? error }
      p = SegmentPlayer.blank(width: width, height: height)
    }
    players.entries.withLock { cache in
      cache[k] = p
      while cache.count > 8, let oldest = cache.keys.min() { cache[oldest] = nil }
    }
    return p
  }

  /// The first error a segment's pages met while frames were drawn (they are then blank).
  var failure: QuireError? { players.failure.withLock { $0 } }
}

/// The players in use and the first failure; shared by the recorder's threads.
final class PlayerCache: Sendable {
  let entries = Mutex<[Int: SegmentPlayer]>([:])
  let failure = Mutex<QuireError?>(nil)
}

/// Draws one segment at eased progress p (canvas-sized frames).
struct SegmentPlayer: Sendable {
  let frame: @Sendable (Double) -> PixelBuffer

  static func blank(width: Int, height: Int) -> SegmentPlayer {
    let b = PixelBuffer(width: width, height: height, format: .rgba8)
    return SegmentPlayer { _ in b }
  }
}

/// The shelf an opening starts from and a closing ends on, and the book laid out as
/// `quire open` lays it out.
struct ChainStage: Sendable {
  var cover: PixelBuffer
  var shelfRect: CanvasRect
  var canvasWidth: Int
  var canvasHeight: Int
  /// The shelf at the canvas size (what stands behind the open book).
  var backdrop: PixelBuffer

  static func make(_ r: ChainRequest, through: Int) throws(QuireError)
    -> (book: PagedBook, stage: ChainStage, underCover: Int)
  {
    let (book, cover) = try OpenJob.layOut(
      r.book, canvas: (r.layout.pageWidth, r.layout.pageHeight), layout: r.layout,
      through: through)
    let w = Double(r.layout.pageWidth)
    let h = Double(r.layout.pageHeight)
    let shelf = r.shelf ?? OpenJob.defaultShelf(width: w, height: h)
    var stage = ChainStage(
      cover: cover, shelfRect: shelf, canvasWidth: r.layout.pageWidth,
      canvasHeight: r.layout.pageHeight, backdrop: PixelBuffer(width: 1, height: 1, format: .rgba8))
    let probe = stage.animation(
      page: PixelBuffer(
        width: book.settings.pageWidth, height: book.settings.pageHeight, format: .rgba8),
      rightToLeft: book.rightToLeft)
    stage.backdrop = probe.shelf ?? probe.frame(at: 0)
    return (book, stage, try OpenJob.pageUnderCoverIndex(book))
  }

  /// The opening that ends on `page`, on this stage's shelf.
  func animation(page: PixelBuffer, rightToLeft: Bool) -> BookOpenAnimation {
    var anim = BookOpenAnimation(
      cover: cover, firstPage: page, canvas: (canvasWidth, canvasHeight),
      from: (shelfRect.x, shelfRect.y, shelfRect.width, shelfRect.height),
      rightToLeft: rightToLeft)
    anim.shelf = ShelfBackdrop.image(width: canvasWidth, height: canvasHeight, book: anim.shelfRect)
    return anim
  }
}

extension AnimationChain {
  /// The player of one step: its pages rendered now.
  fileprivate func makePlayer(_ step: Step) throws(QuireError) -> SegmentPlayer {
    let s = step.segment
    switch s.kind {
    case .open, .close:
      guard let stage else { throw .internalError("a chain opening without a stage") }
      let page = try book.pages.render(step.fromPage, format: .rgba8)
      let anim = stage.animation(page: page, rightToLeft: rightToLeft)
      let closing = s.kind == .close
      return SegmentPlayer { anim.frame(at: $0, closing: closing) }
    case .hold:
      let still: PixelBuffer
      if spreads {
        var turn = PageTurn()
        turn.rightToLeft = rightToLeft
        still = try book.stillSpread(at: step.fromPage + 1, turn)
      } else if step.openAtStart {
        still = try placed(book.pages.render(step.fromPage, format: .rgba8))
      } else {
        guard let stage else { throw .internalError("a closed book without a stage") }
        let page = try book.pages.render(step.fromPage, format: .rgba8)
        still = stage.animation(page: page, rightToLeft: rightToLeft).frame(at: 0)
      }
      return SegmentPlayer { _ in still }
    case .turn:
      var turn = s.turn
      turn.rightToLeft = rightToLeft
      turn.timing = AnimationTiming(frames: 2)
      let animation = try book.turn(from: step.fromPage + 1, turn)
      let chain = self
      return SegmentPlayer {
        chain.placed(animation.renderer.frame(at: $0, input: animation.input))
      }
    }
  }

  /// A page-sized frame on the canvas: as it is when the page is the canvas, else at the open
  /// book's resting place on the shelf (what an opening's last frame shows).
  func placed(_ frame: PixelBuffer) -> PixelBuffer {
    guard let stage, frame.width != width || frame.height != height else { return frame }
    var out = stage.backdrop
    let x0 = max(0, (width - frame.width) / 2)
    let y0 = max(0, (height - frame.height) / 2)
    let rowBytes = min(frame.width, width - x0) * 4
    for y in 0..<min(frame.height, height - y0) {
      let d = ((y0 + y) * width + x0) * 4
      let s = y * frame.width * 4
      out.pixels.replaceSubrange(d..<(d + rowBytes), with: frame.pixels[s..<(s + rowBytes)])
    }
    return out
  }
}

/// A timeline file read into a chain's segments (the format is in this file's header).
public struct ChainTimelineFile: Sendable {
  /// The segments, in order.
  public var segments: [ChainSegment]
  /// The shelf rectangle, when the file gives one.
  public var shelf: CanvasRect?

  /// The most bytes a timeline file may have.
  public static let maxBytes = 1 << 20

  /// Reads `url`: a missing file is `cannotOpen`, anything else wrong `badData` naming the
  /// segment and the key.
  public init(contentsOf url: URL) throws(QuireError) {
    let data: Data
    do {
      let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
      guard size <= Self.maxBytes else {
        throw QuireError.badData(
          file: url.path, reason: "a timeline has at most \(Self.maxBytes) bytes, this has \(size)")
      }
      data = try Data(contentsOf: url)
    } catch let e as QuireError {
      throw e
    } catch {
      throw .cannotOpen(file: url.path, reason: "cannot read the timeline")
    }
    try self.init(data: data, file: url.path)
  }

  /// Parses a timeline; `file` names it in errors.
  public init(data: Data, file: String) throws(QuireError) {
    func bad(_ why: String) -> QuireError { .badData(file: file, reason: why) }
    guard data.count <= Self.maxBytes,
      let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else { throw bad("not a JSON object (a timeline is {\"segments\": […]})") }
    for key in root.keys where !["segments", "shelf"].contains(key) {
      throw bad("unknown key '\(QuotedInput.elided(key, limit: 40))' (segments, shelf)")
    }
    guard let list = root["segments"] as? [Any], !list.isEmpty else {
      throw bad("\"segments\" must be a non-empty list")
    }
    guard list.count <= ChainRequest.maxSegments else {
      throw bad("\(list.count) segments; at most \(ChainRequest.maxSegments)")
    }
    if let s = root["shelf"] {
      let n = (s as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue } ?? []
      guard n.count == 4, n.allSatisfy({ $0.isFinite && abs($0) <= 100_000 }), n[2] >= 1, n[3] >= 1
      else { throw bad("\"shelf\" must be [x, y, width, height] (width, height ≥ 1)") }
      shelf = CanvasRect(x: n[0], y: n[1], width: n[2], height: n[3])
    }
    var out: [ChainSegment] = []
    for (k, item) in list.enumerated() {
      guard let object = item as? [String: Any] else {
        throw bad("segment \(k + 1): not an object")
      }
      do { out.append(try Self.segment(object)) } catch {
        throw bad("segment \(k + 1): \(error.why)")
      }
    }
    segments = out
  }

  struct Problem: Error {
    var why: String
  }

  private static let keys: Set<String> = [
    "kind", "frames", "duration", "timing", "style", "direction", "corner", "back", "spread",
  ]

  private static func segment(_ o: [String: Any]) throws(Problem) -> ChainSegment {
    for key in o.keys where !keys.contains(key) {
      throw Problem(why: "unknown key '\(QuotedInput.elided(key, limit: 40))'")
    }
    guard let name = o["kind"] as? String, let kind = ChainSegment.Kind(rawValue: name) else {
      throw Problem(why: "\"kind\" must be open, turn, hold or close")
    }
    var s = ChainSegment(kind)
    if kind != .turn,
      let key = ["style", "direction", "corner", "back", "spread"].first(where: { o[$0] != nil })
    {
      throw Problem(why: "\"\(key)\" is for turns")
    }
    s.turn.style = try choice(o, "style", PageTurnStyle.self) ?? .curl
    s.turn.direction = try choice(o, "direction", TurnDirection.self) ?? .next
    s.turn.corner = try choice(o, "corner", TurnCorner.self) ?? .bottom
    s.turn.back = try choice(o, "back", LeafBack.self) ?? .mirrored
    if let v = o["spread"] {
      guard let flag = v as? Bool else {
        throw Problem(why: "\"spread\" must be true or false")
      }
      s.turn.spread = flag
    }
    s.timing = try timing(o)
    return s
  }

  private static func choice<T: RawRepresentable<String>>(
    _ o: [String: Any], _ key: String, _: T.Type
  ) throws(Problem) -> T? {
    guard let v = o[key] else { return nil }
    guard let s = v as? String, let t = T(rawValue: s) else {
      throw Problem(why: "bad \"\(key)\" \(QuotedInput.elided(String(describing: v), limit: 40))")
    }
    return t
  }

  private static func timing(_ o: [String: Any]) throws(Problem) -> AnimationTiming {
    var t = AnimationTiming(frames: 30)
    if o["frames"] != nil && o["duration"] != nil {
      throw Problem(why: "give \"frames\" or \"duration\", not both")
    }
    if let v = o["frames"] {
      guard let n = (v as? NSNumber)?.doubleValue, n == n.rounded(),
        (2...Double(QuireLimits.maxFrames)).contains(n)
      else { throw Problem(why: "\"frames\" must be a whole number 2…\(QuireLimits.maxFrames)") }
      t.frames = Int(n)
    }
    if let v = o["duration"] {
      let d = QuireLimits.durations
      guard let x = (v as? NSNumber)?.doubleValue, x.isFinite, d.contains(x) else {
        throw Problem(why: "\"duration\" must be \(d.lowerBound)…\(d.upperBound) seconds")
      }
      t.frames = nil
      t.duration = x
    }
    if let v = o["timing"] {
      guard let name = v as? String, let f = TimingFunction(parsing: name) else {
        throw Problem(
          why: "bad \"timing\" (linear, easeIn, easeOut, easeInEaseOut, cubic-bezier(…))")
      }
      t.timing = f
    }
    return t
  }
}
