import Foundation
import Quire

/// `--frames/--duration/--fps/--timing`, shared by flip, open and shelf.
let timingValued: Set<String> = ["--frames", "--duration", "--fps", "--timing"]

func animationTiming(_ a: Arguments) throws(UsageError) -> AnimationTiming {
  var t = AnimationTiming()
  t.frames = try a.int("--frames", in: 2...QuireLimits.maxFrames)
  t.duration = try a.double("--duration", in: QuireLimits.durations)
  if t.frames != nil && t.duration != nil {
    throw UsageError("give --frames or --duration, not both")
  }
  if let f = try a.double("--fps", in: QuireLimits.framesPerSecond) { t.fps = f }
  if let d = t.duration, (d * t.fps).rounded() > Double(QuireLimits.maxFrames) {
    throw UsageError(
      "--duration \(quoted(a.value("--duration") ?? "")) --fps \(quoted(a.value("--fps") ?? "30")) is "
        + "\(Int((d * t.fps).rounded())) frames; at most \(QuireLimits.maxFrames)")
  }
  if let name = a.value("--timing") {
    guard let tf = TimingFunction(parsing: name) else {
      throw UsageError(
        "--timing must be linear, easeIn, easeOut, easeInEaseOut, default or cubic-bezier(a,b,c,d), got '\(quoted(name))'"
      )
    }
    t.timing = tf
  }
  return t
}

/// `--canvas WxH`: sides in `QuireLimits.canvasSides`, at most `QuireLimits.maxCanvasPixels`.
func canvas(_ a: Arguments) throws(UsageError) -> (Int, Int)? {
  guard let (w, h) = try a.size("--canvas", in: QuireLimits.canvasSides) else { return nil }
  guard w * h <= QuireLimits.maxCanvasPixels else {
    throw UsageError(
      "--canvas \(w)x\(h) is \(w * h) pixels; at most \(QuireLimits.maxCanvasPixels) (e.g. 4096x4096)"
    )
  }
  return (w, h)
}

/// H.264/VP9 in yuv420p need even sides: an odd frame is padded with one white row or column,
/// and the user is told so (warning on stderr, before the frames are made).
func warnIfVideoIsPadded(_ output: URL, width: Int, height: Int) {
  let ext = output.pathExtension.lowercased()
  guard ext == "mp4" || ext == "webm", width % 2 == 1 || height % 2 == 1 else { return }
  let even = "\(width + width % 2)x\(height + height % 2)"
  Terminal.warning(
    "\(output.path): \(width)x\(height) frames are padded to \(even) with white (the video "
      + "format needs even sides)")
}

func output(_ a: Arguments, _ command: String) throws(UsageError) -> URL {
  guard let o = a.value("-o") ?? a.value("--output") else {
    throw UsageError("\(command): -o OUT is required")
  }
  guard !o.isEmpty else { throw UsageError("\(command): -o: an empty path") }
  return fileURL(o)
}

/// `quire flip BOOK --page N -o OUT …`.
enum FlipCommand {
  static func run(_ words: [String]) throws -> Int32 {
    let a = try Arguments(
      words,
      valued: layoutValued.union(timingValued).union([
        "-o", "--output", "--page", "--style", "--direction", "--corner", "--back", "--from",
        "--to", "--at", "--timeline",
      ]),
      switches: layoutSwitches.union(["--rtl", "--ltr", "--spread", "--cancel"]))
    let book = try singleBook(a, command: "flip")
    if let timeline = a.value("--timeline") { return try chain(a, book: book, timeline: timeline) }
    guard let page = try a.int("--page", in: 1...1_000_000) else {
      throw UsageError("flip: --page N is required")
    }
    var r = FlipRequest(book: fileURL(book), output: try output(a, "flip"), page: page)
    r.layout = try layoutSettings(a)
    if let s = try a.choice("--style", PageTurnStyle.self) { r.turn.style = s }
    if let d = try a.choice("--direction", ["next", "prev"]).flatMap(TurnDirection.init) {
      r.turn.direction = d
    }
    if let c = try a.choice("--corner", ["top", "bottom", "middle"]).flatMap(TurnCorner.init) {
      r.turn.corner = c
    }
    if let b = try a.choice("--back", ["mirrored", "blank", "next"]).flatMap(LeafBack.init) {
      r.turn.back = b
    }
    if a.flag("--rtl") && a.flag("--ltr") { throw UsageError("give --rtl or --ltr, not both") }
    r.turn.rightToLeft = a.flag("--rtl") ? true : a.flag("--ltr") ? false : nil
    r.turn.spread = a.flag("--spread")
    r.turn.timing = try partialTurn(a, timing: animationTiming(a))
    warnIfVideoIsPadded(
      r.output, width: r.layout.pageWidth * (r.turn.spread ? 2 : 1), height: r.layout.pageHeight)
    try withFlagNames(book: book) { () throws(QuireError) in try FlipJob.run(r) }
    return 0
  }
}

extension FlipCommand {
  /// `quire flip BOOK --timeline FILE -o OUT [--page N] [--fps F] [--rtl|--ltr] [layout]`.
  static func chain(_ a: Arguments, book: String, timeline: String) throws -> Int32 {
    let perTurn = [
      "--style", "--direction", "--corner", "--back", "--from", "--to", "--at", "--frames",
      "--duration", "--timing",
    ]
    if let clash = perTurn.first(where: { a.value($0) != nil })
      ?? ["--spread", "--cancel"].first(
        where: { a.flag($0) })
    {
      throw UsageError("flip --timeline: \(clash) belongs in the timeline's segments")
    }
    if a.flag("--rtl") && a.flag("--ltr") { throw UsageError("give --rtl or --ltr, not both") }
    guard !timeline.isEmpty else { throw UsageError("--timeline: an empty path") }
    let out = try output(a, "flip")
    var r = ChainRequest(book: fileURL(book), output: out, segments: [])
    r.page = try a.int("--page", in: 1...1_000_000) ?? 1
    r.layout = try layoutSettings(a)
    r.rightToLeft = a.flag("--rtl") ? true : a.flag("--ltr") ? false : nil
    if let f = try a.double("--fps", in: QuireLimits.framesPerSecond) { r.fps = f }
    warnIfVideoIsPadded(out, width: r.layout.pageWidth, height: r.layout.pageHeight)
    try withFlagNames(book: book) { () throws(QuireError) in
      let file = try ChainTimelineFile(contentsOf: fileURL(timeline))
      r.segments = file.segments
      r.shelf = file.shelf
      r.source = timeline
      try ChainJob.run(r)
    }
    return 0
  }
}

/// `--from P --to Q | --at P` and `--cancel`: part of a turn, a still, a turn that falls back
/// (progress 0…1; `--cancel` alone goes half-way and back).
func partialTurn(_ a: Arguments, timing: AnimationTiming) throws(UsageError) -> AnimationTiming {
  var t = timing
  let from = try a.double("--from", in: 0...1)
  let to = try a.double("--to", in: 0...1)
  if let at = try a.double("--at", in: 0...1) {
    guard from == nil, to == nil, !a.flag("--cancel") else {
      throw UsageError("--at P is a still: give it without --from, --to or --cancel")
    }
    guard t.duration == nil, t.frames == nil else {
      throw UsageError("--at P is a still (one frame): give it without --frames or --duration")
    }
    var still = AnimationTiming.still(at: at)
    still.fps = t.fps
    still.timing = t.timing
    return still
  }
  t.fallsBack = a.flag("--cancel")
  t.from = from ?? 0
  t.to = to ?? (t.fallsBack ? 0.5 : 1)
  return t
}

/// `quire open BOOK -o OUT …`.
enum OpenCommand {
  static func run(_ words: [String]) throws -> Int32 {
    let a = try Arguments(
      words,
      valued: timingValued.union([
        "-o", "--output", "--canvas", "--from", "--encoding", "--publisher-styles",
      ]),
      switches: ["--close", "--strict"])
    let book = try singleBook(a, command: "open")
    var r = OpenRequest(book: fileURL(book), output: try output(a, "open"))
    r.reading = try readingOptions(a)
    if let (w, h) = try canvas(a) {
      r.canvasWidth = w
      r.canvasHeight = h
    }
    if let f = try a.numbers("--from", count: 4, in: -100_000...100_000) {
      guard f[2] >= 1, f[3] >= 1 else { throw UsageError("--from: width and height must be ≥ 1") }
      r.from = CanvasRect(x: f[0], y: f[1], width: f[2], height: f[3])
    }
    r.closing = a.flag("--close")
    r.timing = try animationTiming(a)
    warnIfVideoIsPadded(r.output, width: r.canvasWidth, height: r.canvasHeight)
    try withFlagNames(book: book) { () throws(QuireError) in try OpenJob.run(r) }
    return 0
  }
}

/// `quire shelf BOOK… -o OUT …`.
enum ShelfCommand {
  static func run(_ words: [String]) throws -> Int32 {
    let a = try Arguments(
      words,
      valued: timingValued.union([
        "-o", "--output", "--layout", "--front", "--progress", "--canvas", "--encoding", "--to",
      ]),
      switches: ["--strict", "--toggle"])
    guard !a.positionals.isEmpty else { throw UsageError("shelf: no BOOK given") }
    var r = ShelfRequest(books: a.positionals.map(fileURL), output: try output(a, "shelf"))
    r.reading = try readingOptions(a)
    if let (w, h) = try canvas(a) {
      r.canvasWidth = w
      r.canvasHeight = h
    }
    if let l = a.value("--layout") {
      r.arrangement = l == "grid" ? .grid : l == "scatter" ? .scatter : .file(fileURL(l))
    }
    r.front = try a.int("--front", in: 1...10_000)
    if let p = a.value("--progress") {
      r.progress = try p.split(separator: ",", omittingEmptySubsequences: false).map {
        (s: Substring) throws(UsageError) -> Double? in
        let t = s.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "%", with: "")
        if t.isEmpty || t == "-" { return nil }
        guard let v = Double(t), (0...100).contains(v) else {
          throw UsageError("--progress: '\(s)' is not a percentage")
        }
        return v / 100
      }
    }
    r.timing = try animationTiming(a)
    warnIfVideoIsPadded(r.output, width: r.canvasWidth, height: r.canvasHeight)
    r.to = try a.choice("--to", ShelfSide.self)
    r.toggle = a.flag("--toggle")
    let start: ShelfSide = r.arrangement == .grid ? .grid : .scatter
    if r.to == start && r.front == nil {
      throw UsageError(
        "shelf: the books start and end in the \(start.rawValue); nothing moves (use --front K)")
    }
    try withFlagNames(book: nil) { () throws(QuireError) in try ShelfJob.run(r) }
    return 0
  }
}
