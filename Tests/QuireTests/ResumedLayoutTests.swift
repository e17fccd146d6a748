// Layouts resumed from page checkpoints (QuireTypeset's Pagination/FlowCheckpoint.swift):
// every page of a chapter that has a checkpoint, laid out from it, is the page of a whole
// layout of the chapter — display items, lines, images, block boxes and Locations — in long
// prose, a book with notes at the page foot, a CSS-heavy book with tables and floats,
// vertical Japanese and right-to-left Arabic; a resumed layout lays out fewer paragraphs than
// the chapter has (it cannot silently fall back to the whole chapter); chapters with notes
// keep none; and a cached render of a page never drawn resumes and matches an uncached one.

import Foundation
import QuireIngest
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

@Suite(.enabled(if: corpusPresent, Comment(rawValue: Corpus.missing)))
struct ResumedLayoutTests {
  /// What a page shows and says about itself (box fragments' indices are the resumed
  /// flow's own and not compared; their painted items are).
  struct Face: Equatable {
    var number: Int, spine: Int, href: String
    var start: Location, end: Location
    var items: [DisplayItem]
    var lines: [String]
    var images: [String]
    var blocks: [BlockBox]
    init(_ p: Page) {
      (number, spine, href, start, end) = (p.number, p.spine, p.href, p.start, p.end)
      items = p.items
      lines = p.lines.map { "\($0.text)|\($0.rect)|\($0.block)|\($0.start)|\($0.end)" }
      images = p.images.map { "\($0.href)|\($0.rect)" }
      blocks = p.blocks
    }
  }

  /// Text blocks in a block tree.
  static func textBlocks(_ blocks: [Block]) -> Int {
    blocks.reduce(0) { $0 + ($1.inlines.isEmpty ? 0 : 1) + textBlocks($1.children) }
  }

  struct Tally {
    var pages = 0
    var checkpointed = 0
    /// Checkpointed pages resumed and compared.
    var compared = 0
    /// The kinds of checkpoint compared (see `kind`).
    var kinds: Set<String> = []
    /// Paragraphs a resume laid out, and the chapter's text blocks, for the latest page
    /// checkpointed in each chapter.
    var resumedParagraphs = 0
    var chapterParagraphs = 0
    var notedChapters = 0
    var notedChaptersWithCheckpoints = 0
  }

  /// What a checkpoint restores besides a block's start: lines to skip inside the block,
  /// ancestors entered again, boxes waiting to open, a forced break, a list marker, pending
  /// space or margins.
  static func kind(_ c: FlowCheckpoint) -> String {
    [
      c.skip > 0 ? "inside" : "start", c.path.count > 1 ? "nested" : "top",
      c.pendingOpens > 0 ? "opens" : "", c.pendingBreak ? "break" : "",
      c.pendingMarker != nil ? "marker" : "",
      c.pendingSpace != 0 || c.marginPos != 0 || c.marginNeg != 0 ? "space" : "",
    ].filter { !$0.isEmpty }.joined(separator: "+")
  }

  /// The checkpointed pages (indices into `checkpoints`) a sampled comparison resumes: each
  /// chapter's first, middle and last, and the first of each kind not seen yet in the book.
  static func sample(_ checkpoints: [FlowCheckpoint?], seen: inout Set<String>) -> [Int] {
    let all = checkpoints.indices.filter { checkpoints[$0] != nil }
    guard !all.isEmpty else { return [] }
    var chosen: Set<Int> = [all[0], all[all.count / 2], all[all.count - 1]]
    for p in all {
      if seen.insert(kind(checkpoints[p]!)).inserted { chosen.insert(p) }
    }
    for p in chosen { seen.insert(kind(checkpoints[p]!)) }
    return chosen.sorted()
  }

  /// Resumes every checkpointed page of `book` (its chapters in `chapters`, all when nil;
  /// with `sampled`, the pages `sample` picks) for one page and compares it with the whole
  /// layout's; the last checkpoint of each chapter also resumes to the chapter's end.
  static func compare(
    _ book: String, settings: LayoutSettings = LayoutSettings(pageWidth: 360, pageHeight: 480),
    chapters: Range<Int>? = nil, sampled: Bool = false
  ) throws -> Tally {
    let document = try Book.open(URL(fileURLWithPath: book), options: settings.ingestOptions)
    let typesetter = try Typesetter(document: document, options: settings.layoutOptions)
    let worker = typesetter.makeWorker(checkpoints: true)
    var tally = Tally()
    let name = (book as NSString).lastPathComponent
    for chapter in document.chapters where chapters?.contains(chapter.spineIndex) ?? true {
      let k = chapter.spineIndex
      let full = typesetter.layoutChapter(k, worker: worker)
      tally.pages += full.pages.count
      #expect(full.checkpoints.count == full.pages.count)
      #expect(full.checkpoints.first.map { $0 == nil } ?? true, "\(name) \(k): page 1")
      if full.pages.contains(where: { $0.lines.contains { $0.role == .note } }) {
        tally.notedChapters += 1
        if full.checkpoints.contains(where: { $0 != nil }) {
          tally.notedChaptersWithCheckpoints += 1
        }
      }
      var last: (page: Int, checkpoint: FlowCheckpoint)? = nil
      let chosen: Set<Int>? =
        sampled ? Set(sample(full.checkpoints, seen: &tally.kinds)) : nil
      for (p, c) in full.checkpoints.enumerated() {
        guard let c else { continue }
        tally.checkpointed += 1
        last = (p, c)
        guard chosen?.contains(p) ?? true else { continue }
        tally.compared += 1
        if chosen == nil { tally.kinds.insert(kind(c)) }
        let resumed = try #require(
          typesetter.resumeChapter(k, from: c, page: p, count: 1), "\(name) \(k) page \(p + 1)")
        #expect(
          resumed.pages.first.map(Face.init) == Face(full.pages[p]),
          "\(name): chapter \(k) page \(p + 1) resumed")
      }
      guard let last else { continue }
      let rest = full.pages.count - last.page
      let resumed = try #require(
        typesetter.resumeChapter(k, from: last.checkpoint, page: last.page, count: rest))
      #expect(resumed.pages.map(Face.init) == full.pages[last.page...].map(Face.init))
      tally.resumedParagraphs += resumed.paragraphs
      tally.chapterParagraphs += textBlocks(chapter.blocks)
    }
    return tally
  }

  @Test func mobyDickChaptersResumeOnEveryCheckpointedPage() throws {
    let t = try Self.compare(corpusBook("moby-dick.epub"), chapters: 0..<10)
    #expect(t.pages > 40)
    // Plain prose: nearly every page break has a checkpoint.
    #expect(t.checkpointed * 10 > t.pages * 8, "\(t.checkpointed) of \(t.pages)")
    // The resumes from each chapter's last checkpoint skipped most paragraphs.
    #expect(t.resumedParagraphs * 3 < t.chapterParagraphs, "\(t)")
  }

  @Test func footnotesResumeOnlyInChaptersWithoutNotes() throws {
    let book = Corpus.packageRoot.appendingPathComponent("Tests/QuireTests/Fixtures/footnotes.epub")
    let t = try Self.compare(book.path, settings: LayoutSettings(pageWidth: 300, pageHeight: 400))
    #expect(t.notedChapters > 0)
    #expect(t.notedChaptersWithCheckpoints == 0)
  }

  @Test(arguments: [
    "accessible_epub_3.epub", "childrens-literature.epub", "jlreq-in-japanese.epub",
    "regime-anticancer-arabic.epub",
  ])
  func corpusBookResumesOnSampledPages(_ name: String) throws {
    let t = try Self.compare(corpusBook(name), sampled: true)
    #expect(t.checkpointed > 0, "\(name): no checkpoint in \(t.pages) pages")
    #expect(t.compared > 0 && t.compared <= t.checkpointed, "\(name): \(t)")
  }

  /// Every checkpointed page of every chapter of moby-dick (slow in a debug build: runs with
  /// QUIRE_SLOW=1).
  @Test(.enabled(if: ProcessInfo.processInfo.environment["QUIRE_SLOW"] == "1"))
  func mobyDickResumesOnEveryCheckpointedPageOfEveryChapter() throws {
    let t = try Self.compare(corpusBook("moby-dick.epub"))
    #expect(t.compared == t.checkpointed && t.checkpointed * 10 > t.pages * 7, "\(t)")
  }

  /// Proof the resume skips: a page deep in a long chapter is laid out from its checkpoint
  /// with a few paragraphs, and the walk stops early.
  @Test func resumingLaysOutOnlyAFewParagraphs() throws {
    let s = LayoutSettings(pageWidth: 360, pageHeight: 480)
    let document = try Book.open(
      URL(fileURLWithPath: corpusBook("moby-dick.epub")), options: s.ingestOptions)
    let typesetter = try Typesetter(document: document, options: s.layoutOptions)
    let worker = typesetter.makeWorker(checkpoints: true)
    let longest = try #require(
      document.chapters.max { Self.textBlocks($0.blocks) < Self.textBlocks($1.blocks) })
    let full = typesetter.layoutChapter(longest.spineIndex, worker: worker)
    let middle = full.pages.count / 2
    let p = try #require((1...middle).reversed().first { full.checkpoints[$0] != nil })
    let resumed = try #require(
      typesetter.resumeChapter(
        longest.spineIndex, from: full.checkpoints[p]!, page: p, count: 1))
    #expect(resumed.stoppedEarly)
    #expect(resumed.paragraphs >= 1)
    #expect(resumed.paragraphs * 5 < Self.textBlocks(longest.blocks), "\(resumed.paragraphs)")
    #expect(resumed.pages.first.map(Face.init) == Face(full.pages[p]))
  }
}

/// The cached path: `render --pages N` after `paginate` resumes N's chapter from the entry's
/// checkpoint, draws exactly the page of an uncached render and adds the pages it laid out to
/// the chapter's display-list file, so a second render of N lays nothing out; damaged checkpoints never crash and never change
/// a page (a checkpoint that does not fit the chapter falls back to the chapter's layout, one
/// that lays out other pages fails the check against the map and takes the whole-book path).
@Suite struct ResumedCachedRenderTests {
  let s = LayoutSettings(pageWidth: 300, pageHeight: 400)

  func render(_ book: URL, _ pages: [Int]?, _ cache: LayoutCache?, _ name: String) throws -> URL {
    try run(book, pages, cache, name).output
  }

  func run(_ book: URL, _ pages: [Int]?, _ cache: LayoutCache?, _ name: String) throws -> (
    output: URL, sources: CachedLayout.Sources?
  ) {
    var r = RenderRequest(book: book, output: URL(fileURLWithPath: temporaryFolder(name)))
    r.layout = s
    if let pages { r.pages = PageSelection(pages: pages) }
    r.threads = 1
    r.cache = cache
    let summary = try RenderJob.run(r)
    return (r.output, summary.cachedSources)
  }

  func removeDrawings(_ cache: LayoutCache) throws {
    for f in drawingFiles(cache) {
      try FileManager.default.removeItem(atPath: cache.directory.appendingPathComponent(f).path)
    }
  }

  func drawingFiles(_ cache: LayoutCache) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: cache.directory.path)) ?? [])
      .filter { $0.hasSuffix(DisplayListFile.suffix) }
  }

  @Test func undrawnPagesResumeFromTheirCheckpointsAndMatch() throws {
    let book = try cacheTestBook("rl-book")
    let cache = LayoutCache(directory: URL(fileURLWithPath: temporaryFolder("rl-cache")))
    var p = PaginateRequest(book: book)
    p.layout = s
    p.cache = cache
    _ = try PaginateJob.run(p)
    let key = try #require(cache.key(book, s))
    let entry = try #require(cache.load(key))
    let full = try render(book, nil, nil, "rl-full")
    let digits = max(4, String(entry.index.count).count)
    let resumable = (1...entry.index.count).filter { entry.checkpoints[$0 - 1] != nil }
    #expect(resumable.count * 2 > entry.index.count, "\(resumable.count) of \(entry.index.count)")
    for pass in ["resumes", "decodes"] {
      for n in resumable {
        let (out, sources) = try run(book, [n], cache, "rl-\(n)")
        let file = pageFileName(n, digits: digits)
        #expect(
          try Data(contentsOf: out.appendingPathComponent(file))
            == Data(contentsOf: full.appendingPathComponent(file)), "page \(n), \(pass)")
        // Each page has its own checkpoint: the first render lays out that page alone; the
        // second finds it in the chapter's display lists and lays nothing out.
        let expected =
          pass == "resumes"
          ? CachedLayout.Sources(decoded: 0, laidOut: 1, resumed: 1)
          : CachedLayout.Sources(decoded: 1, laidOut: 0, resumed: 0)
        #expect(sources == expected, "page \(n), \(pass)")
      }
    }
    // The chapters' files hold exactly the pages the renders resumed.
    let kept = entry.chapters.flatMap { cache.drawings(entry.key, spine: $0.spine)?.pages ?? [] }
    #expect(kept.map(\.number) == resumable)
    try removeDrawings(cache)

    // Checkpoints whose path leaves the chapter: the chapter is laid out (its display list
    // written), the page is right.
    var lost = entry
    lost.checkpoints = entry.checkpoints.map {
      $0.map { c in
        var c = c
        c.path = [999]
        return c
      }
    }
    #expect(cache.store(lost, key))
    let n = try #require(resumable.last)
    let file = pageFileName(n, digits: digits)
    let expected = try Data(contentsOf: full.appendingPathComponent(file))
    #expect(
      try Data(contentsOf: render(book, [n], cache, "rl-lost").appendingPathComponent(file))
        == expected)
    #expect(!drawingFiles(cache).isEmpty)
    try removeDrawings(cache)

    // Checkpoints that skip one entry too many: other pages, refused by the map check; the
    // whole-book path draws the page and stores the entry again, checkpoints and all.
    var shifted = entry
    shifted.checkpoints = entry.checkpoints.map {
      $0.map { c in
        var c = c
        c.skip += 1
        return c
      }
    }
    #expect(cache.store(shifted, key))
    #expect(
      try Data(contentsOf: render(book, [n], cache, "rl-shifted").appendingPathComponent(file))
        == expected)
    #expect(cache.load(key)?.checkpoints == entry.checkpoints)
  }

  /// Every cut and every byte changed of a real checkpoint section decodes or is refused,
  /// never crashes, and what decodes is plausible; resuming from any plausible checkpoint
  /// never crashes either.
  @Test func damagedCheckpointSectionsAreRefusedOrPlausible() throws {
    let book = try cacheTestBook("rl-fuzz-book")
    let document = try Book.open(book, options: s.ingestOptions)
    let typesetter = try Typesetter(document: document, options: s.layoutOptions)
    let worker = typesetter.makeWorker(checkpoints: true)
    let layout = typesetter.layoutChapter(1, worker: worker)
    let bytes = CheckpointSection.encode(layout.checkpoints)
    #expect(
      CheckpointSection.decode(Data(bytes), count: layout.checkpoints.count) == layout.checkpoints)
    for cut in 0..<bytes.count {
      #expect(
        CheckpointSection.decode(Data(bytes.prefix(cut)), count: layout.checkpoints.count) == nil)
    }
    var decoded = 0
    for at in bytes.indices {
      for delta: UInt8 in [1, 0x40, 0x80, 0xFF] {
        var damaged = bytes
        damaged[at] &+= delta
        guard let list = CheckpointSection.decode(Data(damaged), count: layout.checkpoints.count)
        else { continue }
        decoded += 1
        for (page, c) in list.enumerated() where c != layout.checkpoints[page] {
          guard let c else { continue }
          #expect(c.isPlausible)
          _ = typesetter.resumeChapter(1, from: c, page: max(1, page), count: 2, worker: worker)
        }
      }
    }
    #expect(decoded > 0)
  }
}
