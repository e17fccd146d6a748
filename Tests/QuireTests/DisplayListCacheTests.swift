// The chapters' display lists kept beside a layout cache entry (DisplayListFile.swift): every
// page of real books (long prose, a CSS-heavy book, footnotes at the page foot, vertical-rl
// text) drawn from a decoded display list is byte-identical to the same page of a full
// uncached render; the file round-trips every page's painting exactly (fixed layout
// included); a damaged, truncated or foreign file is a miss that is laid out and written
// again; and the decoded lists are what is drawn (a tampered file shows in the pixels).

import Foundation
import QuireCore
import QuireRaster
import QuireTestSupport
import QuireTypeset
import Synchronization
import Testing

@testable import Quire

/// A fixture book of the QuireTests target.
private func fixture(_ path: String) -> URL {
  Corpus.packageRoot.appendingPathComponent("Tests/QuireTests/Fixtures/" + path)
}

/// The cache's display-list files.
private func drawingFiles(_ cache: LayoutCache) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: cache.directory.path)) ?? [])
    .filter { $0.hasSuffix(DisplayListFile.suffix) }.sorted()
}

/// Renders `pages` of `book` through `cache` into a fresh folder named `name`.
private func cachedRender(
  _ book: URL, _ pages: [Int], _ s: LayoutSettings, _ cache: LayoutCache, _ name: String
) throws -> URL {
  var r = RenderRequest(book: book, output: URL(fileURLWithPath: temporaryFolder(name)))
  r.layout = s
  r.pages = PageSelection(pages: pages)
  r.threads = 1
  r.cache = cache
  let summary = try RenderJob.run(r)
  #expect(summary.rendered == pages.count)
  return r.output
}

/// The entry of `book` stored in `cache` by a cached paginate.
private func filledEntry(_ book: URL, _ s: LayoutSettings, _ cache: LayoutCache) throws
  -> LayoutCacheEntry
{
  var p = PaginateRequest(book: book)
  p.layout = s
  p.cache = cache
  _ = try PaginateJob.run(p)
  let key = try #require(cache.key(book, s))
  return try #require(cache.load(key))
}

/// Every page of `book` rendered through the cache, chapter by chapter, twice (the first
/// run lays each chapter out and writes its display lists, the second decodes them), is
/// byte-identical to the page of one uncached render of the whole book. Returns the cache.
@discardableResult
private func everyCachedPageMatchesTheFullRender(_ book: URL, _ name: String) throws
  -> LayoutCache
{
  let s = LayoutSettings(pageWidth: 360, pageHeight: 480)
  var full = RenderRequest(
    book: book, output: URL(fileURLWithPath: temporaryFolder("dl-\(name)-full")))
  full.layout = s
  full.threads = 2
  let pageCount = try RenderJob.run(full).pageCount
  let cache = LayoutCache(directory: URL(fileURLWithPath: temporaryFolder("dl-\(name)-cache")))
  let entry = try filledEntry(book, s, cache)
  #expect(entry.index.count == pageCount)
  var compared = 0
  for chapter in entry.chapters {
    let numbers = Array(chapter.firstPage..<(chapter.firstPage + chapter.pageCount))
    for chunk in stride(from: 0, to: numbers.count, by: CachedLayout.maxCachedPages) {
      let pages = Array(numbers[chunk..<min(numbers.count, chunk + CachedLayout.maxCachedPages)])
      for pass in ["lays-out", "decodes"] {
        let out = try cachedRender(book, pages, s, cache, "dl-\(name)-\(pass)")
        #expect(
          cache.drawings(entry.key, spine: chapter.spine)?.pages.count == chapter.pageCount,
          "\(name): chapter \(chapter.spine)'s display lists after the \(pass) run")
        for n in pages {
          let file = pageFileName(n, digits: max(4, String(pageCount).count))
          let a = try Data(contentsOf: full.output.appendingPathComponent(file))
          let b = try Data(contentsOf: out.appendingPathComponent(file))
          #expect(a == b, "\(name): page \(n), \(pass) run")
          compared += 1
        }
      }
    }
  }
  #expect(compared == 2 * pageCount)
  return cache
}

@Suite struct DisplayListCacheTests {
  @Test(.enabled(if: Corpus.has("moby-dick.epub"), Comment(rawValue: Corpus.missing)))
  func everyPageOfMobyDickDrawsFromItsDisplayList() throws {
    let cache = try everyCachedPageMatchesTheFullRender(Corpus.url("moby-dick.epub"), "moby")
    // Its four embedded OTF fonts were kept by the first chapter that used them, and every
    // later page drew with the kept bytes (KeptFontFile.swift).
    let kept = try FileManager.default.contentsOfDirectory(atPath: cache.directory.path)
    #expect(kept.filter { $0.hasSuffix(KeptFontFile.suffix) }.count == 4)
  }

  @Test(.enabled(if: Corpus.has("accessible_epub_3.epub"), Comment(rawValue: Corpus.missing)))
  func everyPageOfACSSHeavyBookDrawsFromItsDisplayList() throws {
    try everyCachedPageMatchesTheFullRender(Corpus.url("accessible_epub_3.epub"), "a11y")
  }

  @Test func everyPageOfFootnoteAndVerticalBooksDrawsFromItsDisplayList() throws {
    try everyCachedPageMatchesTheFullRender(fixture("footnotes.epub"), "notes")
    try everyCachedPageMatchesTheFullRender(fixture("vertical/vertical-jlreq.epub"), "vertical")
  }

  /// The file keeps every page's painting exactly: decode(encode(chapter)) == chapter for
  /// every chapter of books with fixed-layout pages (viewports, backgrounds), embedded and
  /// obfuscated fonts, tables, images and vertical text.
  @Test func theFileRoundTripsEveryPagesPainting() throws {
    var books = [fixture("footnotes.epub"), fixture("vertical/vertical-jlreq.epub")]
    for name in ["haruko-html-jpeg.epub", "wasteland-otf-obf.epub", "accessible_epub_3.epub"]
    where Corpus.has(name) {
      books.append(Corpus.url(name))
    }
    for book in books {
      var plan = PaginationPlan()
      plan.wanted = .all
      plan.threads = 2
      let collected = Mutex<[Page]>([])
      _ = try BookPagination(path: book.path, settings: LayoutSettings(), plan: plan)
        .run(visit: { page, _ in collected.withLock { $0.append(page) } })
      let pages = collected.withLock { $0 }.sorted { $0.number < $1.number }
      #expect(!pages.isEmpty)
      var items = 0
      for spine in Set(pages.map(\.spine)).sorted() {
        let chapter = pages.filter { $0.spine == spine }
        items += chapter.reduce(0) { $0 + $1.items.count }
        let drawings = ChapterDrawings(
          key: "k", spine: spine, firstPage: chapter[0].number, href: chapter[0].href,
          fonts: ["a", "b"], pages: chapter)
        let bytes = try #require(DisplayListFile.encode(drawings))
        let decoded = DisplayListFile.decode(bytes)
        #expect(decoded == drawings, "\(book.lastPathComponent) spine \(spine)")
      }
      #expect(items > 0, "\(book.lastPathComponent)")
    }
  }

  /// A damaged, truncated or foreign display-list file is a miss: the page is still
  /// byte-identical, and the file is written again as it was.
  @Test func damagedDisplayListsAreMissesAndRewritten() throws {
    let book = try cacheTestBook("dl-damaged-book")
    let s = LayoutSettings(pageWidth: 300, pageHeight: 400)
    let cache = LayoutCache(directory: URL(fileURLWithPath: temporaryFolder("dl-damaged")))
    let entry = try filledEntry(book, s, cache)
    let chapter = entry.chapters[1]
    let n = chapter.firstPage + chapter.pageCount / 2
    let reference = try cachedRender(book, [n], s, cache, "dl-damaged-ref")
    let path = cache.drawingsPath(entry.key, spine: chapter.spine)
    let good = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(DisplayListFile.decode(good) != nil)
    let step = max(1, good.count / 200)
    for offset in Array(stride(from: 0, to: good.count, by: step)) + [good.count - 1] {
      var flipped = good
      flipped[offset] ^= 0x5A
      #expect(DisplayListFile.decode(flipped) == nil, "byte \(offset) flipped")
      #expect(DisplayListFile.decode(Array(good.prefix(offset))) == nil, "cut at \(offset)")
    }
    // A damaged payload under a matching checksum decodes to something or nothing; never a
    // crash, never a read past the end.
    for offset in stride(from: DisplayListFile.headerSize, to: good.count, by: step) {
      var payload = Array(good.dropFirst(DisplayListFile.headerSize))
      payload[offset - DisplayListFile.headerSize] &+= 13
      var bytes = Array(good.prefix(12))
      LayoutCacheFile.append(&bytes, UInt64(LayoutCacheFile.crc(payload)), bytes: 4)
      bytes += good[16..<DisplayListFile.headerSize] + payload
      _ = DisplayListFile.decode(bytes)
    }
    // Another chapter's file under this chapter's name is refused by its spine and pages.
    _ = try cachedRender(book, [entry.chapters[0].firstPage], s, cache, "dl-damaged-other")
    let other = try [UInt8](
      Data(contentsOf: URL(fileURLWithPath: cache.drawingsPath(entry.key, spine: 0))))
    for damaged in [Array(good.prefix(good.count / 2)), [UInt8](), other] {
      try Data(damaged).write(to: URL(fileURLWithPath: path))
      let out = try cachedRender(book, [n], s, cache, "dl-damaged-out")
      let file = pageFileName(n, digits: 4)
      #expect(
        try Data(contentsOf: out.appendingPathComponent(file))
          == Data(contentsOf: reference.appendingPathComponent(file)))
      #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == good)
    }
  }

  /// The pages drawn are the decoded ones: a file whose page lost its items (checksum
  /// fixed) draws a blank page; the layout cache's eviction counts the files.
  @Test func theDecodedDisplayListIsWhatIsDrawn() throws {
    let book = try cacheTestBook("dl-tamper-book")
    let s = LayoutSettings(pageWidth: 300, pageHeight: 400)
    let cache = LayoutCache(directory: URL(fileURLWithPath: temporaryFolder("dl-tamper")))
    let entry = try filledEntry(book, s, cache)
    let chapter = entry.chapters[0]
    let n = chapter.firstPage
    _ = try cachedRender(book, [n], s, cache, "dl-tamper-first")
    #expect(drawingFiles(cache) == ["\(entry.key)-\(chapter.spine)\(DisplayListFile.suffix)"])
    var drawings = try #require(cache.drawings(entry.key, spine: chapter.spine))
    drawings.pages[0].items = []
    #expect(cache.store(drawings))
    let out = try cachedRender(book, [n], s, cache, "dl-tamper-blank")
    let png = try Data(contentsOf: out.appendingPathComponent(pageFileName(n, digits: 4)))
    let image = try PNGCodec.decode(png)
    #expect(image.pixels.allSatisfy { $0 == 255 }, "a blank page: the decoded list was drawn")
    #expect(cache.entries().contains { $0.name.hasSuffix(DisplayListFile.suffix) })
  }
}
