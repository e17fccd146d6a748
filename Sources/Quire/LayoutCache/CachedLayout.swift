// CachedLayout: the jobs' paths through a persisted layout.
//
// `paginate` of a seen book is the entry's page map, nothing laid out. `render --pages N`
// opens the book lazily (package and spine only), converts and lays out the one chapter that
// holds page N (its pages numbered from the chapter's first page, as in a whole-book run) and
// draws page N; the manifest is the entry's, with this run's file names and raster warnings.
// The book is opened on another thread while the key is made and the entry read
// (EarlyOpening.swift); the vendored faces start opening in the background before the
// chapter converts, and the book's hyphenation dictionary as soon as the package names its
// language (`Typesetter.prefetchFaces`, `prefetchHyphenation`): both overlap the conversion.
// Before a chapter's pages are drawn they are checked against the entry (page count, every
// page's spine, href and start/end Locations, the fonts used): a chapter whose layout
// depends on more than itself (which chapter independence rules out, but the check is cheap)
// sends the job down the whole-book path, and the entry is rebuilt.
//
// Selections of more than `maxCachedPages` pages take the whole-book path: it draws pages on
// every worker thread while this one draws them in turn.
//
// Display lists (DisplayListFile.swift): the first cached render of a chapter writes its
// pages' display lists beside the entry, and later ones decode them instead of laying the
// chapter out again (the laying out was about a quarter of a cached render's instructions).
// Decoded pages pass the same check against the entry as laid-out ones, and their font
// table must be this run's; a file that fails is a miss (the chapter is laid out and the
// file written again). They are not in the entry itself: a page's display list is ~100
// times its map entry, so only chapters a cached render asked for are kept.
//
// A chapter without display lists resumes at a page break: the entry keeps, per page, a
// checkpoint of the flow where one has a compact form (QuireTypeset's
// Pagination/FlowCheckpoint.swift; the entry's CheckpointSection.swift), and a render of
// page N lays out only from the nearest checkpoint at or before N to a little past the last
// page asked for (the chapter's first page is always a place to start). Resumed pages pass
// the same check against the entry (Locations per page, fonts among the chapter's); a
// mismatch takes the whole-book path and the entry is rebuilt. Their display lists are added
// to the chapter's file (which then holds some of its pages, by number), so the next render
// of any of them decodes it; a render asking for a page the file lacks resumes again and
// adds its pages, and a whole layout of the chapter writes the file whole (two processes
// adding pages at once: the last rename wins, the other's pages resume again).
//
// Rejected: pages' pixels (they depend on the colour mode and would be a second copy of the
// render). Large pictures are the exception: their scaled pixels (ScaledImageFile.swift) are
// kept, because decoding and resampling a cover costs more than the rest of its page, and so
// are the book's embedded fonts ready to use (KeptFontFile.swift), because inflating them
// cost a tenth of a text page's render.

import Foundation
import QuireCore
import QuireIngest
import QuireRaster
import QuireTypeset

/// Laying out and drawing pages of a book whose layout is cached.
struct CachedLayout {
  let entry: LayoutCacheEntry
  let path: String
  let settings: LayoutSettings
  /// Where the chapters' display lists are read and written (nil: laid out every time).
  var cache: LayoutCache? = nil
  /// The book's content hash, which keys its kept font files (nil: fonts read every time).
  var book: String? = nil
  /// The book opened on another thread while the entry was found (nil: opened here).
  var early: EarlyOpening? = nil

  /// The most pages a cached render draws (more go through the whole-book path).
  static let maxCachedPages = 64

  /// Where a cached render's pages came from.
  struct Sources: Equatable, Sendable {
    /// Pages drawn from display lists decoded from the cache.
    var decoded = 0
    /// Pages laid out (whole chapters, or from a checkpoint to the last page asked for).
    var laidOut = 0
    /// Of those, the pages laid out from a checkpoint.
    var resumed = 0
  }

  /// What `draw` reports.
  struct Drawn {
    /// The raster diagnostics.
    var raster: [Diagnostic] = []
    /// Where the pages came from.
    var sources = Sources()
  }

  /// Lays out the chapters holding `numbers` (ascending, all in the book) and visits their
  /// pages with a renderer, in order. Returns the raster diagnostics and where the pages came
  /// from, or nil when a chapter laid out again does not match the entry.
  func draw(_ numbers: [Int], visit: (Page, PageRenderer) throws(QuireError) -> Void)
    throws(QuireError) -> Drawn?
  {
    Typesetter.prefetchFaces()
    let loader: ChapterLoader
    do {
      if let early {
        loader = try early.loader(keeping: fontFiles)
      } else {
        loader = try Book.openLazily(
          URL(fileURLWithPath: path), options: settings.ingestOptions, fontFiles: fontFiles)
      }
    } catch {
      throw QuireError(error)
    }
    Typesetter.prefetchHyphenation(
      bookLanguage: loader.metadata.language, options: settings.layoutOptions)
    var drawn = Drawn()
    var k = 0
    while k < numbers.count {
      guard let chapter = entry.chapter(holding: numbers[k]) else { return nil }
      var wanted: [Int] = []
      while k < numbers.count, numbers[k] < chapter.firstPage + chapter.pageCount {
        wanted.append(numbers[k])
        k += 1
      }
      guard let (pages, renderer) = try layOut(chapter, wanted, loader, &drawn.sources) else {
        return nil
      }
      for n in wanted {
        guard let page = pages[n] else { return nil }
        try visit(page, renderer)
      }
      for w in renderer.warnings where !drawn.raster.contains(w) { drawn.raster.append(w) }
    }
    return drawn
  }

  /// Where the book's embedded fonts are kept ready to use, when the cache is on.
  private var fontFiles: KeptFontFiles? {
    guard let cache, let book, !book.isEmpty else { return nil }
    return KeptFontFiles(cache: cache, book: book)
  }

  /// Pages of one chapter by number, at least the `wanted` ones: decoded from its
  /// display-list file when it holds them all, else laid out from the checkpoint nearest
  /// before them (and added to the file), else the chapter laid out alone and numbered in
  /// place (the file written whole); nil when they differ from the entry.
  private func layOut(
    _ chapter: LayoutCacheEntry.Chapter, _ wanted: [Int], _ loader: ChapterLoader,
    _ sources: inout Sources
  )
    throws(QuireError) -> ([Int: Page], PageRenderer)?
  {
    guard chapter.spine < loader.count else { return nil }
    var document: Document
    let typesetter: Typesetter
    do {
      document = try loader.only(chapter.spine)
    } catch {
      throw QuireError(error)
    }
    // The layout reads a picture for its size and the renderer for its pixels: once.
    document.resources = RememberedResources(document.resources)
    do {
      typesetter = try Typesetter(document: document, options: settings.layoutOptions)
    } catch {
      throw QuireError(error, book: path)
    }
    let faces = typesetter.fonts.faces
    let allowed = Self.allowed(faces, in: chapter)
    let stored = storedDrawings(chapter, fonts: faces, allowed: allowed)
    var pages: [Page]
    if let stored, Set(stored.pages.map(\.number)).isSuperset(of: wanted) {
      pages = stored.pages
      sources.decoded += wanted.count
    } else if let resumed = resumedPages(chapter, wanted, typesetter) {
      guard resumed.allSatisfy({ matches($0, chapter, allowed: allowed) }) else { return nil }
      pages = resumed
      sources.laidOut += resumed.count
      sources.resumed += resumed.count
      store(Self.merge(resumed, into: stored?.pages ?? []), chapter, fonts: faces)
    } else {
      let spine = chapter.spine
      pages = onLargeStack {
        typesetter.numbered(typesetter.layoutChapter(spine).pages, from: chapter.firstPage)
      }
      guard matches(pages, chapter, fonts: faces) else { return nil }
      sources.laidOut += pages.count
      store(pages, chapter, fonts: faces)
    }
    let resources = document.resources
    let renderer = PageRenderer(
      fonts: typesetter.fonts, images: { href in resources.data(forHref: href) },
      embeddedFonts: document.fonts,
      scaledImages: cache.map { ScaledImageFiles(cache: $0, key: entry.key) })
    return (Dictionary(pages.map { ($0.number, $0) }, uniquingKeysWith: { a, _ in a }), renderer)
  }

  /// The chapter's pages from the checkpoint nearest before the first of `wanted` up to
  /// the last of them, numbered in place; nil when no page after the chapter's first has a
  /// checkpoint there or the layout cannot resume from it.
  private func resumedPages(
    _ chapter: LayoutCacheEntry.Chapter, _ wanted: [Int], _ typesetter: Typesetter
  ) -> [Page]? {
    guard let low = wanted.first, let high = wanted.last,
      entry.checkpoints.count == entry.index.count
    else { return nil }
    var page = low - chapter.firstPage
    while page >= 1 && entry.checkpoints[chapter.firstPage - 1 + page] == nil { page -= 1 }
    guard page >= 1, let checkpoint = entry.checkpoints[chapter.firstPage - 1 + page] else {
      return nil
    }
    let (start, count) = (page, high - chapter.firstPage - page + 1)
    guard
      let resumed = onLargeStack({
        typesetter.resumeChapter(chapter.spine, from: checkpoint, page: start, count: count)
      }), resumed.pages.count >= count
    else { return nil }
    return typesetter.numbered(Array(resumed.pages.prefix(count)), from: chapter.firstPage + start)
  }

  /// Which of this run's font table's faces (by `FontID`) the entry's chapter uses.
  private static func allowed(_ fonts: [FontFace], in chapter: LayoutCacheEntry.Chapter)
    -> [Bool]
  {
    fonts.map { chapter.fonts.contains($0.name) }
  }

  /// Whether a page not laid out with the whole chapter (resumed, or decoded) is the entry's
  /// page: in the chapter, same spine, href and Locations, and only fonts the entry's chapter
  /// uses (`allowed`, by `FontID`).
  private func matches(_ page: Page, _ chapter: LayoutCacheEntry.Chapter, allowed: [Bool])
    -> Bool
  {
    guard page.number >= chapter.firstPage, page.number < chapter.firstPage + chapter.pageCount,
      page.number >= 1, page.number <= entry.index.count
    else { return false }
    let cached = entry.index[page.number - 1]
    guard cached.spine == page.spine, cached.href == page.href,
      cached.start == BookLocation(page.start), cached.end == BookLocation(page.end)
    else { return false }
    var known = true
    for item in page.items {
      item.forEachGlyphRun { run in
        if !allowed.indices.contains(run.font) || !allowed[run.font] { known = false }
      }
    }
    return known
  }

  /// The chapter's display-list file, nil when there is none or it is not this entry's
  /// chapter drawn with this font table: its pages (all of the chapter's, or those that
  /// renders resumed) ascend and each is the entry's page.
  private func storedDrawings(
    _ chapter: LayoutCacheEntry.Chapter, fonts: [FontFace], allowed: [Bool]
  ) -> ChapterDrawings? {
    guard let cache, let drawings = cache.drawings(entry.key, spine: chapter.spine),
      drawings.key == entry.key, drawings.spine == chapter.spine,
      drawings.firstPage == chapter.firstPage, drawings.fonts == fonts.map(\.name),
      zip(drawings.pages, drawings.pages.dropFirst()).allSatisfy({ $0.number < $1.number }),
      drawings.pages.allSatisfy({ matches($0, chapter, allowed: allowed) })
    else { return nil }
    return drawings
  }

  /// `fresh` pages and the `kept` ones of other numbers, by number.
  static func merge(_ fresh: [Page], into kept: [Page]) -> [Page] {
    let numbers = Set(fresh.map(\.number))
    return (fresh + kept.filter { !numbers.contains($0.number) }).sorted {
      $0.number < $1.number
    }
  }

  /// Writes display lists of a chapter's pages, all of them or the ones laid out so far
  /// (a failure is only slower).
  private func store(_ pages: [Page], _ chapter: LayoutCacheEntry.Chapter, fonts: [FontFace]) {
    guard let cache, let href = pages.first?.href else { return }
    cache.store(
      ChapterDrawings(
        key: entry.key, spine: chapter.spine, firstPage: chapter.firstPage, href: href,
        fonts: fonts.map(\.name), pages: pages))
  }

  /// Whether freshly laid out `pages` are the entry's pages of `chapter`.
  private func matches(_ pages: [Page], _ chapter: LayoutCacheEntry.Chapter, fonts: [FontFace])
    -> Bool
  {
    guard pages.count == chapter.pageCount else { return false }
    var used: [String] = []
    for page in pages {
      let cached = entry.index[page.number - 1]
      guard cached.spine == page.spine, cached.href == page.href,
        cached.start == BookLocation(page.start), cached.end == BookLocation(page.end)
      else { return false }
      for item in page.items {
        item.forEachGlyphRun { run in
          guard fonts.indices.contains(run.font) else { return }
          let name = fonts[run.font].name
          if !used.contains(name) { used.append(name) }
        }
      }
    }
    return used == chapter.fonts
  }
}

extension LayoutCacheEntry {
  /// What `quire paginate` reports, from the entry alone.
  var pageMap: PageMap {
    PageMap(
      pageCount: index.count, layout: layout,
      warnings: diagnostics.entries.map(WarningEntry.init), pages: index, stats: nil)
  }
}

extension Manifest {
  /// The head of a manifest (its page list empty) from a cached layout and the diagnostics
  /// of this run; nil when the entry's TOC does not decode.
  init?(cached entry: LayoutCacheEntry, diagnostics: DiagnosticLog) {
    guard let toc = entry.toc else { return nil }
    book = entry.book
    layout = entry.layout
    pageCount = entry.index.count
    self.toc = toc
    warnings = diagnostics.entries.map(WarningInfo.init)
    pages = []
  }
}

extension LayoutCache {
  /// Stores the layout of a completely paginated book (an incomplete one is not stored).
  /// Nothing is encoded for a cache that cannot be written (`isWritable`): building the
  /// entry of moby-dick costs ~60 M instructions only for the store to fail.
  func remember(
    _ book: PaginatedBook, settings: LayoutSettings, key: LayoutCacheKey?, boxes: Bool
  ) {
    guard let key, book.complete, isWritable,
      let entry = LayoutCacheEntry(book, settings: settings, key: key, boxes: boxes)
    else { return }
    store(entry, key)
  }
}
