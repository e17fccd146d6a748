// Blocks inside inline blocks, and inline tables (Inline/InlineBoxLayout.swift, ingest in
// Markup/ChapterBuilder.swift): the inline-block-content fixture of the browser oracle laid
// out by the whole pipeline and checked as structure (paragraphs, list items, cells keep
// their blocks inside the box), geometry (shrink-to-fit around blocks, an inline table on
// its first row's baseline), a line dump and an exact PNG golden; every character once and
// in order; and hostile nesting and sizes bounded.

import Foundation
import QuireIngest
import QuireRaster
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

@Suite("Blocks inside inline blocks", .serialized)
struct InlineBlockContentTests {
  static let fixture = BrowserOracle.fixtures.appendingPathComponent(
    "inline-block-content.xhtml"
  ).path

  func firstPage() throws -> (EagerBook, Page) {
    try oracleFixtureFirstPage(InlineBlockContentTests.fixture)
  }

  /// The line whose text starts with `prefix`.
  func line(_ page: Page, _ prefix: String) throws -> LineBox {
    try #require(page.lines.first { $0.text.hasPrefix(prefix) }, "\(prefix)")
  }

  /// The block box of `line`.
  func box(_ page: Page, of line: LineBox) throws -> BlockBox {
    try #require(page.blocks.first { $0.index == line.block })
  }

  @Test func blocksKeepTheirStructure() throws {
    let (book, page) = try firstPage()
    // Ingest: the card is a container of a heading and two paragraphs, the list box holds a
    // list of two items and a div, the inline table is a table of two rows.
    let dump = book.document.chapters[0].textDump()
    #expect(dump.contains("inline-block"))
    #expect(dump.contains("heading(3) <h3>"))
    #expect(dump.contains("list(unordered) <ul>"))
    #expect(dump.contains("item(\"•\") <li>"))
    #expect(dump.contains("table <table>"))
    #expect(dump.contains("row <tr>"))
    // Layout: each block of the card has a block box of its own, stacked in order, the
    // paragraphs' lines one below the other inside the card's 14em (224 px) content box.
    let h3 = try box(page, of: try line(page, "A card"))
    let p1 = try box(page, of: try line(page, "Its first paragraph"))
    let p2 = try box(page, of: try line(page, "Its second one."))
    #expect(h3.tag == "h3" && p1.tag == "p" && p2.tag == "p")
    #expect(Set([h3.index, p1.index, p2.index]).count == 3)
    #expect(h3.rect.maxY <= p1.rect.y + 0.01 && p1.rect.maxY <= p2.rect.y + 0.01)
    for b in [h3, p1, p2] {
      #expect(abs(b.rect.width - 224) < 0.05, "\(b.tag) \(b.rect.width)")
      #expect(b.rect.x == h3.rect.x)
      #expect(b.inlineX == 0)
    }
    // The first paragraph wraps inside the card.
    let firstLines = page.lines.filter { $0.block == p1.index }
    #expect(firstLines.count >= 2)
    for l in firstLines { #expect(l.rect.maxX <= p1.rect.maxX + 0.02, "\(l.text)") }
  }

  @Test func shrinkToFitAroundBlocks() throws {
    let (_, page) = try firstPage()
    // The list box is as wide as its widest block: the items (1.5em indent) or the div
    // (1em margin); its items carry their markers and the div its margin.
    let first = try box(page, of: try line(page, "first item"))
    let second = try box(page, of: try line(page, "second item"))
    let div = try box(page, of: try line(page, "an indented div"))
    #expect(first.marker == "•" && second.marker == "•")
    #expect(first.inlineX == 24 && div.inlineX == 16)
    let divLine = try line(page, "an indented div")
    // Shrink-to-fit: the widest block (the div's text, 16 px in) fills the box exactly.
    #expect(abs(div.rect.width - divLine.rect.width) < 0.05)
    #expect(abs(first.rect.maxX - div.rect.maxX) < 0.05)
  }

  @Test func inlineTableSitsOnItsFirstRowBaseline() throws {
    let (_, page) = try firstPage()
    let one = try line(page, "one")
    let four = try line(page, "four")
    let before = try line(page, "An inline table")
    #expect(four.rect.y > one.rect.y + 10)
    // Columns: "two words" and "four" share a column right of "one" and "three".
    let two = try line(page, "two words")
    let three = try line(page, "three")
    #expect(abs(two.rect.x - four.rect.x) < 0.01 && abs(one.rect.x - three.rect.x) < 0.01)
    #expect(two.rect.x > three.rect.maxX)
    // Baselines: the glyphs of "one" and of the text before the table share one y.
    func baselines(in r: Rect) -> Set<Float> {
      var ys: Set<Float> = []
      for case .glyphs(let run) in page.items {
        for (x, y) in zip(run.x, run.y)
        where Double(x) >= r.x - 0.5 && Double(x) < r.maxX && Double(y) > r.y && Double(y) <= r.maxY
        {
          ys.insert(y)
        }
      }
      return ys
    }
    let cell = baselines(in: one.rect)
    #expect(cell.count == 1)
    let outer = baselines(
      in: Rect(x: before.rect.x, y: before.rect.y, width: 80, height: before.rect.height))
    #expect(!cell.isDisjoint(with: outer), "cell \(cell) outer \(outer)")
  }

  @Test func fixtureGoldens() throws {
    let (book, page) = try firstPage()
    try checkGolden(
      Data(GoldenPageTests().lineDump(page).utf8), "inline-block-content.lines.txt")
    let image = book.makeRenderer().render(page, width: 600, height: 800, format: .gray8)
    try checkGolden(Data(PNGCodec.encode(image)), "inline-block-content.png")
  }

  @Test func everyCharacterOnceAndInOrder() throws {
    let body = """
      <p>one <span class="b"><p>two</p>three<div>four <em>five</em></div><ul><li>six</li></ul>\
      <table><tr><td>seven</td><td>eight</td></tr></table></span> nine\
      <table class="t"><tr><td>ten</td></tr><tr><td>eleven <span class="b"><p>twelve</p></span>\
      </td></tr></table> thirteen</p>
      """
    let b = try oneChapterBook(
      "inline-block-content", "order",
      css: ".b { display: inline-block } .t { display: inline-table }", body: body)
    // The paragraph's line holds each box as one U+FFFC; the boxes' lines follow it, in
    // source order (a box inside a cell of the inline table last).
    let lines = b.layout.pages.flatMap(\.lines)
    func words(_ l: [LineBox]) -> [Substring] {
      l.flatMap { $0.text.split(whereSeparator: { $0.isWhitespace || $0 == "\u{FFFC}" }) }
    }
    let outer = try #require(lines.first)
    #expect(outer.text.filter { $0 == "\u{FFFC}" }.count == 2)
    #expect(words(lines.filter { $0.block == outer.block }) == ["one", "nine", "thirteen"])
    #expect(
      words(lines.filter { $0.block != outer.block }) == [
        "two", "three", "four", "five", "six", "seven", "eight", "ten", "eleven", "twelve",
      ])
    // Every character once: the lines hold the chapter's text.
    let shown = lines.map(\.text).joined().filter { !$0.isWhitespace && $0 != "\u{FFFC}" }
    let source = sourceText(b.document).filter { !$0.isWhitespace }
    #expect(shown.sorted() == source.sorted())
    // Locations run forward through the boxes' blocks (their lines in page order).
    let starts = lines.filter { $0.block != outer.block }.map(\.start.offset)
    #expect(starts == starts.sorted())
    #expect(starts.allSatisfy { $0 > outer.start.offset && $0 < outer.end.offset })
  }

  @Test func hostileNestingAndSizesAreBounded() throws {
    // 80 nested divs inside 40 nested inline blocks, a huge table in an inline table, a box
    // of 2,000 paragraphs: laid out inside the page, with a warning for what was cut.
    let nested =
      String(repeating: "<span class=\"b\"><div>", count: 40)
      + String(repeating: "<div>d ", count: 80) + "core" + String(repeating: "</div>", count: 80)
      + String(repeating: "</div></span>", count: 40)
    var table = "<table class=\"t\">"
    for r in 0..<200 {
      table += "<tr><td>r\(r)</td><td>\(String(repeating: "w ", count: 20))</td></tr>"
    }
    table += "</table>"
    let many =
      "<p>x <span class=\"b\">" + String(repeating: "<p>para</p>", count: 2000) + "</span> y</p>"
    let b = try oneChapterBook(
      "inline-block-content", "hostile",
      css: ".b { display: inline-block; border: 1px solid } .t { display: inline-table }",
      body: "<p>\(nested)</p><p>a \(table) b</p>\(many)")
    let height = Double(LayoutSettings().pageHeight)
    for page in b.layout.pages {
      for line in page.lines {
        #expect(line.rect.maxX <= 550.02 && line.rect.x >= 49.98, "\(line.text)")
        #expect(line.rect.maxY <= height + 0.02, "\(line.text)")
      }
    }
    let lines = b.layout.pages.flatMap(\.lines)
    #expect(lines.contains { $0.text.contains("core") })
    #expect(lines.contains { $0.text.contains("r0") })
    #expect(b.warnings.contains { $0.contains("inline block taller than the page was cut") })
  }

  @Test func nestedInlineBlocksAreLaidOutOnceEach() throws {
    // 8 shrink-to-fit inline blocks nested in one another, the innermost taller than the
    // page. Measuring a box's intrinsic widths sizes its inner boxes without laying their
    // content out, so each box is laid out once: at most one "cut" note per box (laying
    // content out to measure it laid the innermost out 2^8 times, and cost grew as 2^depth).
    let b = try nestedTallBoxes(depth: 8, display: "inline-block")
    let cut = try #require(
      b.warnings.first { $0.contains("inline block taller than the page was cut") })
    let more = cut.split(separator: "(and ").dropFirst().first.flatMap {
      Int($0.prefix { $0.isNumber })
    }
    #expect(1 + (more ?? 0) <= 8, "\(cut)")
  }

  /// A paragraph of `depth` boxes of `display` nested in one another, the innermost holding
  /// 1,500 × "tall words here".
  func nestedTallBoxes(depth: Int, display: String) throws -> EagerBook {
    let tall = String(repeating: "tall words here ", count: 1500)
    let body =
      "<p>" + String(repeating: "a <span class=\"b\">b ", count: depth) + tall
      + String(repeating: " c</span> d", count: depth) + "</p>"
    return try oneChapterBook(
      "inline-block-content", "nested-\(display)-\(depth)",
      css: ".b { display: \(display) }", body: body)
  }

  @Test(arguments: [1, 2, 3, 8], ["inline-block", "inline-table"])
  func aCutBoxKeepsTheLinesThatFit(depth: Int, display: String) throws {
    // The innermost box is cut at the page (CSS Fragmentation 3 §4.4: monolithic content
    // taller than the page is clipped there), and every box around it is cut in turn by the
    // strut of the line that holds it. What starts above the cut stays: the innermost
    // paragraph's first lines, in order, nearly a page of them, after the outer text — it
    // vanished when the line crossing the cut was left out. (The box is as wide as the line,
    // so it starts the second page: "a" ends the first.)
    let b = try nestedTallBoxes(depth: depth, display: display)
    #expect(b.warnings.contains { $0.contains("inline block taller than the page was cut") })
    let settings = LayoutSettings()
    let height = Double(settings.pageHeight)
    let lines = b.layout.pages.flatMap(\.lines)
    #expect(lines.allSatisfy { $0.rect.maxY <= height + 0.02 })
    let page = try #require(
      b.layout.pages.first { $0.lines.contains { $0.text.contains("tall words") } })
    let tall = page.lines.filter { $0.text.contains("tall words") }
    // The lines of 16-px text that fit a 700-px text area, less a line per outer box.
    #expect(tall.count >= 30 - depth, "\(tall.count) lines")
    // The innermost paragraph is "b tall words here … c".
    let words = tall.map(\.text).joined(separator: " ").split(separator: " ").map(String.init)
      .drop { $0 == "b" }
    let expected = Array(repeating: ["tall", "words", "here"], count: 1500).joined()
    #expect(words.elementsEqual(expected.prefix(words.count)), "\(words.prefix(12))")
    for pair in zip(tall, tall.dropFirst()) {
      #expect(pair.0.rect.maxY <= pair.1.rect.y + 0.01, "lines in order down the page")
    }
    // The outer paragraph's text comes first, each box's "b" before the box inside it.
    #expect(b.layout.pages.first?.lines.first?.text == "a")
    #expect(page.lines.filter { $0.text.hasPrefix("b") }.count == depth)
  }
}
