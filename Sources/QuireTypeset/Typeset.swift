// Typeset: Document → pages of positioned glyph runs, images and fills (no pixels).
//
// Units and coordinates. Everything here is in page pixels, origin top-left, y down. The
// Document speaks root ems; `LayoutOptions.fontSize` turns them into pixels. Shaping happens
// in font units (units per em) and is scaled per run, so one shaped word serves all sizes.
//
// The pipeline inside: fonts (`FontSet`: vendored faces, the book's embedded ones, the
// reader's `--font`; per-character fallback) → paragraphs (`ChapterFlow.paragraph`, inline
// layout in named stages, see Inline/InlineLayout.swift: collect → itemize (FriBidi levels,
// libunibreak opportunities, face per character) → shape (HarfBuzz pieces, Liang
// hyphenation points, Knuth–Plass boxes/glue/penalties plus Kinsoku) → break (the breaker
// that `LayoutOptions.paragraphBreaker` names) → compose (glyph runs through the one
// `GlyphRunBuilder`, which folios use too)) → blocks (`ChapterFlow`: margins collapse, indents,
// lists, tables, images) → a vertical list of `FlowEntry` (one per line, image, rule or table
// row, with split flags) → `Paginator` (the `PageSplitter`: an entry that would cross the
// page bottom moves to the next page, widows/orphans/keep-with-next honoured when possible)
// → `Page`s.
//
// Chapter independence. The layout of a chapter depends only on the chapter, the options and
// the fonts, never on the chapters before it: each spine item starts a page, and block
// numbers come from a prefix count done up front. So `layoutChapter` runs in parallel and
// `layoutBook` only renumbers pages. The alternative — one continuous flow through the book
// with chapters as forced breaks — would make relayout after a font-size change cost the
// whole book and forbid parallelism; it buys nothing because spine items start pages anyway.
//
// Diagnostics. What the typesetter works around is reported as typed `Diagnostic`s
// (QuireCore; kinds in Layout/TypesetDiagnostics.swift), never printed: missing glyphs once
// per chapter, script and face with a count, fonts that could not be used, a chapter index
// the book lacks.
//
// Rejected: laying out straight into pages while walking blocks (as MuPDF does). A separate
// flow list costs one pass over line entries but gives the page splitter (widows, orphans,
// keep-with-next) a clean place to look back without re-running line breaking.

import CHarfBuzz
import Dispatch
import Foundation
import QuireCore
import QuireIngest

/// Why a typesetter could not be made.
package enum TypesetError: Error, Sendable, CustomStringConvertible, Equatable {
  case fonts(FontError)
  /// Options that leave no room for text (e.g. margins wider than the page).
  case badOptions(String)

  package var description: String {
    switch self {
    case .fonts(let e): return e.description
    case .badOptions(let m): return "layout options: \(m)"
    }
  }
}

/// Identifies a layout: equal keys give equal pages. Hex digest of the engine version, the
/// options, the fonts' origins and sizes, and the document's identity.
package struct LayoutKey: Hashable, Sendable, Codable, CustomStringConvertible {
  package var digest: String
  package init(digest: String) { self.digest = digest }
  package var description: String { digest }
  /// Bumped whenever a change in this module can move a line or a page break.
  package static let engineVersion = "quire-typeset/10"

  /// 128-bit FNV-1a (two 64-bit lanes with different offsets): not cryptographic, but a
  /// cache key only needs to tell layouts apart, and Foundation on Linux has no SHA.
  static func digest(of parts: [String]) -> LayoutKey {
    var a: UInt64 = 0xcbf2_9ce4_8422_2325
    var b: UInt64 = 0x6c62_272e_07bb_0142
    for part in parts {
      for byte in part.utf8 {
        a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        b = b.rotatedLeft()
      }
      a = (a ^ 0xff) &* 0x0000_0100_0000_01b3
      b = (b ^ 0xfe) &* 0x0000_0100_0000_01b3
    }
    return LayoutKey(digest: String(format: "%016llx%016llx", a, b))
  }
}

extension UInt64 {
  fileprivate func rotatedLeft() -> UInt64 { (self << 7) | (self >> 57) }
}

package struct ChapterLayout: Sendable {
  package var spineIndex: Int
  /// Numbered from 1 within the chapter. Glyph runs' `FontID`s index `Typesetter.fonts`.
  package var pages: [Page]
  /// Characters no font has, and other degradations, for this chapter.
  package var warnings: [Diagnostic] = []
  /// Per page, where a layout can resume to produce it and the pages after it
  /// (Pagination/FlowCheckpoint.swift); empty unless the worker keeps checkpoints, nil for
  /// the first page and pages without one.
  package var checkpoints: [FlowCheckpoint?] = []
  package init(spineIndex: Int, pages: [Page], warnings: [Diagnostic] = []) {
    self.spineIndex = spineIndex
    self.pages = pages
    self.warnings = warnings
  }
}

package struct BookLayout: Sendable {
  /// Numbered across the book.
  package var pages: [Page]
  /// Only the faces the pages use; `FontID`s are renumbered to index this table.
  package var fonts: FontTable
  package var key: LayoutKey
  package var warnings: [Diagnostic]
  package init(pages: [Page], fonts: FontTable, key: LayoutKey, warnings: [Diagnostic]) {
    self.pages = pages
    self.fonts = fonts
    self.key = key
    self.warnings = warnings
  }
}

package final class Typesetter: Sendable {
  package let fonts: FontTable
  package let key: LayoutKey
  /// Fonts that could not be used.
  package let warnings: [Diagnostic]
  let document: Document
  let options: LayoutOptions
  let fontSet: FontSet
  let shapes = ShapeCache()
  let hyphens = SharedCache<HyphenKey, [Int]>()
  /// Book-global number of the first text block of each chapter.
  let firstBlock: [Int]

  package init(document: Document, options: LayoutOptions) throws(TypesetError) {
    let o = options
    guard (16...20_000).contains(o.width), (16...20_000).contains(o.height) else {
      throw .badOptions("page size \(o.width)x\(o.height) outside 16…20000 px")
    }
    guard o.fontSize.isFinite, (2...500).contains(o.fontSize) else {
      throw .badOptions("font size \(o.fontSize) outside 2…500 px")
    }
    guard o.lineHeight.isFinite, (0.5...5).contains(o.lineHeight) else {
      throw .badOptions("line height \(o.lineHeight) outside 0.5…5")
    }
    let m = o.margins
    guard [m.top, m.right, m.bottom, m.left].allSatisfy({ $0.isFinite && $0 >= 0 }),
      Double(o.width) - m.left - m.right >= 8, Double(o.height) - m.top - m.bottom >= o.fontSize * 2
    else {
      throw .badOptions("margins \(m.top),\(m.right),\(m.bottom),\(m.left) leave no room for text")
    }
    let set: FontSet
    do {
      let embedded = o.publisherStyles ? document.fonts : []
      set = try FontSet(embedded: embedded, userFont: o.font)
        .withSystemFallback(for: document, enabled: o.systemFonts)
    } catch {
      throw .fonts(error)
    }
    self.document = document
    self.options = options
    self.fontSet = set
    self.fonts = FontTable(faces: set.faces.map(\.record))
    self.warnings = set.warnings
    var first: [Int] = []
    var total = 0
    for c in document.chapters {
      first.append(total)
      total += Typesetter.textBlockCount(c.blocks)
    }
    self.firstBlock = first
    var parts = [LayoutKey.engineVersion]
    let enc = JSONEncoder()
    enc.outputFormatting = .sortedKeys
    parts.append(String(decoding: (try? enc.encode(options)) ?? Data(), as: UTF8.self))
    for f in set.faces {
      parts.append("\(f.record.origin):\(f.record.faceIndex):\(f.record.data.count)")
    }
    parts.append(document.metadata.identifier ?? document.metadata.title)
    for c in document.chapters { parts.append("\(c.href):\(c.size):\(c.length):\(c.linear)") }
    self.key = LayoutKey.digest(of: parts)
  }

  /// Blocks with inline content in the tree (an explicit stack: trees may be thousands deep).
  static func textBlockCount(_ blocks: [Block]) -> Int {
    var n = 0
    var stack: [[Block]] = [blocks]
    while let level = stack.popLast() {
      for k in level.indices {  // read in place: `for b in level` copied every block
        if !level[k].inlines.isEmpty { n += 1 }
        if !level[k].children.isEmpty { stack.append(level[k].children) }
      }
    }
    return n
  }

  var breaker: any ParagraphBreaker { options.paragraphBreaker }

  /// What a worker keeps from one chapter to the next: shaped words (with their
  /// hyphenation points) and libhyphen's answers per letter run.
  struct WorkerCaches {
    var shaper: Shaper
    var hyphenRuns = HyphenRunMemo()
    /// The dictionary `hyphenRuns` come from.
    var hyphenDictionary: ObjectIdentifier? = nil
    /// Whether text lines get every glyph: false when the pages are only counted and mapped,
    /// never drawn (ChapterFlow.drawsGlyphs).
    var drawsGlyphs = true
    /// Whether chapters keep their pages' checkpoints (`ChapterLayout.checkpoints`).
    var keepsCheckpoints = false
    /// Whether pages get their text blocks' boxes (`Page.blocks`): false when the caller
    /// drops them (ChapterFlow.placesBlocks).
    var placesBlocks = true
    /// The styles resolved in earlier chapters (`StyleMemo`), for chapters with its options.
    var styles: StyleMemo? = nil
  }

  package func layoutChapter(_ spineIndex: Int) -> ChapterLayout {
    var caches = WorkerCaches(shaper: Shaper(fonts: fontSet, shared: shapes))
    return layoutChapter(spineIndex, caches: &caches)
  }

  func layoutChapter(_ spineIndex: Int, caches: inout WorkerCaches) -> ChapterLayout {
    guard document.chapters.indices.contains(spineIndex) else {
      return ChapterLayout(
        spineIndex: spineIndex, pages: [],
        warnings: [
          Diagnostic(
            .noSuchChapter, file: "spine \(spineIndex)", spine: spineIndex,
            message: "no such chapter")
        ])
    }
    let chapter = document.chapters[spineIndex]
    var flow = makeFlow(spineIndex, caches: &caches)
    flow.entries.reserveCapacity(Self.expectedEntries(chapter.length, flow: flow))
    if caches.keepsCheckpoints && !flow.positioned.enabled && flow.footnotes.references.isEmpty {
      flow.marks = []
    }
    defer { caches.keep(&flow) }
    flow.layout(
      blocks: chapter.blocks, left: flow.options.margins.left,
      right: Double(flow.options.width) - flow.options.margins.right)
    flow.endFloats()
    let notes = flow.finishNotes()
    let marks = notes.isEmpty && flow.columnSets.isEmpty ? flow.settledMarks() : []
    var starts: [Int] = []
    var pages = paginate(&flow, notes: notes, starts: &starts)
    finish(&pages, flow: flow)
    var layout = ChapterLayout(
      spineIndex: spineIndex, pages: pages, warnings: diagnostics(of: flow))
    if caches.keepsCheckpoints { layout.checkpoints = Self.checkpoints(marks, starts: starts) }
    return layout
  }

  /// About as many flow entries as a chapter of `length` characters lays out (a line of
  /// text averages well over one character per 0.6 em of measure), at most 65,536: room
  /// made up front, where growing the array from empty moved every entry about twice
  /// (6 M instructions on moby-dick, Benchmarks/paginate-cost.md "Session 17").
  static func expectedEntries(_ length: Int, flow: ChapterFlow) -> Int {
    let perLine = max(8, flow.textWidth / max(1, 0.6 * flow.options.fontSize))
    return Int(min(65_536, Double(max(0, length)) / perLine)) + 16
  }

  /// A chapter's flow set up for its writing mode, viewport and notes, with `caches`' shaped
  /// words and hyphenation memo moved in (`WorkerCaches.keep` moves them back).
  func makeFlow(_ spineIndex: Int, caches: inout WorkerCaches) -> ChapterFlow {
    let chapter = document.chapters[spineIndex]
    // A pre-paginated chapter is laid out at its ICB, on one page (Fixed/FixedLayout.swift).
    let viewport = fixedViewport(chapter)
    let physical = viewport.map(fixedOptions) ?? self.options
    // A vertical chapter flows on the logical page (Vertical/VerticalPage.swift).
    let vertical = chapter.writingMode.isVertical
    let options =
      vertical ? VerticalPage.logicalOptions(physical, mode: chapter.writingMode) : physical
    var flow = ChapterFlow(
      options: options, fonts: fontSet, shaper: caches.shaper.take(), spine: spineIndex,
      language: chapter.language, direction: chapter.direction ?? .ltr,
      resources: document.resources,
      breaker: breaker, sharedHyphens: hyphens, firstBlock: firstBlock[spineIndex])
    flow.languages = ContentLanguage(
      chapter: chapter, packageLanguage: document.metadata.language, reader: options.language)
    flow.hyphenation.runs = caches.hyphenRuns
    flow.hyphenation.runsDictionary = caches.hyphenDictionary
    flow.vertical = vertical
    if caches.styles?.matches(fonts: fontSet, options: options, vertical: vertical) != true {
      caches.styles = StyleMemo(fonts: fontSet, options: options, vertical: vertical)
    }
    flow.styleMemo = caches.styles
    flow.drawsGlyphs = caches.drawsGlyphs
    flow.placesBlocks = caches.placesBlocks
    flow.verticalRL = chapter.writingMode == .verticalRL
    flow.footnotes = ChapterNotes(chapter, placement: options.footnotes)
    flow.boxFlow.bodyPaintsPage = chapter.rootBackground == nil
    flow.authorStyles = chapter.authorStyles
    if let viewport {
      flow.positioned.enabled = true
      flow.positioned.containingHeight = viewport.height
    }
    caches.hyphenRuns = HyphenRunMemo()
    return flow
  }

  /// The pages of a laid-out flow (its entries move to the paginator); `starts` gets each
  /// page's first entry. With `resumingAt`, the entries before it go on a page 0 that the
  /// caller drops (FlowCheckpoint.swift).
  func paginate(
    _ flow: inout ChapterFlow, notes: FootNotes, resumingAt: Int? = nil, starts: inout [Int]
  ) -> [Page] {
    let chapter = document.chapters[flow.spine]
    let entries = flow.entries
    flow.entries = []  // the paginator then owns the only reference and shifts in place
    guard flow.positioned.enabled else {
      return Paginator(options: flow.options, placesBlocks: flow.placesBlocks).pages(
        entries, notes: notes, spine: flow.spine, href: chapter.href,
        fallback: Location(spine: flow.spine, offset: 0), boxes: flow.boxFlow.boxes,
        columns: flow.columnSets, resumingAt: resumingAt, starts: &starts)
    }
    return fixedPages(
      entries, options: flow.options, spine: flow.spine, href: chapter.href,
      boxes: flow.boxFlow.boxes, layers: flow.positioned.layers)
  }

  /// The page background, vertical mapping and rendition stamps of a chapter's pages.
  func finish(_ pages: inout [Page], flow: ChapterFlow) {
    let chapter = document.chapters[flow.spine]
    flow.paintPageBackground(chapter, on: &pages)
    let viewport = flow.positioned.enabled ? fixedViewport(chapter) : nil
    if flow.vertical {
      let physical = viewport.map(fixedOptions) ?? self.options
      VerticalPage(mode: chapter.writingMode, width: physical.width).map(&pages)
    }
    stampRendition(chapter, viewport: viewport, on: &pages)
  }

  /// The chapter's diagnostics from its flow.
  func diagnostics(of flow: ChapterFlow) -> [Diagnostic] {
    let chapter = document.chapters[flow.spine]
    return flow.missing.diagnostics(file: chapter.href, spine: flow.spine) {
      fontSet.faces[$0].family
    } + flow.notes.diagnostics(file: chapter.href, spine: flow.spine)
      + flow.positioned.diagnostics(file: chapter.href, spine: flow.spine)
  }

  package func layoutBook(threads: Int) -> BookLayout {
    let count = document.chapters.count
    let results = Mutex<[ChapterLayout?]>(Array(repeating: nil, count: count))
    // Biggest chapters first, so no thread is left with a long one at the end.
    let order = document.chapters.indices.sorted {
      document.chapters[$0].size > document.chapters[$1].size
    }
    let next = Atomic<Int>(0)
    let workers = max(1, min(threads, count, 64))
    // Own threads rather than Dispatch's: a chapter's block tree recurses, and worker
    // threads' default stacks are small; these get 16 MiB.
    let done = DispatchGroup()
    for _ in 0..<workers {
      done.enter()
      let thread = Thread { [self] in
        var caches = WorkerCaches(shaper: Shaper(fonts: fontSet, shared: shapes))
        while true {
          let k = next.wrappingAdd(1, ordering: .relaxed).oldValue
          if k >= order.count { break }
          let layout = layoutChapter(order[k], caches: &caches)
          results.withLock { $0[order[k]] = layout }
        }
        done.leave()
      }
      thread.stackSize = 16 << 20
      thread.start()
    }
    done.wait()
    let chapters = results.withLock { $0 }
    var pages: [Page] = []
    var warnings = self.warnings
    for c in chapters {
      guard let c else { continue }
      for var p in c.pages {
        p.number = pages.count + 1
        pages.append(p)
      }
      warnings += c.warnings
    }
    if options.folio { addFolios(&pages) }
    // Keep only the faces in use, renumbered in first-use order.
    var map: [Int: Int] = [:]
    var used: [FontFace] = []
    for i in pages.indices {
      for j in pages[i].items.indices {
        guard case .glyphs(var run) = pages[i].items[j] else { continue }
        if let m = map[run.font] {
          run.font = m
        } else {
          map[run.font] = used.count
          used.append(fonts.faces[run.font])
          run.font = used.count - 1
        }
        pages[i].items[j] = .glyphs(run)
      }
    }
    return BookLayout(pages: pages, fonts: FontTable(faces: used), key: key, warnings: warnings)
  }

  /// The page number in the bottom margin, horizontal digits: centred on horizontal pages; on
  /// vertical pages at the foot's outer corner, flush with the text block's outer edge, as
  /// vertical books set their ノンブル (JLREQ §2.6.1–2.6.3, JIS X 4051 §7.5.2). The outer side
  /// follows the page progression (JLREQ §2.6.2): in a right-to-left book odd pages are left
  /// pages, so their outer edge is the left one; in a left-to-right book odd pages are right
  /// pages.
  func addFolios(_ pages: inout [Page]) {
    var shaper = Shaper(fonts: fontSet, shared: shapes)
    let choice = fontSet.match(family: fontSet.bodyFamily, weight: 400, italic: false)
    let face = fontSet.faces[choice.face]
    let size = options.fontSize * 0.8
    let scale = size / face.upem
    let baseline = Double(options.height) - options.margins.bottom / 2 + size / 3
    for i in pages.indices where pages[i].rendition?.viewport == nil {
      let label = String(pages[i].number)
      let shaped = shaper.shape(
        ShapeKey(
          text: label.unicodeScalars.map(\.value), face: choice.face, smallCaps: false, rtl: false,
          script: HB_SCRIPT_LATIN.rawValue, language: ""))
      let w = shaped.advance * scale
      let x = folioX(pages[i], width: w)
      pages[i].items.append(
        .glyphs(
          GlyphRunBuilder(scale: scale, baseline: baseline).run(
            shaped, face: choice, size: size, color: .black, at: x)))
      pages[i].lines.append(
        LineBox(
          text: label, rect: Rect(x: x, y: baseline - size, width: w, height: size * 1.3),
          block: -1, role: .folio, start: pages[i].end, end: pages[i].end))
    }
  }

  /// Where a folio `width` wide starts: centred, or at a vertical page's outer corner.
  func folioX(_ page: Page, width: Double) -> Double {
    let pageWidth = Double(options.width)
    guard page.writingMode.isVertical else { return (pageWidth - width) / 2 }
    let odd = page.number % 2 == 1
    let leftPage = document.metadata.direction == .rtl ? odd : !odd
    return leftPage ? options.margins.left : pageWidth - options.margins.right - width
  }
}

extension Typesetter {
  /// What `layoutBook` does to each chapter's pages, for callers that lay out chapter by
  /// chapter (the streaming renderer): numbers them from `first` and adds folios when the
  /// options ask. FontIDs stay those of `fonts` (no renumbering).
  package func numbered(_ pages: [Page], from first: Int) -> [Page] {
    var pages = pages
    for i in pages.indices { pages[i].number = first + i }
    if options.folio { addFolios(&pages) }
    return pages
  }
}

extension Typesetter {
  /// What one thread keeps from one chapter to the next (shaped words, hyphenation points),
  /// for callers that lay out chapter by chapter on their own threads, as `layoutBook` does.
  /// Use one per thread.
  package final class Worker: @unchecked Sendable {
    // @unchecked: used by one thread at a time (the caller's contract).
    var caches: WorkerCaches
    init(_ caches: WorkerCaches) { self.caches = caches }
  }

  /// A worker for `layoutChapter(_:worker:)`; with `drawing` false its pages' text lines
  /// carry only the first glyphs of each run (for a pass that never draws its pages: same
  /// geometry, same fonts, no glyph arrays); with `checkpoints` its chapters keep their
  /// pages' checkpoints (`ChapterLayout.checkpoints`); with `blocks` false its pages have no
  /// text blocks' boxes (`Page.blocks`; everything else the same).
  package func makeWorker(drawing: Bool = true, checkpoints: Bool = false, blocks: Bool = true)
    -> Worker
  {
    var caches = WorkerCaches(shaper: Shaper(fonts: fontSet, shared: shapes))
    caches.drawsGlyphs = drawing
    caches.keepsCheckpoints = checkpoints
    caches.placesBlocks = blocks
    return Worker(caches)
  }

  /// `layoutChapter(_:)` reusing `worker`'s caches.
  package func layoutChapter(_ spineIndex: Int, worker: Worker) -> ChapterLayout {
    layoutChapter(spineIndex, caches: &worker.caches)
  }
}

extension Typesetter {
  /// Starts opening the vendored faces on another core (`VendoredFaces`): every typesetter
  /// of the process shares them, and a job calls this before reading the book.
  package static func prefetchFaces() {
    VendoredFaces.prefetch()
  }

  /// Starts loading, in the background, the hyphenation dictionary a book's text will most
  /// likely ask for — its `dc:language`, else the reader's `--lang` — when `options`
  /// hyphenate (`Hyphenator.prefetch`): called once the package is read, it overlaps the
  /// load with the chapters' conversion instead of stalling the first layout worker.
  package static func prefetchHyphenation(bookLanguage: String?, options: LayoutOptions) {
    guard options.hyphenate == .auto else { return }
    let language = bookLanguage.flatMap { $0.isEmpty ? nil : $0 } ?? options.language
    guard let language, !language.isEmpty else { return }
    Hyphenator.prefetch(language)
  }
}
