// BookPagination: the one layout path of the façade. Every job lays its book out here.
//
// When the wanted pages are bounded (`PageSelection.last`), the book is opened lazily
// (package, spine, metadata; no chapter converted yet) and chapters are converted and laid
// out in spine order in growing prefixes (1, 2, 4, … chapters, each prefix a Document of
// its own with the fonts its chapters declare) only until the last wanted page is numbered:
// that is what puts the first pages of a `--pages 1-3` render on disk before the rest of
// the book is read. A job that needs nothing more (a flip of page 3) stops there. Otherwise
// the whole book is then converted (or, with no page to put first, read at once: opened
// lazily, then `document()`, which is `Book.open`'s Document) and the chapters not laid out
// yet are streamed through one typesetter: the Document and layout key are exactly those of
// `Book.open`. The vendored faces start opening in the background before the book is read
// (`Typesetter.prefetchFaces`), and once the package is read the hyphenation dictionary of
// the book's language (`prefetchHyphenation`): both overlap the reading of the book instead
// of running on one core before the layout (or, the dictionary, stalling the first layout
// worker that meets a word while the other waits for it). Pages laid out by a prefix's
// typesetter equal the whole book's (a chapter's layout depends only on the chapter, the
// options and the fonts; the FastPath tests pin it).
//
// Every pass is a `PageStream`: parallel layout, numbering in spine order, wanted pages
// handed to the job's visitor with their display lists, then dropped. What is kept per page
// is a `PageRecord` (its source map; lines and images only when asked for).
//
// Rejected: laying the whole book out first (`Typesetter.layoutBook`), which held every
// page's display list and made the first page wait for the last chapter; and one loop per
// job, which is how render, paginate and flip drifted apart before.

import Foundation
import QuireIngest
import QuireRaster
import QuireTypeset

/// What a job asks of a pagination besides the book and the settings.
struct PaginationPlan: Sendable {
  /// The pages whose display lists go to the visitor.
  var wanted = PageSelection(ranges: [])
  /// Stop as soon as the last wanted page is numbered (no pass over the whole book).
  var stopEarly = false
  /// Keep each page's lines and images in its record (manifest boxes, quality stats).
  var keepBoxes = false
  /// Diagnostics fail the job (`QuireError.strict`) instead of being reported.
  var strict = false
  /// Worker threads.
  var threads = 1

  /// Whether any page will be drawn: when none is, lines are laid out without their glyph
  /// arrays (`Typesetter.makeWorker(drawing:)`; same page map, same fonts).
  var drawsPages: Bool { !(wanted.ranges.isEmpty && wanted.from == nil) }
}

/// A book after its pagination: the thin page records and what they were laid out with.
struct PaginatedBook: Sendable {
  /// The whole book, or the last prefix when the pagination stopped early.
  var document: Document
  /// The typesetter of the last pass (its document holds every chapter of `records`).
  var typesetter: Typesetter
  /// Every page laid out, numbered from 1, without display lists.
  var records: [PageRecord]
  /// Whether every chapter was laid out (false when stopped early).
  var complete: Bool
  /// Ingest, layout and raster diagnostics, in that order.
  var diagnostics: DiagnosticLog
  /// The layout key: Typeset's, refined with the reading options it does not see.
  var key: String
  /// Wall-clock seconds spent opening and converting the book.
  var ingestSeconds: Double
  /// Thread-seconds spent laying chapters out.
  var layoutSeconds: Double
  /// Ingest and layout diagnostics: `diagnostics` without the raster's (what the persisted
  /// layout cache keeps; each run adds the warnings of the pages it draws).
  var layoutDiagnostics = DiagnosticLog()

  /// The faces the pages use, in first-use order.
  var fontsUsed: [FontFace] {
    var used: [FontFace] = []
    var seen: Set<FontFace> = []
    for r in records {
      for f in r.faces where seen.insert(f).inserted { used.append(f) }
    }
    return used
  }
}

struct BookPagination {
  let path: String
  let settings: LayoutSettings
  let plan: PaginationPlan

  /// What the passes have gathered so far.
  private struct Progress {
    var records: [PageRecord] = []
    var chapters = DiagnosticLog()
    var raster: [Diagnostic] = []
    var layoutSeconds = 0.0
    var ingestSeconds = 0.0
  }

  /// Lays the book out, calling `visit` (from worker threads) with each wanted page and a
  /// renderer for it, and `wantedKnown` each time a wanted page is numbered.
  func run(
    visit: @escaping @Sendable (Page, PageRenderer) throws(QuireError) -> Void,
    wantedKnown: @escaping @Sendable () -> Void = {}
  ) throws(QuireError) -> PaginatedBook {
    try settings.check()
    try FontFile.check(settings.font)
    var state = Progress()
    Typesetter.prefetchFaces()
    let url = URL(fileURLWithPath: path)
    var next = 0
    let document: Document
    if let limit = plan.wanted.last, limit > 0, !plan.strict {
      let loader = try timed(&state) { () throws(IngestError) in
        try Book.openLazily(url, options: settings.ingestOptions)
      }
      prefetchHyphenation(loader)
      var batch = 1
      var last: (Document, Typesetter)?
      while next < loader.count && state.records.count < limit {
        let end = min(loader.count, next + batch)
        let prefix = try timed(&state) { () throws(IngestError) in try loader.prefix(end) }
        let typesetter = try makeTypesetter(prefix)
        next = try stream(typesetter, prefix, next..<end, &state, visit, wantedKnown)
        last = (prefix, typesetter)
        batch *= 2
      }
      if plan.stopEarly, state.records.count >= limit, let (prefix, typesetter) = last {
        var log = DiagnosticLog()
        log.add(contentsOf: typesetter.warnings)
        return finish(prefix, typesetter, state, log, complete: false)
      }
      document = try timed(&state) { () throws(IngestError) in try loader.document() }
    } else {
      // No page to put first: the whole book at once, as `Book.open` reads it (the
      // hyphenation dictionary loading meanwhile).
      document = try timed(&state) { () throws(IngestError) in
        let loader = try Book.openLazily(url, options: settings.ingestOptions)
        prefetchHyphenation(loader)
        return try loader.document()
      }
    }
    let typesetter = try makeTypesetter(document)
    var log = DiagnosticLog()
    log.add(contentsOf: document.warnings)
    log.add(contentsOf: typesetter.warnings)
    if plan.strict, let first = log.entries.first?.first { throw .strict(first) }
    if next < document.chapters.count {
      _ = try stream(
        typesetter, document, next..<document.chapters.count, &state, visit, wantedKnown)
    }
    if state.records.isEmpty {
      // Every spine document was unreadable or empty: bad data, not a usage mistake.
      let why = document.warnings.first.map { ": \($0)" } ?? ""
      throw .badData(file: path, reason: "no readable content to lay out\(why)")
    }
    let book = finish(document, typesetter, state, log, complete: true)
    if plan.strict, let first = book.diagnostics.entries.first?.first { throw .strict(first) }
    return book
  }

  private func finish(
    _ document: Document, _ typesetter: Typesetter, _ state: Progress, _ log: DiagnosticLog,
    complete: Bool
  ) -> PaginatedBook {
    var diagnostics = log
    diagnostics.merge(state.chapters)
    let layoutDiagnostics = diagnostics
    diagnostics.add(contentsOf: state.raster)
    return PaginatedBook(
      document: document, typesetter: typesetter, records: state.records, complete: complete,
      diagnostics: diagnostics, key: settings.reading.refined(typesetter.key),
      ingestSeconds: state.ingestSeconds, layoutSeconds: state.layoutSeconds,
      layoutDiagnostics: layoutDiagnostics)
  }

  /// One pass: lays out `range` with `typesetter`, visiting the wanted pages as they are
  /// numbered. Returns the first chapter not laid out.
  private func stream(
    _ typesetter: Typesetter, _ document: Document, _ range: Range<Int>, _ state: inout Progress,
    _ visit: @escaping @Sendable (Page, PageRenderer) throws(QuireError) -> Void,
    _ wantedKnown: @escaping @Sendable () -> Void
  ) throws(QuireError) -> Int {
    let resources = document.resources
    let renderer = PageRenderer(
      fonts: typesetter.fonts, images: { href in resources.data(forHref: href) },
      fit: settings.fit.raster, embeddedFonts: document.fonts)
    let wanted = plan.wanted
    let pass = PageStream(
      typesetter: typesetter, chapters: range,
      firstPage: state.records.count + 1, keepBoxes: plan.keepBoxes, drawing: plan.drawsPages,
      folios: settings.layoutOptions.folio, strict: plan.strict,
      stopAfter: plan.stopEarly ? wanted.last : nil, sizes: document.chapters.map(\.size),
      wanted: { n in
        guard wanted.contains(n) else { return false }
        wantedKnown()
        return true
      },
      visit: { page throws(QuireError) in try visit(page, renderer) })
    let result = try pass.run(threads: max(1, plan.threads))
    state.records += result.records
    state.chapters.merge(result.diagnostics)
    state.layoutSeconds += result.layoutSeconds
    // Only the warnings are kept: the renderer holds its typesetter's fonts.
    for w in renderer.warnings where !state.raster.contains(w) { state.raster.append(w) }
    return result.nextChapter
  }

  /// Starts loading the book's hyphenation dictionary while its chapters convert.
  private func prefetchHyphenation(_ loader: ChapterLoader) {
    Typesetter.prefetchHyphenation(
      bookLanguage: loader.metadata.language, options: settings.layoutOptions)
  }

  private func makeTypesetter(_ document: Document) throws(QuireError) -> Typesetter {
    do {
      return try Typesetter(document: document, options: settings.layoutOptions)
    } catch {
      throw QuireError(error, book: path)
    }
  }

  /// Runs an Ingest step, adding its wall-clock time to the ingest seconds.
  private func timed<T>(_ state: inout Progress, _ step: () throws(IngestError) -> T)
    throws(QuireError) -> T
  {
    let start = now()
    defer { state.ingestSeconds += now() - start }
    do {
      return try step()
    } catch {
      throw QuireError(error)
    }
  }
}

/// Seconds on the monotonic clock.
func now() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
