// Multi-column layout (CSS Multi-column 1; Blocks/MultiColumn.swift,
// Pagination/ColumnPlacement.swift) end to end: the columns fixture of the browser oracle
// checked as geometry (§3.4's used count and width, gaps, balanced columns, a spanner, right
// to left, rules drawn between non-empty columns), a line dump and an exact PNG golden;
// a multi-page flow (every character once and in order, no line across its column's edges
// or the page's foot, full columns on every page but the last, a balanced last page);
// forced column breaks; and hostile values (100,000 columns, 0.001 px columns, 50 nested
// multi-column containers).

import Foundation
import QuireRaster
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

@Suite("Multi-column layout", .serialized)
struct ColumnTests {
  static let fixture = BrowserOracle.fixtures.appendingPathComponent("columns.xhtml").path

  func line(_ page: Page, _ prefix: String) throws -> LineBox {
    try #require(page.lines.first { $0.text.hasPrefix(prefix) }, "\(prefix)")
  }

  /// Rules: the painted boxes that draw only a left border.
  func rules(_ page: Page) -> [BoxPaint] {
    page.items.compactMap {
      if case .box(let b) = $0, b.left.isDrawn, !b.top.isDrawn, b.backgroundColor == nil {
        return b
      }
      return nil
    }
  }

  @Test func fixtureColumnsHaveTheUsedCountWidthAndGap() throws {
    let (_, page) = try oracleFixtureFirstPage(ColumnTests.fixture)
    // Two columns, 2em gap, in a 500-px content box: (500 − 32) / 2 = 234 px each.
    let alpha = try line(page, "Alpha")
    let delta = try line(page, "Delta")
    #expect(alpha.rect.x == 50)
    #expect(abs(delta.rect.x - (50 + 234 + 32)) < 0.02)
    let alphaBox = try #require(page.blocks.first { $0.index == alpha.block })
    #expect(abs(alphaBox.rect.width - 234) < 0.02)
    // Balanced: six one-line paragraphs, three a column, the columns' tops level.
    #expect(abs(delta.rect.y - alpha.rect.y) < 0.02)
    let (beta, gamma) = (try line(page, "Beta"), try line(page, "Gamma"))
    #expect(gamma.rect.y > beta.rect.y)
    #expect(try line(page, "Epsilon").rect.x == delta.rect.x)
    // column-width: 8em (128 px) and the 1em gap: three columns of (516 / 3) − 16 = 156 px.
    let xs = try ["One", "Two", "Three", "Four", "Five"].map { try line(page, $0).rect.x }
    #expect(xs.map { ($0 - 50).rounded() } == [0, 0, 172, 172, 344])
    // `columns: 4 10em` with a 10-px gap: only three 160-px columns fit; four one-line
    // paragraphs balance as two and two (the shortest height that holds them).
    let fours = try ["First", "Second", "Third", "Fourth"].map { try line(page, $0).rect.x }
    #expect(fours.map { ($0 - 50).rounded() } == [0, 0, 170, 170])
  }

  @Test func spannerSplitsTheContainerAndRtlRunsRightToLeft() throws {
    let (_, page) = try oracleFixtureFirstPage(ColumnTests.fixture)
    let north = try line(page, "North")
    let heading = try line(page, "A heading")
    let west = try line(page, "West")
    // One paragraph a column above the spanner, the spanner across, then the next set.
    #expect(try line(page, "East").rect.y == north.rect.y)
    #expect(try line(page, "South").rect.y == north.rect.y)
    #expect(heading.rect.y > north.rect.maxY && west.rect.y > heading.rect.maxY)
    let h3 = try #require(page.blocks.first { $0.index == heading.block })
    #expect(h3.rect.x == 50 && h3.rect.width == 500)
    #expect(try line(page, "Down").rect.y == west.rect.y)
    // direction: rtl: the first column is the right one (242-px columns, 16-px gap).
    let one = try line(page, "Right to left one")
    let three = try line(page, "Right to left three")
    let oneBox = try #require(page.blocks.first { $0.index == one.block })
    #expect(abs(oneBox.rect.x - (50 + 242 + 16)) < 0.02)
    #expect(three.rect.maxX <= 50 + 242 + 0.02)
  }

  @Test func rulesAreDrawnBetweenNonEmptyColumns() throws {
    let (_, page) = try oracleFixtureFirstPage(ColumnTests.fixture)
    let drawn = rules(page)
    // .two: one solid 1-px rule centred in the 32-px gap, as tall as the balanced columns.
    let alpha = try line(page, "Alpha")
    let gamma = try line(page, "Gamma")
    let solid = try #require(drawn.first { $0.left.width == 1 && $0.left.style == .solid })
    #expect(abs(solid.rect.x + 0.5 - (50 + 234 + 16)) < 0.02)
    #expect(solid.rect.y == alpha.rect.y && solid.rect.maxY >= gamma.rect.maxY)
    // .narrow: three non-empty columns, two dotted rules; .both draws none; the spanner's
    // two sets draw two dashed rules each; rtl one.
    #expect(drawn.filter { $0.left.style == .dotted }.count == 2)
    #expect(drawn.filter { $0.left.style == .dashed }.count == 4)
    #expect(drawn.filter { $0.left.style == .solid }.count == 2)
  }

  @Test func fixtureGoldens() throws {
    let (book, page) = try oracleFixtureFirstPage(ColumnTests.fixture)
    try checkGolden(Data(GoldenPageTests().lineDump(page).utf8), "columns.lines.txt")
    let image = book.makeRenderer().render(page, width: 600, height: 800, format: .gray8)
    try checkGolden(Data(PNGCodec.encode(image)), "columns.png")
  }

  /// Writes one chapter `body` (with `css`) and lays it out.
  func book(_ name: String, css: String, body: String, settings: LayoutSettings = LayoutSettings())
    throws -> EagerBook
  {
    try oneChapterBook("columns", name, css: css, body: body, settings: settings)
  }

  static let prose =
    "It was the best of times, it was the worst of times, it was the age of wisdom, it was the age of foolishness, it was the epoch of belief, it was the epoch of incredulity."

  @Test func multiPageFlowKeepsEveryCharacterInItsColumns() throws {
    var body = "<p>Before the columns.</p><div class=\"c\">"
    for k in 0..<40 { body += "<p>\(k) \(ColumnTests.prose)</p>" }
    body += "</div><p>After the columns.</p>"
    let settings = LayoutSettings()
    let b = try book(
      "flow", css: ".c { column-count: 3; column-gap: 1em } p { margin: 0 0 0.4em }", body: body,
      settings: settings)
    let m = settings.layoutOptions.margins
    let (width, gap) = ((500.0 - 32) / 3, 16.0)
    let bottom = 800 - m.bottom
    let pages = b.layout.pages
    #expect(pages.count >= 3)
    // Every character once, in order (page after page, column after column).
    let shown = pages.flatMap(\.lines).map(\.text).joined().filter { !$0.isWhitespace }
    let source = b.document.chapters[0].plainText.filter { !$0.isWhitespace }
    #expect(shown == source)
    var columnBottoms: [[Double]] = []
    for page in pages {
      var bottoms = [Double](repeating: 0, count: 3)
      for line in page.lines {
        #expect(line.rect.maxY <= bottom + 0.02, "\(line.text)")
        if line.text.hasPrefix("Before") || line.text.hasPrefix("After") { continue }
        let c = Int(((line.rect.x - m.left) / (width + gap)).rounded(.down))
        let left = m.left + Double(c) * (width + gap)
        #expect(line.rect.x >= left - 0.02 && line.rect.maxX <= left + width + 0.02, "\(line.text)")
        bottoms[c] = max(bottoms[c], line.rect.maxY)
      }
      columnBottoms.append(bottoms)
    }
    // Every page but the last fills its three columns to within two lines of the foot …
    let lineHeight = 16 * 1.4
    for bottoms in columnBottoms.dropLast() {
      for b in bottoms { #expect(b > bottom - 2 * lineHeight - 7, "\(bottoms)") }
    }
    // … and the last page's columns are balanced (within a line and a paragraph gap).
    let last = try #require(columnBottoms.last).filter { $0 > 0 }
    #expect(last.count == 3)
    #expect((last.max() ?? 0) - (last.min() ?? 0) <= lineHeight + 6.5)
    let after = try #require(pages.last?.lines.first { $0.text.hasPrefix("After") })
    #expect(after.rect.y >= (last.max() ?? 0))
  }

  @Test func headingGoesWithTheColumnsAfterIt() throws {
    // However many filler lines come first, a heading never ends a page whose columns
    // start on the next one.
    for n in 24...34 {
      let filler = (0..<n).map { "<p>filler \($0)</p>" }.joined()
      let b = try book(
        "keep\(n)", css: ".c { column-count: 2 } p { margin: 0 }",
        body: filler + "<h2>Heading</h2><div class=\"c\"><p>first in columns</p><p>second</p></div>"
      )
      let pages = b.layout.pages
      let heading = try #require(pages.firstIndex { $0.lines.contains { $0.text == "Heading" } })
      let first = try #require(
        pages.firstIndex { $0.lines.contains { $0.text == "first in columns" } })
      #expect(heading == first, "\(n) filler lines")
    }
  }

  @Test func columnBreaksAndAvoidColumn() throws {
    let css = """
      .c { column-count: 3 } .brk { break-before: column } .keep { break-inside: avoid-column }
      p { margin: 0 }
      """
    let body = """
      <div class="c"><p>one</p><p class="brk">two</p><p>three</p><p class="brk">four</p></div>
      """
    let b = try book("breaks", css: css, body: body)
    let page = try #require(b.layout.pages.first)
    let xs = try ["one", "two", "three", "four"].map { w in
      try #require(page.lines.first { $0.text == w }).rect.x.rounded()
    }
    // A forced column break starts the next column; "three" follows "two" in its column.
    #expect(xs[0] < xs[1] && xs[1] == xs[2] && xs[2] < xs[3])
  }

  @Test func hostileColumnValuesAreBounded() throws {
    let nested =
      String(repeating: "<div class=\"m\">n ", count: 50) + "core"
      + String(repeating: "</div>", count: 50)
    let css = """
      .many { column-count: 100000; column-gap: 0 } .thin { column-width: 0.001px }
      .m { column-count: 2; column-rule: 1px solid }
      """
    let text = String(repeating: "word ", count: 200)
    let b = try book(
      "hostile", css: css,
      body:
        "<div class=\"many\"><p>\(text)</p></div><div class=\"thin\"><p>\(text)</p></div>\(nested)"
    )
    let pages = b.layout.pages
    let height = Double(LayoutSettings().pageHeight)
    for page in pages {
      for line in page.lines {
        // A glyph is wider than a 1-px column: it starts in its column, inside the text
        // area, and overflows the column (as in a browser) but never the page.
        #expect(line.rect.x >= 49.98 && line.rect.x <= 550.02, "\(line.text)")
        #expect(line.rect.maxX <= 600, "\(line.text)")
        #expect(line.rect.maxY <= height, "\(line.text)")
      }
    }
    let shown = pages.flatMap(\.lines).map(\.text).joined().filter { !$0.isWhitespace }
    let source = b.document.chapters[0].plainText.filter { !$0.isWhitespace }
    #expect(shown == source)
    // At most one 1-px column per pixel of the measure: 500 columns of one glyph each.
    #expect(pages.count < 200)
  }
}
