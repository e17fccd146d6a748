import Foundation
import QuireIngest
import QuireRaster
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

/// Footnotes of issue #10 on Fixtures/footnotes.epub (make-footnotes.py): chapter 1 marks
/// notes the EPUB 3 way, chapter 2 with DPUB-ARIA roles. Pages are 400×500.
@Suite struct FootnoteTests {
  static let fixture = packageRoot.appendingPathComponent(
    "Tests/QuireTests/Fixtures/footnotes.epub"
  ).path

  static func book(_ placement: FootnotePlacement) throws -> EagerBook {
    var settings = LayoutSettings(pageWidth: 400, pageHeight: 500)
    settings.footnotes = placement
    return try EagerBook(fixture, settings: settings)
  }

  /// (note's first words, the text its reference line holds) for every note of the fixture.
  static let notes = [
    ("1. A short", "reference.1"), ("2. A plain", "aside.2"), ("3. A long", "note.3"),
    ("* A footnote", "role.*"), ("[e1] An endnote", "reference.[e1]"),
  ]

  @Test func ingestMarksTheNotes() throws {
    let doc = try Self.book(.foot).document
    var marks: [String: NoteMark.Kind] = [:]
    func walk(_ blocks: [Block]) {
      for b in blocks {
        if let m = b.note { marks[m.id] = m.kind }
        walk(b.children)
      }
    }
    for c in doc.chapters { walk(c.blocks) }
    // The sidebar aside (no id, nothing refers to it) is not a note.
    #expect(
      marks == ["fn1": .footnote, "fn2": .aside, "fn3": .footnote, "n1": .footnote, "e1": .endnote])
  }

  @Test func notesSitAtTheFootOfTheReferringPage() throws {
    let book = try Self.book(.foot)
    let pages = book.layout.pages
    for (note, reference) in Self.notes {
      let notePage = try #require(
        pages.first { $0.lines.contains { $0.role == .note && $0.text.hasPrefix(note) } }, "\(note)"
      )
      #expect(
        notePage.lines.contains { $0.role == .text && $0.text.contains(reference) },
        "\(note) is not on the page of its reference")
    }
    let bottom = 500.0 - LayoutSettings(pageWidth: 400, pageHeight: 500).effectiveMargins.bottom
    for p in pages {
      let body = p.lines.filter { $0.role == .text }
      let feet = p.lines.filter { $0.role == .note }
      guard let firstNote = feet.first else { continue }
      // Below the running text, smaller, the last one ending at the text area's bottom.
      #expect((body.map(\.rect.maxY).max() ?? 0) < firstNote.rect.y - 8, "page \(p.number)")
      #expect(abs((feet.last?.rect.maxY ?? 0) - bottom) < 1, "page \(p.number)")
      #expect(feet.allSatisfy { $0.rect.height < (body.first?.rect.height ?? 99) })
      // The short rule above the foot: a third of the text width.
      let rules = p.items.compactMap { item -> Rect? in
        if case .fill(let r, _) = item, r.height <= 2, r.maxY <= firstNote.rect.y { return r }
        return nil
      }
      #expect(rules.count == 1 && abs((rules.first?.width ?? 0) - (400 - 66) / 3) < 0.5)
    }
    // The sidebar aside stays in the running text.
    #expect(
      pages.contains { $0.lines.contains { $0.role == .text && $0.text.hasPrefix("A sidebar") } })
  }

  /// A note keeps the content edges of the block it sat in (Tests/Fixtures/browser-oracle/
  /// footnotes.xhtml, where Chromium agrees): the body's 6 em / 2 em margins, a
  /// blockquote's 3 em, a section's padding and border, a note's own negative margin.
  @Test(arguments: [FootnotePlacement.foot, .end])
  func notesKeepTheColumnOfTheirBlock(_ placement: FootnotePlacement) throws {
    var settings = LayoutSettings(pageWidth: 600, pageHeight: 800)
    settings.footnotes = placement
    let path = packageRoot.appendingPathComponent("Tests/Fixtures/browser-oracle/footnotes.xhtml")
    let lines = try EagerBook(path.path, settings: settings).layout.pages.flatMap(\.lines)
    let notes = lines.filter { $0.role == .note }
    let (left, right) = (50.0 + 96, 550.0 - 32)
    func first(_ prefix: String) throws -> LineBox {
      try #require(notes.first { $0.text.hasPrefix(prefix) }, "\(prefix)")
    }
    #expect(abs(try first("1. A footnote").rect.x - left) < 0.5)
    #expect(abs(try first("2. A note inside").rect.x - (left + 48)) < 0.5)
    #expect(abs(try first("3. A rear note").rect.x - (left + 24 + 2)) < 0.5)
    // Running text and notes share the body's column; only note 4 (the last one) reaches
    // past it, by its own negative margin.
    let fourth = try #require(notes.firstIndex { $0.text.hasPrefix("4.") })
    for l in lines.filter({ $0.role == .text }) + notes[..<fourth] {
      #expect(l.rect.x >= left - 0.01 && l.rect.maxX <= right + 0.01, "\(l.text)")
    }
    #expect(
      notes[fourth...].allSatisfy { abs($0.rect.x - (left + 26)) < 0.5 && $0.rect.maxX <= 550 })
    #expect(notes[fourth...].contains { $0.rect.maxX > right + 5 })
  }

  /// A decorated link inside a note moved to the page foot keeps its `inlineBoxes` entry
  /// (wasteland's rear notes lost theirs): one fragment, on the note's page, within its line.
  @Test func inlineBoxesInANoteAtTheFootAreReported() throws {
    var settings = LayoutSettings(pageWidth: 600, pageHeight: 800)
    settings.footnotes = .foot
    let path = packageRoot.appendingPathComponent("Tests/Fixtures/browser-oracle/footnotes.xhtml")
    let pages = try EagerBook(path.path, settings: settings).layout.pages
    let page = try #require(
      pages.first { $0.lines.contains { $0.role == .note && $0.text.hasPrefix("3. A rear") } })
    let line = try #require(page.lines.first { $0.text.hasPrefix("3. A rear") })
    let inLine = page.inlineBoxes.filter {
      $0.rect.y >= line.rect.y - 2 && $0.rect.maxY <= line.rect.maxY + 2
    }
    // "A rear note": its border box starts after "3. " and ends before " in a section".
    #expect(inLine.count == 1)
    let box = try #require(inLine.first)
    #expect(box.rect.x > line.rect.x + 5 && box.rect.maxX < line.rect.maxX - 50)
    #expect(box.rect.height > 5 && box.rect.width > 30)
  }

  @Test func aLongNoteContinuesOnTheNextPage() throws {
    let pages = try Self.book(.foot).layout.pages
    let long = pages.filter { p in
      p.lines.contains { $0.role == .note && $0.text.contains("The whale") }
    }.map(\.number)
    #expect(long.count >= 2)
    #expect(long == Array(long[0]...long[long.count - 1]))
    // The note starts on the page of its reference, with at least its first two lines.
    let first = try #require(pages.first { $0.number == long[0] })
    #expect(first.lines.contains { $0.text.contains("note.3") })
    #expect(first.lines.filter { $0.role == .note }.count >= 2)
  }

  @Test func textAndNotesEachKeepTheirOrder() throws {
    let book = try Self.book(.foot)
    let pages = book.layout.pages
    let text = pages.flatMap { $0.lines.filter { $0.role == .text }.map(\.text) }.joined()
    let notes = pages.flatMap { $0.lines.filter { $0.role == .note }.map(\.text) }.joined()
    #expect(normalized(text) == normalized(sourceText(book.document)))
    #expect(normalized(notes) == normalized(noteText(book.document)))
    #expect(!notes.isEmpty)
    // Page ranges cover the running text and never go back.
    for (a, b) in zip(pages, pages.dropFirst()) { #expect(a.end <= b.start || a.spine != b.spine) }
  }

  @Test func endGathersNotesAtTheChapterEnd() throws {
    let book = try Self.book(.end)
    for spine in 0..<2 {
      let lines = book.layout.pages.filter { $0.spine == spine }.flatMap(\.lines)
      let firstNote = try #require(lines.firstIndex { $0.role == .note })
      #expect(lines[firstNote...].allSatisfy { $0.role == .note }, "chapter \(spine)")
      #expect(lines[..<firstNote].allSatisfy { $0.role == .text })
    }
    let notes = book.layout.pages.flatMap { $0.lines.filter { $0.role == .note }.map(\.text) }
    #expect(normalized(notes.joined()) == normalized(noteText(book.document)))
    // Page ranges cover the running text: they never go back.
    let pages = book.layout.pages
    for (a, b) in zip(pages, pages.dropFirst()) where a.spine == b.spine {
      #expect(a.end <= b.start && b.start <= b.end)
    }
  }

  @Test func inlineKeepsTodaysBehaviour() throws {
    let book = try Self.book(.inline)
    let lines = book.layout.pages.flatMap(\.lines)
    #expect(!lines.contains { $0.role == .note })
    #expect(
      normalized(lines.map(\.text).joined())
        == normalized(sourceText(book.document, footnotes: .inline)))
  }

  @Test func goldenFootPage() throws {
    let book = try Self.book(.foot)
    let page = try #require(book.layout.pages.first)
    try checkGolden(Data(GoldenPageTests().lineDump(page).utf8), "footnotes-foot.lines.txt")
    let image = book.makeRenderer().render(page, width: 400, height: 500, format: .gray8)
    try checkGolden(Data(PNGCodec.encode(image)), "footnotes-foot.png")
  }

  @Test func cliFootnotesOption() throws {
    func pageCount(_ mode: String) throws -> Int {
      let r = try runQuire([
        "paginate", Self.fixture, "--size", "400x500", "--footnotes", mode, "--json",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
      return try #require(json?["pageCount"] as? Int)
    }
    let counts = try ["foot", "end", "inline"].map(pageCount)
    #expect(counts == [7, 7, 8])
    let bad = try runQuire(["paginate", Self.fixture, "--footnotes", "page"])
    #expect(bad.status == 64 && bad.stderr.contains("--footnotes must be one of foot|end|inline"))
    let help = try runQuire(["help", "paginate"])
    #expect(help.stdout.contains("--footnotes foot|end|inline"))
  }
}
