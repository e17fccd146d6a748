import Foundation
import QuireIngest
import QuireTestSupport
import Testing

@testable import QuireTypeset

/// Whitespace-normalized running text of a document's chapters, soft hyphens removed,
/// without the notes `--footnotes foot` (the default) moves to the page feet.
func sourceText(_ doc: Document, chapter: Int? = nil) -> String {
  var s = ""
  func walk(_ blocks: [Block], moved: Set<Location>) {
    for b in blocks where !(b.note != nil && moved.contains(b.location)) {
      for i in b.inlines {
        if case .text(let r) = i { s += " " + r.text }
      }
      s += " "
      walk(b.children, moved: moved)
    }
  }
  for c in doc.chapters where chapter == nil || c.spineIndex == chapter {
    walk(c.blocks, moved: Set(c.movedNotes(.foot).map(\.location)))
  }
  return normalize(s)
}

func normalize(_ s: String) -> String {
  s.replacingOccurrences(of: "\u{AD}", with: "").lowercased().split(whereSeparator: \.isWhitespace)
    .joined()
}

/// Nil when equal; else the first difference with some context on both sides.
func firstDifference(_ a: String, _ b: String) -> String? {
  if a == b { return nil }
  let x = Array(a.unicodeScalars)
  let y = Array(b.unicodeScalars)
  var i = 0
  while i < min(x.count, y.count), x[i] == y[i] { i += 1 }
  func around(_ s: [Unicode.Scalar]) -> String {
    var out = ""
    out.unicodeScalars.append(contentsOf: s[max(0, i - 60)..<min(s.count, i + 60)])
    return out
  }
  return "at \(i): shown …\(around(x))… source …\(around(y))…"
}

func shownText(_ pages: [Page]) -> String {
  normalize(
    pages.flatMap { $0.lines.filter { $0.role == .text }.map(\.text) }.joined(separator: " "))
}

@Suite struct PaginateTests {
  static func novel() -> Document? {
    guard let path = Corpus.existingPath("pride-and-prejudice.txt") else { return nil }
    return DocumentBuilder.plainText(path, chapters: 6)
  }

  @Test func noLineCrossesThePageBottom() throws {
    guard let doc = PaginateTests.novel() else { return }
    for opts in [LayoutOptions(), LayoutOptions.small] {
      let book = try Typesetter(document: doc, options: opts).layoutBook(threads: 2)
      let bottom = Double(opts.height) - opts.margins.bottom + 0.001
      for p in book.pages {
        for l in p.lines where l.role == .text {
          #expect(l.rect.maxY <= bottom, "page \(p.number): \(l.text)")
          #expect(l.rect.y >= opts.margins.top - 0.001)
        }
      }
    }
  }

  @Test func everyCharacterAppearsInPageOrder() throws {
    guard let doc = PaginateTests.novel() else { return }
    let book = try Typesetter(document: doc, options: LayoutOptions()).layoutBook(threads: 2)
    #expect(firstDifference(shownText(book.pages), sourceText(doc)) == nil)
    // Locations only move forward.
    var last = Location(spine: 0, offset: 0)
    for p in book.pages {
      for l in p.lines {
        #expect(l.start >= last)
        #expect(l.end >= l.start)
        last = l.start
      }
      #expect(p.start <= p.end)
    }
  }

  @Test func aChapterAloneEqualsItsSliceOfTheBook() throws {
    guard let doc = PaginateTests.novel() else { return }
    let t = try Typesetter(document: doc, options: LayoutOptions())
    let book = t.layoutBook(threads: 2)
    var pageIndex = 0
    for c in doc.chapters.indices {
      let alone = t.layoutChapter(c)
      let slice = Array(book.pages[pageIndex..<(pageIndex + alone.pages.count)])
      #expect(slice.map(\.lines) == alone.pages.map(\.lines))
      #expect(slice.allSatisfy { $0.spine == c })
      pageIndex += alone.pages.count
    }
    #expect(pageIndex == book.pages.count)
    // Block numbers are unique per block and increase through the book.
    let blocks = book.pages.flatMap(\.lines).map(\.block)
    #expect(blocks == blocks.sorted())
  }

  /// Styles a worker resolved in earlier chapters (`StyleMemo`) give each chapter the pages
  /// it gets when laid out alone, whichever chapters came before, and a typesetter with
  /// other options resolves its own.
  @Test(.disabled(if: !Corpus.has("accessible_epub_3.epub"), Comment(rawValue: Corpus.missing)))
  func stylesKeptAcrossChaptersChangeNothing() throws {
    let doc = try Book.open(Corpus.url("accessible_epub_3.epub"))
    var small = LayoutOptions.small
    small.fontSize = 13
    for opts in [LayoutOptions(), small] {
      let t = try Typesetter(document: doc, options: opts)
      let worker = t.makeWorker()
      let forward = doc.chapters.indices.map { t.layoutChapter($0, worker: worker) }
      let backward = doc.chapters.indices.reversed().map { t.layoutChapter($0, worker: worker) }
      for (c, (a, b)) in zip(forward, backward.reversed()).enumerated() {
        let alone = t.layoutChapter(c)
        #expect(dump(a.pages) == dump(alone.pages), "chapter \(c)")
        #expect(a.pages.map(\.lines) == alone.pages.map(\.lines), "chapter \(c)")
        #expect(a.pages.map(\.items) == alone.pages.map(\.items), "chapter \(c)")
        #expect(dump(b.pages) == dump(alone.pages), "chapter \(c)")
        #expect(b.pages.map(\.items) == alone.pages.map(\.items), "chapter \(c)")
      }
    }
  }

  /// A worker that places no text blocks' boxes (`makeWorker(blocks: false)`) lays out the
  /// same pages, only without `blocks`.
  @Test(.disabled(if: !Corpus.has("accessible_epub_3.epub"), Comment(rawValue: Corpus.missing)))
  func pagesWithoutBlockBoxesAreTheSame() throws {
    let doc = try Book.open(Corpus.url("accessible_epub_3.epub"))
    let t = try Typesetter(document: doc, options: LayoutOptions())
    let (with, without) = (t.makeWorker(), t.makeWorker(blocks: false))
    var placed = 0
    for c in doc.chapters.indices {
      var a = t.layoutChapter(c, worker: with).pages
      let b = t.layoutChapter(c, worker: without).pages
      #expect(b.allSatisfy { $0.blocks.isEmpty })
      placed += a.map(\.blocks.count).reduce(0, +)
      for i in a.indices { a[i].blocks = [] }
      #expect(dump(a) == dump(b), "chapter \(c)")
      #expect(a.map(\.lines) == b.map(\.lines), "chapter \(c)")
      #expect(a.map(\.items) == b.map(\.items), "chapter \(c)")
    }
    #expect(placed > 0)
  }

  /// `BlockBoxes.place` grows the box of a line's block in place when the line before was
  /// the same block's: the same boxes as the general path (forced here by column shifts of
  /// zero on every line).
  @Test(.disabled(if: !Corpus.has("accessible_epub_3.epub"), Comment(rawValue: Corpus.missing)))
  func blockBoxesOfConsecutiveLinesMatchTheGeneralPath() throws {
    let doc = try Book.open(Corpus.url("accessible_epub_3.epub"))
    let t = try Typesetter(document: doc, options: LayoutOptions())
    var boxes: [Int: BlockBox] = [:]
    var pages: [Page] = []
    for c in doc.chapters.indices { pages += t.layoutChapter(c).pages }
    for p in pages { for b in p.blocks { boxes[b.index] = b } }
    var fast = pages
    var general = pages
    BlockBoxes.place(boxes, on: &fast)
    BlockBoxes.place(
      boxes, on: &general, lineShifts: pages.map { [Double](repeating: 0, count: $0.lines.count) })
    #expect(fast.map(\.blocks) == general.map(\.blocks))
    #expect(fast.map(\.blocks) == pages.map(\.blocks))
    #expect(fast.map(\.blocks.count).reduce(0, +) > 10)
  }

  @Test func layoutIsDeterministic() throws {
    guard let doc = PaginateTests.novel() else { return }
    let a = try Typesetter(document: doc, options: LayoutOptions()).layoutBook(threads: 1)
    let b = try Typesetter(document: doc, options: LayoutOptions()).layoutBook(threads: 2)
    #expect(dump(a.pages) == dump(b.pages))
    #expect(a.pages.map(\.items) == b.pages.map(\.items))
    #expect(a.key == b.key)
    var bigger = LayoutOptions()
    bigger.fontSize = 20
    let c = try Typesetter(document: doc, options: bigger)
    #expect(c.key != a.key)
    #expect(c.layoutBook(threads: 2).pages.count > a.pages.count)
  }

  @Test func forcedBreaksAndChaptersStartPages() throws {
    var b = DocumentBuilder()
    b.paragraph("One.")
    var st = ComputedStyle()
    st.breakBefore = .page
    b.paragraph("Two, on its own page.", st)
    b.paragraph("Three follows two.")
    b.endChapter()
    b.paragraph("Four, in chapter two.")
    b.endChapter()
    let book = try Typesetter(document: b.document(), options: LayoutOptions()).layoutBook(
      threads: 2)
    #expect(
      book.pages.map { $0.lines.map(\.text) } == [
        ["One."], ["Two, on its own page.", "Three follows two."], ["Four, in chapter two."],
      ])
    #expect(book.pages.map(\.number) == [1, 2, 3])
    #expect(book.pages.map(\.spine) == [0, 0, 1])
  }

  @Test func headingsKeepWithTheirParagraph() throws {
    var b = DocumentBuilder()
    var o = LayoutOptions.small
    o.align = .start
    // Fill the page to just above the bottom, then a heading: it must move with its text.
    let lines = Int(
      (Double(o.height) - o.margins.top - o.margins.bottom) / (o.fontSize * o.lineHeight))
    for i in 0..<(lines - 3) { b.paragraph("Line \(i).", b.style()) }
    b.heading("A Heading")
    b.paragraph("The paragraph after the heading.", b.style())
    b.endChapter()
    let book = try Typesetter(document: b.document(), options: o).layoutBook(threads: 1)
    let headingPage = book.pages.first { $0.lines.contains { $0.text == "A Heading" } }
    #expect(headingPage?.lines.contains { $0.text.hasPrefix("The paragraph") } == true)
  }
}

extension LayoutOptions {
  static var small: LayoutOptions {
    var o = LayoutOptions()
    o.width = 300
    o.height = 400
    o.margins = .proportional(width: 300, height: 400)
    o.fontSize = 14
    return o
  }
}

@Suite struct HostileLayoutTests {
  @Test func deepNestingIsLaidOutFlat() throws {
    var b = DocumentBuilder()
    var st = ComputedStyle()
    st.margin = EdgeLengths(left: .rem(1))
    let leaf = b.block(.paragraph, ComputedStyle(), inlines: [b.run("Deep text.")])
    var block = leaf
    for _ in 0..<3000 {
      block = Block(
        kind: .container, style: st, children: [block], location: leaf.location, element: "div")
    }
    b.add(block)
    b.paragraph("After.")
    b.endChapter()
    let book = try Typesetter(document: b.document(), options: .small).layoutBook(threads: 2)
    #expect(normalize(book.pages.flatMap(\.lines).map(\.text).joined()) == "deeptext.after.")
  }

  @Test func absurdSizesAreBounded() throws {
    var b = DocumentBuilder()
    var st = ComputedStyle()
    st.fontSize = 1e9
    st.margin = EdgeLengths(
      top: .rem(1e12), right: .percent(500), bottom: .rem(-1e12), left: .rem(.infinity))
    st.textIndent = .rem(.nan)
    st.lineHeight = .factor(1e6)
    b.paragraph("Still laid out.", st)
    b.add(
      Block(
        kind: .image(ImageRef(href: "x.png", alt: "", width: 1e-9, height: 1e12)), style: st,
        location: Location(spine: 0, offset: 0), element: "img"))
    b.endChapter()
    let o = LayoutOptions.small
    let book = try Typesetter(document: b.document(), options: o).layoutBook(threads: 1)
    #expect(normalize(book.pages.flatMap(\.lines).map(\.text).joined()) == "stilllaidout.")
    for p in book.pages {
      for l in p.lines {
        #expect(
          l.rect.y.isFinite && l.rect.x.isFinite
            && l.rect.maxY <= Double(o.height) - o.margins.bottom + 0.001)
      }
      for i in p.images {
        #expect(
          i.rect.height.isFinite && i.rect.maxY <= Double(o.height) - o.margins.bottom + 0.001)
      }
    }
  }

  @Test func badOptionsAreTypedErrors() {
    var o = LayoutOptions()
    o.margins = .init(top: 0, right: 400, bottom: 0, left: 400)
    #expect(throws: TypesetError.self) {
      try Typesetter(document: DocumentBuilder().document(), options: o)
    }
  }
}
