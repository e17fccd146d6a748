// Floats that hold text (Blocks/FloatBlocks.swift): floated blocks with their own box model
// and shrink-to-fit widths, floated inline elements (a poem's line numbers), floated
// `::first-letter` drop caps — checked as geometry on the browser-oracle fixtures, as line
// dumps and exact PNG goldens, and against hostile inputs (a thousand floats in one
// paragraph, a float wider than the page, a float taller than the page).

import Foundation
import QuireRaster
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

@Suite("Floated blocks", .serialized)
struct FloatBlockTests {
  static let blocks = BrowserOracle.fixtures.appendingPathComponent("float-blocks.xhtml").path
  static let dropCaps = BrowserOracle.fixtures.appendingPathComponent("dropcaps.xhtml").path

  func lines(_ page: Page, from prefix: String) -> [LineBox] {
    guard let first = page.lines.first(where: { $0.text.hasPrefix(prefix) }) else { return [] }
    return page.lines.filter { $0.block == first.block }
  }

  @Test func sidebarFloatsRightWithItsBoxAndTextWrapsLeft() throws {
    let (_, page) = try oracleFixtureFirstPage(Self.blocks)
    let side = try #require(page.blocks.first { $0.tag == "p" && $0.rect.width < 200 })
    // width: 10em content box at 16 px, against the right content edge (550) less the
    // 2-px border and 6-px padding.
    #expect(abs(side.rect.width - 160) < 0.01)
    #expect(abs(side.rect.maxX - (550 - 2 - 6)) < 0.01)
    let wrapped = lines(page, from: "The running text")
    #expect(wrapped.count > 3)
    // Lines beside the float end before its left margin edge (its margin-left is 1em).
    let floatLeft = side.rect.x - 6 - 2 - 16
    let beside = wrapped.filter { $0.rect.y < side.rect.maxY }
    #expect(!beside.isEmpty)
    for l in beside { #expect(l.rect.maxX <= floatLeft + 0.5, "\(l.text)") }
    // …and take the full measure below it.
    let below = wrapped.filter { $0.rect.y > side.rect.maxY + 12 }
    #expect(below.contains { $0.rect.maxX > floatLeft + 50 })
    let cleared = try #require(page.lines.first { $0.text.hasPrefix("This paragraph clears") })
    #expect(cleared.rect.y >= side.rect.maxY + 6 + 2 - 0.01)
    // The sidebar's background and border are painted (a box item of its size).
    let painted = page.items.contains {
      if case .box(let b) = $0 { abs(b.rect.width - (160 + 12 + 4)) < 0.01 } else { false }
    }
    #expect(painted)
  }

  @Test func floatsWithoutAWidthShrinkToFit() throws {
    let (_, page) = try oracleFixtureFirstPage(Self.blocks)
    let note = try #require(page.lines.first { $0.text == "Short note" })
    let box = try #require(page.blocks.first { $0.index == note.block })
    #expect(box.rect.x == 50 + 1 + 4)  // border and padding
    #expect(abs(box.rect.width - note.rect.width) < 1)  // as wide as its words
    let beside = try #require(page.lines.first { $0.text.hasPrefix("A left float") })
    #expect(beside.rect.x >= box.rect.maxX + 4 + 1 + 16 - 0.01)
    // The float's margin box top is the paragraph's top: its text is below its border and
    // padding (3 px).
    #expect(abs(note.rect.y - 3 - beside.rect.y) < 0.01)
    let pull = try #require(page.lines.first { $0.text == "Pull quote" })
    #expect(abs(pull.rect.maxX - 550) < 0.5)
    // blockquote: width 40 % of 500 px.
    let quote = lines(page, from: "A quotation forty")
    let qbox = try #require(page.blocks.first { $0.index == quote.first?.block })
    #expect(abs(qbox.rect.width - 200) < 0.01)
    #expect(quote.count >= 3)
  }

  @Test func dropCapFloatsAndTheFirstLinesWrapRoundIt() throws {
    let (_, page) = try oracleFixtureFirstPage(Self.dropCaps)
    let cap = try #require(page.lines.first { $0.text == "O" })
    #expect(cap.rect.height >= 47)  // 3em at line-height 1
    let cap2 = try #require(page.lines.first { $0.text == "“Q" })  // punctuation goes with it
    #expect(cap2.rect.x == 50)
    let para = lines(page, from: "nce upon")
    #expect(para.count >= 4)
    #expect(para[0].rect.x >= cap.rect.maxX)
    #expect(para[1].rect.x >= cap.rect.maxX)
    #expect(para.last?.rect.x == 50)
    #expect(page.blocks.contains { $0.tag == "::first-letter" })
  }

  @Test func lineNumbersFloatRightOnTheirLine() throws {
    let (_, page) = try oracleFixtureFirstPage(Self.dropCaps)
    let number = try #require(page.lines.first { $0.text == "10" })
    let line = try #require(page.lines.first { $0.text.hasPrefix("A line of verse") })
    #expect(abs(number.rect.maxX - 550) < 0.5)
    #expect(abs(number.rect.y - line.rect.y) < 0.01)
    #expect(!line.text.contains("10"))
    let box = try #require(page.blocks.first { $0.index == number.block })
    #expect(box.tag == "span")
  }

  @Test func fixtureGoldens() throws {
    for (path, name) in [(Self.blocks, "float-blocks"), (Self.dropCaps, "dropcaps")] {
      let (book, page) = try oracleFixtureFirstPage(path)
      try checkGolden(Data(GoldenPageTests().lineDump(page).utf8), "\(name).lines.txt")
      let image = book.makeRenderer().render(page, width: 600, height: 800, format: .gray8)
      try checkGolden(Data(PNGCodec.encode(image)), "\(name).png")
    }
  }

  func book(_ style: String, _ body: String, name: String) throws -> EagerBook {
    let folder = temporaryFolder("float-blocks-\(name)")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let xhtml = """
      <?xml version="1.0" encoding="utf-8"?>
      <html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title>
      <style>\(style)</style></head><body>\(body)</body></html>
      """
    let path = folder + "/\(name).xhtml"
    try Data(xhtml.utf8).write(to: URL(fileURLWithPath: path))
    return try EagerBook(path, settings: LayoutSettings(pageWidth: 600, pageHeight: 800))
  }

  /// Every character of the source text is on some page, in one of its lines.
  func allText(_ book: EagerBook) -> String {
    book.layout.pages.flatMap(\.lines).map(\.text).joined(separator: " ")
  }

  @Test func aThousandFloatsInOneParagraph() throws {
    let spans = (0..<1000).map { "word <span class=\"f\">\($0)</span>" }.joined(separator: " ")
    let b = try book(".f { float: right; font-size: 80% }", "<p>\(spans)</p>", name: "thousand")
    let text = allText(b)
    for k in [0, 31, 32, 500, 999] { #expect(text.contains("\(k)"), "\(k)") }
    for page in b.layout.pages {
      for line in page.lines { #expect(line.rect.maxX <= 550.5 && line.rect.x >= 49.5) }
    }
  }

  @Test func floatsWiderOrTallerThanThePage() throws {
    let filler = String(repeating: "A tall float holds many words. ", count: 400)
    let b = try book(
      ".wide { float: left; width: 2000px } .tall { float: right; width: 10em }",
      "<div class=\"wide\">wide float</div><p>after the wide one</p>"
        + "<div class=\"tall\">\(filler)</div><p>after the tall one</p>", name: "huge")
    let pages = b.layout.pages
    #expect(pages.count > 3)
    let wide = try #require(pages[0].lines.first { $0.text == "wide float" })
    #expect(wide.rect.x >= 49.5)
    for page in pages {
      for line in page.lines {
        #expect(line.rect.maxX <= 550.5 && line.rect.x >= 49.5, "\(line.text)")
        #expect(line.rect.maxY <= 750.5, "\(line.text)")
      }
    }
    let text = allText(b)
    #expect(text.contains("after the tall one"))
    #expect(text.components(separatedBy: "holds many").count - 1 == 400)
  }

  @Test func hostileFirstLetters() throws {
    let b = try book(
      "p::first-letter { float: left; font-size: 1000em; initial-letter: 1000 1000 }"
        + " p.n::first-letter { float: right; margin: -5000px; padding: 9999px }",
      "<p>Alpha beta gamma.</p><p class=\"n\">Delta epsilon.</p>", name: "letters")
    let text = allText(b)
    #expect(text.contains("lpha beta"))
    #expect(text.contains("elta epsilon"))
  }
}
