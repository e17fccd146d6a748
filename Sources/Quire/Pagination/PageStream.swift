// PageStream: chapters laid out and their pages rendered as a stream, so a render never holds
// the whole book's display lists and the first pages land before the last chapter is read.
//
// Units: page numbers count from 1 across the book; a chapter's first page number is one more
// than the pages of all chapters before it, so it is known as soon as those are laid out.
// Layout is per chapter (Typeset's chapter independence), in any order and in parallel;
// numbering is in spine order: a laid-out chapter waits until every chapter before it is
// numbered. Once numbered, its wanted pages are queued for raster and its display lists are
// dropped page by page as they are written; what stays is a `PageRecord` (number, source
// map, the faces it uses, and lines/images only when the manifest asks for boxes).
//
// Scheduling on N threads: one worker always lays out the next chapter (keeping layout one
// chapter ahead of raster), the others render queued pages, and any idle worker lays out
// further ahead, at most `maxChaptersAhead` (4N + 4) chapters ahead of numbering, so memory
// stays bounded by a few chapters. The bound is wider than N + 1 so that one long chapter
// does not leave the other workers idle while it is laid out: with N + 1, paginate of
// moby-dick on 2 threads was 11 % slower in wall time than laying every chapter out at once
// (Benchmarks/foundations.md). Output bytes never depend on the schedule: pages are
// rendered independently and records land in slots by page number.
//
// A stream that draws no page (`paginate`) lays its lines out without glyph arrays
// (`Typesetter.makeWorker(drawing:)`): the geometry and each page's fonts are the same. One
// whose records keep no boxes places no text blocks' boxes (`makeWorker(blocks:)`).
//
// The last chapters largest first: once every chapter not yet claimed fits in that window
// (with two or more workers and no early stop), they are claimed by size, largest first, so
// the stream ends on a short chapter instead of leaving one worker alone with a long one (a
// book's last spine items are often its long final chapter and a table of contents). Only
// the order of layout changes; numbering stays in spine order.
//
// Work kept off the lock: numbering is serial (under the stream's condition lock), so what a
// chapter's pages need before it — thinning them to records, listing their faces, and
// dropping their display lists when no page will be drawn — is done by the worker that laid
// the chapter out, before it takes the lock (unless numbering adds folios to the pages, which
// then must be thinned after it). The lock then holds only the numbering and the appends. At
// the end, the worker that finishes last hands its caches (its shaped words, tens of
// thousands of small allocations) to `Disposal` instead of freeing them while the caller
// waits for the stream (perf/callgrind: ~16 M instructions a worker, on the serial tail);
// in a process that exits after its job every worker does, and nothing is freed.
//
// Early stop: with `stopAfter` set, no chapter is started once that page is numbered, so a
// job that needs only the first pages (a flip, a `--pages 1-3` render) lays out no more.
//
// The alternative rejected: `Typesetter.layoutBook` then raster (the eager path). It is
// simpler but keeps every page's display list until the end (the peak memory of a render)
// and renders nothing until the last chapter is laid out.

import Foundation
import QuireTypeset

/// One page as the manifest needs it after its pixels are written.
struct PageRecord: Sendable {
  /// Number, spine, href, start, end; lines and images only when boxes were asked for;
  /// no display items.
  var page: Page
  /// The faces the page's glyph runs use, in first-use order.
  var faces: [FontFace]
  /// Where its chapter's layout can resume to produce it (nil: the chapter's first page, or
  /// a break without a simple state; Pagination/FlowCheckpoint.swift in QuireTypeset).
  var checkpoint: FlowCheckpoint? = nil
}

/// What one run of a `PageStream` leaves: the page records (numbered from its first page),
/// the chapters' diagnostics, both in spine order, and where it stopped.
struct StreamResult: Sendable {
  var records: [PageRecord]
  var diagnostics: DiagnosticLog
  /// The first chapter not laid out (the range's end unless stopped early).
  var nextChapter: Int
  /// Thread-seconds spent laying out chapters.
  var layoutSeconds: Double
}

/// Lays out a range of chapters with one typesetter and hands the wanted pages to a visitor.
final class PageStream: @unchecked Sendable {
  // @unchecked: every mutable field is guarded by `condition`.
  private let typesetter: Typesetter
  private let chapters: Range<Int>
  private let firstPage: Int
  private let keepBoxes: Bool
  /// Whether pages will be drawn (false: lines without glyph arrays).
  private let drawing: Bool
  /// Strict: a chapter with layout diagnostics stops the stream before its pages are visited.
  private let strict: Bool
  /// Whether numbering adds folios to the pages (`LayoutOptions.folio` of the typesetter):
  /// then their records are made after numbering, under the lock.
  private let folios: Bool
  private let stopAfter: Int?
  /// Each chapter's source size in bytes, by spine index (empty: spine order throughout).
  private let sizes: [Int]
  private let wanted: @Sendable (Int) -> Bool
  private let visit: @Sendable (Page) throws(QuireError) -> Void

  private let condition = NSCondition()
  private var end: Int
  private var nextLayout: Int
  /// The last chapters, smallest first, once they are claimed by size (nil before).
  private var lastChapters: [Int]?
  private var nextNumber: Int
  private var laidOut: [Int: LaidOutChapter] = [:]
  private var inLayout = 0
  /// Workers still running (the last one to stop hands its caches to `Disposal`).
  private var running = 0
  private var queue: [Page] = []
  private var queueHead = 0
  private var rendering = 0
  private var records: [PageRecord] = []
  private var diagnostics = DiagnosticLog()
  private var layoutSeconds = 0.0
  private var failure: QuireError?

  /// - Parameters:
  ///   - firstPage: the number of the first page of `chapters.lowerBound`.
  ///   - drawing: whether any page will be visited (false: no glyph arrays are built).
  ///   - folios: whether the typesetter's options add folios when pages are numbered.
  ///   - stopAfter: stop laying out once this page is numbered.
  ///   - sizes: each chapter's source size by spine index, to claim the last chapters
  ///     largest first (empty: spine order).
  ///   - wanted: whether a page number is to be visited.
  ///   - visit: renders (or times) one numbered page; called from worker threads.
  init(
    typesetter: Typesetter, chapters: Range<Int>, firstPage: Int,
    keepBoxes: Bool, drawing: Bool = true, folios: Bool, strict: Bool, stopAfter: Int?,
    sizes: [Int] = [],
    wanted: @escaping @Sendable (Int) -> Bool,
    visit: @escaping @Sendable (Page) throws(QuireError) -> Void
  ) {
    self.typesetter = typesetter
    self.chapters = chapters
    self.firstPage = firstPage
    self.keepBoxes = keepBoxes
    self.drawing = drawing
    self.folios = folios
    self.strict = strict
    self.stopAfter = stopAfter
    self.sizes = sizes
    self.wanted = wanted
    self.visit = visit
    end = chapters.upperBound
    nextLayout = chapters.lowerBound
    nextNumber = chapters.lowerBound
  }

  /// Runs the stream on `threads` threads.
  func run(threads: Int) throws(QuireError) -> StreamResult {
    let workers = max(1, min(threads, 64))
    let done = DispatchGroup()
    for _ in 0..<workers {
      done.enter()
      // Own threads rather than Dispatch's: a chapter's block tree recurses during layout,
      // and worker threads' default stacks are small (Typeset uses 16 MiB too).
      let thread = Thread { [self] in
        work(workers: workers)
        done.leave()
      }
      thread.stackSize = 16 << 20
      thread.start()
    }
    done.wait()
    if let failure { throw failure }
    return StreamResult(
      records: records, diagnostics: diagnostics, nextChapter: nextNumber,
      layoutSeconds: layoutSeconds)
  }

  private enum Task {
    case layout(Int)
    case render(Page)
  }

  /// A chapter laid out and waiting for its number: its page records made already, before
  /// numbering (each record's number set then), when numbering changes nothing but numbers;
  /// its pages kept only when they may be drawn.
  private struct LaidOutChapter {
    var layout: ChapterLayout
    var records: [PageRecord]?
  }

  private func work(workers: Int) {
    // Text blocks' boxes only when records keep them (`thin` drops them otherwise).
    let worker = typesetter.makeWorker(drawing: drawing, checkpoints: true, blocks: keepBoxes)
    condition.lock()
    running += 1
    condition.unlock()
    while let task = nextTask(workers: workers) {
      switch task {
      case .layout(let k):
        let started = now()
        let layout = typesetter.layoutChapter(k, worker: worker)
        let seconds = now() - started
        let chapter = prepared(consume layout)
        condition.lock()
        laidOut[k] = chapter
        layoutSeconds += seconds
        inLayout -= 1
        numberReadyChapters()
        condition.broadcast()
        condition.unlock()
      case .render(let page):
        var failed: QuireError?
        do throws(QuireError) {
          try visit(page)
        } catch {
          failed = error
        }
        condition.lock()
        rendering -= 1
        if let failed, failure == nil { failure = failed }
        condition.broadcast()
        condition.unlock()
      }
    }
    condition.lock()
    running -= 1
    let last = running == 0
    condition.unlock()
    // The last worker's caches are freed beside the caller's next steps (Disposal.swift);
    // an earlier one frees its own while the others still lay out (neither is, when the
    // process exits after its job).
    if last || Disposal.keepsValues { Disposal.release(consume worker) }
  }

  /// `layout` made ready for numbering outside the lock: its page records (numbered later)
  /// when numbering only sets page numbers, and no display lists when nothing is drawn.
  private func prepared(_ layout: consuming ChapterLayout) -> LaidOutChapter {
    guard !folios else { return LaidOutChapter(layout: layout) }
    var kept = layout
    var records: [PageRecord] = []
    records.reserveCapacity(kept.pages.count)
    for (i, page) in kept.pages.enumerated() {
      records.append(
        PageRecord(
          page: thin(page), faces: faces(of: page),
          checkpoint: i < kept.checkpoints.count ? kept.checkpoints[i] : nil))
    }
    kept.checkpoints = []
    // A stream that never draws never visits a page: its display lists are dropped here.
    if !drawing { kept.pages = [] }
    return LaidOutChapter(layout: kept, records: records)
  }

  /// The next thing to do, or nil when the stream is finished (or failed).
  private func nextTask(workers: Int) -> Task? {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if failure != nil { return nil }
      let pending = queue.count - queueHead
      claimLastBySize(workers: workers)
      let canLayout = lastChapters.map { !$0.isEmpty } ?? (nextLayout < end)
      let ahead = lastChapters == nil ? nextLayout - nextNumber : 0
      if canLayout && inLayout == 0 && pending < 256 {
        return claimLayout()
      }
      if pending > 0 {
        let page = queue[queueHead]
        queueHead += 1
        if queueHead > 64 && queueHead * 2 > queue.count {
          queue.removeFirst(queueHead)
          queueHead = 0
        }
        rendering += 1
        return .render(page)
      }
      if canLayout && ahead < PageStream.maxChaptersAhead(workers: workers) {
        return claimLayout()
      }
      if !canLayout && inLayout == 0 && rendering == 0 && nextNumber >= end {
        return nil
      }
      condition.wait()
    }
  }

  /// How many chapters layout may run ahead of numbering on `workers` threads.
  static func maxChaptersAhead(workers: Int) -> Int { 4 * workers + 4 }

  private func claimLayout() -> Task {
    inLayout += 1
    if let k = lastChapters?.popLast() { return .layout(k) }
    let k = nextLayout
    nextLayout += 1
    return .layout(k)
  }

  /// Switches to claiming by size once every unclaimed chapter fits in the window ahead of
  /// numbering. Under the lock.
  private func claimLastBySize(workers: Int) {
    guard lastChapters == nil, workers > 1, stopAfter == nil, sizes.count >= end,
      end - nextNumber <= PageStream.maxChaptersAhead(workers: workers)
    else { return }
    lastChapters = (nextLayout..<end).sorted {
      sizes[$0] != sizes[$1] ? sizes[$0] < sizes[$1] : $0 > $1
    }
    nextLayout = end
  }

  /// Numbers laid-out chapters in spine order and queues their wanted pages. Under the lock.
  private func numberReadyChapters() {
    while nextNumber < end, let chapter = laidOut.removeValue(forKey: nextNumber) {
      let layout = chapter.layout
      let first = firstPage + records.count
      var log = DiagnosticLog()
      log.add(contentsOf: layout.warnings)
      diagnostics.merge(log)
      if strict, let first = log.entries.first?.first {
        if failure == nil { failure = .strict(first) }
        return
      }
      if let ready = chapter.records {
        for (i, record) in ready.enumerated() {
          var numbered = record
          numbered.page.number = first + i
          records.append(numbered)
          // A stream that draws nothing dropped its pages (`prepared`) and wants none.
          if wanted(first + i), i < layout.pages.count {
            var page = layout.pages[i]
            page.number = first + i
            queue.append(page)
          }
        }
      } else {
        let pages = typesetter.numbered(layout.pages, from: first)
        for (i, page) in pages.enumerated() {
          records.append(
            PageRecord(
              page: thin(page), faces: faces(of: page),
              checkpoint: i < layout.checkpoints.count ? layout.checkpoints[i] : nil))
          if wanted(page.number) { queue.append(page) }
        }
      }
      nextNumber += 1
      if let stopAfter, firstPage + records.count > stopAfter { end = nextNumber }
    }
  }

  private func thin(_ page: Page) -> Page {
    var p = page
    p.items = []
    if !keepBoxes {
      p.lines = []
      p.images = []
      p.blocks = []
      p.boxes = []
    }
    return p
  }

  /// The faces of the page's glyph runs in first-use order. A page uses a handful of faces,
  /// so a linear search over the ones seen beats hashing.
  private func faces(of page: Page) -> [FontFace] {
    var seen: [Int] = []
    let faces = typesetter.fonts.faces
    // Each item read in place: `for item in` copied it (retaining a glyph run's three
    // arrays) to look at one number (8 M instructions on moby-dick).
    for i in page.items.indices {
      switch page.items[i] {
      case .glyphs(let run):
        if !seen.contains(run.font) { seen.append(run.font) }
      case .transformed:
        page.items[i].forEachGlyphRun { run in
          if !seen.contains(run.font) { seen.append(run.font) }
        }
      default: continue
      }
    }
    return seen.compactMap { faces.indices.contains($0) ? faces[$0] : nil }
  }
}
