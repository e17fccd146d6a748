// Flipbook: a book as a static folder that plays in any browser, offline, from file://.
//
// The folder (see FlipbookManifest for flipbook.json, FlipbookAssets for the player):
//
//   index.html  flipbook.css  flipbook.js   the player: no framework, no network, no server
//   book.js                                 the manifest as a script (file:// pages may not
//                                           fetch JSON), read by flipbook.js
//   page-0001.png …                         the pages, exactly what `quire render` draws
//   turn-0001.png …                         per page N, the turn N → N+1 as a sprite sheet
//                                           (PNG, or lossless WebP `.webp`: `SheetFormat`)
//   spread-0001.png …                       per spread, the spread at rest: both pages with
//                                           the gutter shadow (`SpineShading`), named and
//                                           drawn as `quire render --spreads` does
//   spread-0001-turn.png …                  per spread, the spread turn to the next spread
//                                           (`spread-0001.webp` as WebP)
//   flipbook.json                           the manifest, written last
//
// Units: pixels of the page (`--size`); pages numbered from 1. The turns are pre-rendered by
// the same code as `quire flip` (`PagedBook.turn`), at equal steps of progress (linear
// timing); the declared timing curve goes into the manifest as samples, and the player maps
// elapsed time through it, frame by frame with requestAnimationFrame at the turn's fps. So a
// turn back (prev) plays the sheet of the turn before backwards on the same curve, instead of
// a second sheet per page, and still eases exactly as declared (a reversed eased strip would
// turn ease-in into ease-out).
//
// Alternatives rejected: an animated WebP/APNG per turn (a browser plays those on its own
// clock, cannot play them backwards or pause them on a frame, and restarts them unreliably);
// one image per frame (thousands of files and requests); rendering the turns in the browser
// (the point is Quire's own effects, identical to `quire flip`).
//
// Spreads: the book's own pairing (`PagedBook.spreads(showing:)`: the first page alone on the
// recto side, `page-spread-*`, right to left), restricted to `--pages` — the same spreads,
// sides and numbers as `render --spreads` and `flip --spread`; the manifest lists them and the
// player follows that list instead of pairing pages itself. A landscape viewport shows two
// pages side by side — the spread's still image, whose
// gutter shadow the spread turns carry from their first frame to their last (a turn starts and
// ends on exactly those pixels) — and plays the spread turns,
// a portrait one shows one page and plays the single-page turns; an RTL book
// (page-progression-direction rtl) puts the earlier page of a spread on the right, turns
// the other way, and its arrow keys follow.

import Foundation
import QuireCore
import QuireMotion
import QuireRaster
import QuireTypeset

/// What `quire flipbook` asks for.
public struct FlipbookRequest: Sendable {
  /// The book.
  public var book: URL
  /// The folder the flipbook is written into (created if needed).
  public var output: URL
  /// The first page shown (from 1).
  public var firstPage = 1
  /// The last page shown, cut to the book's last page; nil: the book's last page.
  public var lastPage: Int? = nil
  /// The turn's style, corner, leaf back and timing (its direction, spread and
  /// right-to-left are the flipbook's to choose). Default: a curl of
  /// `FlipbookLimits.defaultFrames` frames at 30 fps, ease in and out.
  public var turn: PageTurn = {
    var t = PageTurn()
    t.timing = AnimationTiming(frames: FlipbookLimits.defaultFrames)
    return t
  }()
  /// How the book is laid out.
  public var layout = LayoutSettings()
  /// Gray or colour page images.
  public var color = PageColor.rgb
  /// Also make the spread turns (two pages side by side on wide screens).
  public var spreads = true
  /// How the turns' sprite sheets are encoded.
  public var sheetFormat = SheetFormat.png
  /// Worker threads for the pagination.
  public var threads = ProcessInfo.processInfo.activeProcessorCount

  /// A flipbook of every page of `book` in `output` with the defaults.
  public init(book: URL, output: URL) {
    self.book = book
    self.output = output
  }
}

/// What a flipbook run wrote.
public struct FlipbookSummary: Sendable {
  /// The pages in the flipbook.
  public var pages: Int
  /// The single-page turns.
  public var turns: Int
  /// The spread turns.
  public var spreadTurns: Int
  /// Bytes of every file written, the manifest included.
  public var totalBytes: Int
  /// What was worked around (also in flipbook.json).
  public var diagnostics: DiagnosticLog
  /// Seconds spent drawing and encoding the single-page and the spread turns' sheets, summed
  /// over the sheets (each timed on the thread that made it), for `quire bench --flip`.
  var sheetSeconds: (single: Double, spread: Double) = (0, 0)
}

/// `quire flipbook`: a static HTML flipbook of a book.
public enum FlipbookJob {
  /// The manifest's file name.
  public static let manifestName = "flipbook.json"

  /// Writes the flipbook of `request.book` into `request.output`. `progress(done, total)`
  /// counts pages and turns written. The folder is locked while the job runs (as a render
  /// locks its folder); the old manifest is removed first, files of an earlier flipbook that
  /// this one does not hold are removed at the end, and the manifest is written last.
  public static func run(
    _ request: FlipbookRequest, progress: @escaping (Int, Int) -> Void = { _, _ in }
  ) throws(QuireError) -> FlipbookSummary {
    let frameCount = try request.turn.timing.timeline().frameCount
    let first = request.firstPage
    guard first >= 1 else { throw .invalidRequest(.pageNumberBelowOne(first)) }
    if let last = request.lastPage, last < first {
      throw .invalidRequest(.flipbook("the last page \(last) comes before the first \(first)"))
    }
    // One page past the cap when no end is given, so that a longer book is told, not cut.
    let through = request.lastPage ?? (first + FlipbookLimits.maxPages)
    try FlipbookPlan.checkCounts(pages: (request.lastPage ?? first) - first + 1, frames: frameCount)
    try request.layout.check()
    try FontFile.check(request.layout.font)
    let out = try OutputFolder(request.output.path)
    try out.lock()
    defer { out.unlock() }
    try out.remove(manifestName)
    let book = try PagedBook(
      request.book.path, layout: request.layout, threads: request.threads,
      through: through)
    let plan = try FlipbookPlan(
      first: first, last: request.lastPage, pageCount: book.pageCount, frameCount: frameCount,
      pageWidth: request.layout.pageWidth, pageHeight: request.layout.pageHeight,
      pairing: request.spreads ? { book.spreads(showing: $0) } : nil)
    var writer = FlipbookWriter(
      plan: plan, book: book, out: out, request: request, progress: progress)
    return try writer.write()
  }
}

/// Writes one flipbook's files in order: pages, turns, spread turns, the player, the manifest.
struct FlipbookWriter {
  let plan: FlipbookPlan
  let book: PagedBook
  let out: OutputFolder
  let request: FlipbookRequest
  let progress: (Int, Int) -> Void
  private var written: [String: Int] = [:]
  private var done = 0

  init(
    plan: FlipbookPlan, book: PagedBook, out: OutputFolder, request: FlipbookRequest,
    progress: @escaping (Int, Int) -> Void
  ) {
    self.plan = plan
    self.book = book
    self.out = out
    self.request = request
    self.progress = progress
  }

  private var total: Int {
    plan.pages.count + plan.singleTurns.count + plan.spreadTurns.count + plan.spreads.count
  }

  mutating func write() throws(QuireError) -> FlipbookSummary {
    let pages = try writePages()
    let single = plan.singleTurns.map(TurnItem.single)
    let spread = plan.spreadTurns.map { TurnItem.spread($0.from, $0.to) }
    let (entries, seconds) = try sheets(single + spread)
    let turns = Array(entries.prefix(single.count))
    let spreads = Array(entries.dropFirst(single.count))
    let stills = try writeStills()
    for (name, text) in FlipbookAssets.files(title: book.info.title, language: book.info.language) {
      try put(Array(text.utf8), as: name)
    }
    var manifest = makeManifest(pages: pages, turns: turns, spreadTurns: spreads)
    manifest.spreads = stills
    manifest.totalBytes = written.values.reduce(0, +)
    let script = manifest.script()
    try put(script, as: "book.js")
    let json = manifest.json()
    try removeStaleFiles()
    try out.write(json, as: FlipbookJob.manifestName, sync: true)
    try out.sync()
    var summary = FlipbookSummary(
      pages: pages.count, turns: turns.count, spreadTurns: spreads.count,
      totalBytes: manifest.totalBytes + script.count + json.count, diagnostics: book.diagnostics)
    summary.sheetSeconds = (
      seconds.prefix(single.count).reduce(0, +), seconds.dropFirst(single.count).reduce(0, +)
    )
    return summary
  }

  private mutating func put(_ bytes: some Collection<UInt8>, as name: String)
    throws(QuireError)
  {
    try out.write(bytes, as: name)
    written[name] = bytes.count
    if name.hasSuffix(".png") || name.hasSuffix(".webp") {
      done += 1
      progress(done, total)
    }
  }

  /// The turn as `request.turn` asks for it, forward, at equal steps of progress.
  private var linearTurn: PageTurn {
    var t = request.turn
    t.direction = .next
    t.rightToLeft = nil
    t.timing = AnimationTiming(
      frames: plan.frameCount, fps: request.turn.timing.fps, timing: .linear)
    return t
  }

  /// The cores the pages, stills and sheets are drawn and encoded on.
  private static var cores: Int { Swift.max(1, ProcessInfo.processInfo.activeProcessorCount) }

  /// Pages or stills handled at once: a few per core, so that the cores stay busy while the
  /// encoded files (not the drawn pixels) of one chunk wait to be written in order.
  private static var chunk: Int { 4 * cores }

  /// The pages, the PNGs `quire render` writes: laid out one at a time (the book keeps its
  /// two most recent chapters), then a chunk drawn and encoded on every core at once and
  /// written in order.
  private mutating func writePages() throws(QuireError) -> [FlipbookManifest.PageEntry] {
    let book = book
    let format = request.color.format
    var entries: [FlipbookManifest.PageEntry] = []
    for start in stride(from: plan.pages.lowerBound, through: plan.pages.upperBound, by: Self.chunk)
    {
      let numbers = start...Swift.min(plan.pages.upperBound, start + Self.chunk - 1)
      let lists = try numbers.map { (n) throws(QuireError) in try book.pages.page(n - 1) }
      let encoded = try Self.inParallel(
        lists.map { page in { .success(PNGCodec.encodePage(book.pages.draw(page, format: format))) }
        })
      for (n, bytes) in zip(numbers, encoded) {
        let name = plan.pageFile(n)
        try put(bytes, as: name)
        entries.append(.init(number: n, file: name))
      }
    }
    return entries
  }

  /// Every spread at rest, in display order, with the gutter shadow: what the player shows in
  /// spread view and what a spread turn starts and ends on. Laid out one at a time, drawn and
  /// encoded a chunk on every core at once, written in order.
  private mutating func writeStills() throws(QuireError) -> [FlipbookManifest.SpreadEntry] {
    var t = request.turn
    t.spread = true
    t.rightToLeft = nil
    let (book, turn, gray) = (book, t, request.color == .gray)
    var entries: [FlipbookManifest.SpreadEntry] = []
    for start in stride(from: 0, to: plan.spreads.count, by: Self.chunk) {
      let spreads = plan.spreads[start..<Swift.min(plan.spreads.count, start + Self.chunk)]
      let lists = try spreads.map { (s) throws(QuireError) in try book.stillPages(s) }
      let encoded = try Self.inParallel(
        lists.map { pages in
          {
            let still = book.still(turn, pages: pages)
            return .success(PNGCodec.encodePage(gray ? still.converted(to: .gray8) : still))
          }
        })
      for (s, bytes) in zip(spreads, encoded) {
        let name = plan.spreadStillFile(s)
        try put(bytes, as: name)
        entries.append(
          .init(
            number: s.number, from: s.readingOrder(rtl: book.rightToLeft)[0], left: s.left,
            right: s.right, file: name))
      }
    }
    return entries
  }

  /// A turn of the flipbook: from page `n` to the next, or from spread `a` to the next `b`.
  private enum TurnItem {
    case single(Int)
    case spread(Spread, Spread)
  }

  /// The turn `item` with its pages laid out, to be drawn with its sheet.
  private func pending(_ item: TurnItem) throws(QuireError) -> PendingSheet {
    switch item {
    case .single(let n): return try turn(from: n)
    case .spread(let a, let b): return try spreadTurn(from: a, to: b)
    }
  }

  /// The single-page turn from page `n`: its pages laid out, to be drawn with its sheet.
  private func turn(from n: Int) throws(QuireError) -> PendingSheet {
    var t = linearTurn
    t.spread = false
    let name = plan.turnFile(n, request.sheetFormat)
    let (book, turn) = (book, t)
    let pages = try book.singleTurnPages(from: n, turn)
    return PendingSheet(
      animation: { Result { () throws(QuireError) in try book.singleTurn(turn, pages: pages) } },
      grid: plan.single, format: request.sheetFormat, name: name,
      entry: .init(from: n, to: n + 1, file: name, bytes: 0))
  }

  /// The spread turn from spread `a` to the next spread `b`: its pages laid out, to be drawn
  /// with its sheet.
  private func spreadTurn(from a: Spread, to b: Spread) throws(QuireError) -> PendingSheet {
    guard let grid = plan.spread else {
      throw .internalError("a spread turn without a spread sheet")
    }
    let name = plan.spreadFile(a, request.sheetFormat)
    let rtl = book.rightToLeft
    let (book, turn) = (book, linearTurn)
    let pages = try book.spreadTurnPages(from: a, to: b)
    return PendingSheet(
      animation: { Result { () throws(QuireError) in try book.spreadTurn(turn, pages: pages) } },
      grid: grid, format: request.sheetFormat, name: name,
      entry: .init(
        from: a.readingOrder(rtl: rtl)[0], to: b.readingOrder(rtl: rtl)[0], file: name,
        bytes: 0))
  }

  /// Writes the sheets in order, single-page and spread turns as one work list: `pending`
  /// lays out each turn's pages (one at a time: the book keeps its two most recent chapters),
  /// then a chunk of turns have their pages drawn and their sheets drawn and encoded on every
  /// core at once — the heaviest (the spread turns, at the list's end) started first — and
  /// are written in order. One list instead of one per kind: the cores wait for the slowest
  /// sheet of a chunk once, not once per kind and round. At most `chunk` turns are alive.
  /// Also returns the seconds each sheet took to draw and encode.
  private mutating func sheets(_ items: [TurnItem])
    throws(QuireError) -> ([FlipbookManifest.TurnEntry], [Double])
  {
    var entries: [FlipbookManifest.TurnEntry] = []
    var seconds: [Double] = []
    var start = 0
    while start < items.count {
      let chunk = try items[start..<Swift.min(items.count, start + Self.chunk)].map {
        (item) throws(QuireError) in try pending(item)
      }
      let root = out.root
      let encoded = try Self.inParallel(
        chunk.map { sheet in { sheet.encode(in: root) } }, lastFirst: true)
      for (sheet, (bytes, time)) in zip(chunk, encoded) {
        try put(bytes, as: sheet.name)
        var entry = sheet.entry
        entry.bytes = bytes.count
        entries.append(entry)
        seconds.append(time)
      }
      start += chunk.count
    }
    return (entries, seconds)
  }

  /// Runs `jobs` on every core at once, each core taking the next job as it finishes one
  /// (from the last job backwards when `lastFirst`); their results in order (the first
  /// failure in order is thrown).
  private static func inParallel<T>(
    _ jobs: [@Sendable () -> Result<T, QuireError>], lastFirst: Bool = false
  ) throws(QuireError) -> [T] {
    let results = ParallelResults<T>(count: jobs.count)
    let n = jobs.count
    DispatchQueue.concurrentPerform(iterations: n) { k in
      let j = lastFirst ? n - 1 - k : k
      results.set(j, jobs[j]())
    }
    return try (0..<jobs.count).map { (k) throws(QuireError) in try results.take(k).get() }
  }

  private func makeManifest(
    pages: [FlipbookManifest.PageEntry], turns: [FlipbookManifest.TurnEntry],
    spreadTurns: [FlipbookManifest.TurnEntry]
  ) -> FlipbookManifest {
    let timing = request.turn.timing
    let info = FlipbookManifest.TurnInfo(
      style: request.turn.style.rawValue, frames: plan.frameCount, fps: timing.fps,
      timing: timing.timing.css, easing: timing.timing.samples, single: plan.single,
      spread: plan.spread, sheetFormat: request.sheetFormat.manifestName)
    return FlipbookManifest(
      book: book.info, width: request.layout.pageWidth, height: request.layout.pageHeight,
      color: request.color.rawValue, layoutKey: book.layoutKey, turn: info, pages: pages,
      turns: turns, spreadTurns: spreadTurns, totalBytes: 0,
      warnings: book.diagnostics.entries.map(WarningEntry.init))
  }

  /// Removes pages and sheets of an earlier flipbook in the folder that this one lacks.
  private func removeStaleFiles() throws(QuireError) {
    let stale = try out.names { name in
      let ours =
        (name.hasPrefix("page-") && name.hasSuffix(".png"))
        || ((name.hasPrefix("turn-") || name.hasPrefix("spread-"))
          && (name.hasSuffix(".webp") || name.hasSuffix(".png")))
      return ours && written[name] == nil
    }
    for name in stale { try out.remove(name) }
  }
}

/// One turn's sheet before it is drawn: its animation still to be made (the turn's pages are
/// laid out, not drawn), the grid, the format, the file name and its manifest entry (bytes
/// filled in once encoded).
private struct PendingSheet: Sendable {
  var animation: @Sendable () -> Result<PageTurnAnimation, QuireError>
  var grid: SheetGrid
  var format: SheetFormat
  var name: String
  var entry: FlipbookManifest.TurnEntry

  /// The turn's pages drawn, its moving frames drawn into the sheet, encoded; and the
  /// seconds that took.
  func encode(in root: URL) -> Result<([UInt8], Double), QuireError> {
    let start = DispatchTime.now().uptimeNanoseconds
    return Result { () throws(QuireError) in
      let turn = try animation().get()
      var sheet = TurnSheet(grid: grid)
      for i in 0..<grid.frames { try sheet.draw(turn.frame(i + 1), at: i) }
      let bytes = try sheet.encoded(format, path: root.appendingPathComponent(name).path)
      return (bytes, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
  }
}

/// One result per index of a `concurrentPerform`, each slot written by exactly one thread and
/// read after it returns.
private final class ParallelResults<T>: @unchecked Sendable {
  private var items: [Result<T, QuireError>?]
  init(count: Int) { items = Array(repeating: nil, count: count) }
  func set(_ i: Int, _ r: Result<T, QuireError>) {
    items.withUnsafeMutableBufferPointer { $0[i] = r }
  }
  func take(_ i: Int) -> Result<T, QuireError> {
    items[i] ?? .failure(.internalError("turn sheet \(i) was not drawn"))
  }
}
