// `::first-line` (Inline/FirstLine.swift, Ingest/Markup/FirstLineCascade.swift) end to end:
// the first formatted line of a block, and only it, takes the pseudo-element's style —
// checked on line boxes (the text each line shows, its extent) and on the glyph runs placed
// in each line (size, colour); through inline descendants, into a div's first paragraph,
// with `::first-letter`; the browser-oracle fixture as a line dump and an exact PNG golden;
// hostile sizes.

import Foundation
import QuireCore
import QuireRaster
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

@Suite("First line", .serialized)
struct FirstLineTests {
  static let fixture = BrowserOracle.fixtures.appendingPathComponent("first-line.xhtml").path

  static let prose =
    "The first formatted line of this paragraph takes the style of its pseudo-element, and"
    + " every line after it keeps the paragraph's own style, however the breaks fall in the"
    + " text that follows it on the page."

  func book(_ css: String, _ body: String, _ name: String) throws -> EagerBook {
    try oneChapterBook(
      "first-line", name, css: css, body: body,
      settings: LayoutSettings(pageWidth: 600, pageHeight: 800))
  }

  /// The glyph runs drawn inside `line` (their baselines fall within its box).
  func runs(_ page: Page, in line: LineBox) -> [GlyphRun] {
    page.items.compactMap {
      guard case .glyphs(let r) = $0, let y = r.y.first else { return nil }
      return Double(y) > line.rect.y && Double(y) <= line.rect.maxY ? r : nil
    }
  }

  func paragraphLines(_ page: Page, from prefix: String) throws -> [LineBox] {
    let first = try #require(
      page.lines.first { $0.text.lowercased().hasPrefix(prefix.lowercased()) })
    return page.lines.filter { $0.block == first.block }
  }

  @Test func exactlyTheFirstLineIsRestyled() throws {
    let b = try book(
      "p::first-line { text-transform: uppercase; letter-spacing: 0.1em }",
      "<p>\(Self.prose)</p>", "caps")
    let page = try #require(b.layout.pages.first)
    let lines = try paragraphLines(page, from: "The first")
    #expect(lines.count >= 3)
    #expect(lines[0].text == lines[0].text.uppercased())
    #expect(lines[0].text.contains("FORMATTED"))
    // Every later line is in the paragraph's own case, from its first word on.
    for l in lines.dropFirst() {
      #expect(l.text != l.text.uppercased(), "\(l.text)")
      #expect(l.text.first.map { $0.isLowercase || $0.isPunctuation } ?? false, "\(l.text)")
    }
    // No text is lost or doubled at the seam, and the wider capitals stay in the measure.
    let joined = lines.map(\.text).joined(separator: " ").lowercased()
    #expect(joined.replacingOccurrences(of: "- ", with: "-") == Self.prose.lowercased())
    for l in lines { #expect(l.rect.maxX <= 550.01, "\(l.text)") }
  }

  @Test func sizeAndColourOfTheFirstLine() throws {
    let b = try book(
      "p::first-line { font-size: 1.5em; color: #c00000 }", "<p>\(Self.prose)</p>", "size")
    let page = try #require(b.layout.pages.first)
    let lines = try paragraphLines(page, from: "The first")
    let first = runs(page, in: lines[0])
    #expect(!first.isEmpty)
    for r in first {
      #expect(r.size == 24)
      #expect(r.color == RGBA(r: 0xC0, g: 0, b: 0, a: 255))
    }
    for r in runs(page, in: lines[1]) {
      #expect(r.size == 16)
      #expect(r.color == RGBA(r: 0, g: 0, b: 0, a: 255))
    }
    // The larger text makes the first line box taller than the second.
    #expect(lines[0].rect.height > lines[1].rect.height + 4)
  }

  @Test func inlineDescendantsInheritButKeepTheirOwnDeclarations() throws {
    let b = try book(
      "p::first-line { color: #c00000 } span.own { color: #006000 }",
      "<p>Red <em>emphasis</em> and <span class=\"own\">green</span> then the rest of a long"
        + " paragraph that goes on past its first line in the colour of the paragraph.</p>",
      "inherit")
    let page = try #require(b.layout.pages.first)
    let lines = try paragraphLines(page, from: "Red")
    #expect(lines.count >= 2)
    let colours = Set(runs(page, in: lines[0]).map(\.color))
    #expect(colours == [RGBA(r: 0xC0, g: 0, b: 0, a: 255), RGBA(r: 0, g: 0x60, b: 0, a: 255)])
    #expect(Set(runs(page, in: lines[1]).map(\.color)) == [RGBA(r: 0, g: 0, b: 0, a: 255)])
  }

  @Test func divHandsItsFirstLineToItsFirstParagraphOnly() throws {
    let b = try book(
      "div::first-line { text-transform: uppercase }",
      "<div><p>\(Self.prose)</p><p>Second paragraph \(Self.prose)</p></div>", "div")
    let page = try #require(b.layout.pages.first)
    let one = try paragraphLines(page, from: "The first")
    let two = try paragraphLines(page, from: "Second")
    #expect(one[0].text == one[0].text.uppercased())
    #expect(one[1].text != one[1].text.uppercased())
    #expect(two[0].text.hasPrefix("Second paragraph"))
  }

  @Test func firstLetterInheritsFromTheFirstLine() throws {
    let b = try book(
      "p::first-letter { font-size: 2em } p::first-line { color: #c00000 }",
      "<p>\(Self.prose)</p>", "letter")
    let page = try #require(b.layout.pages.first)
    let lines = try paragraphLines(page, from: "The first")
    let first = runs(page, in: lines[0])
    let red = RGBA(r: 0xC0, g: 0, b: 0, a: 255)
    #expect(first.contains { $0.size == 32 && $0.color == red })
    #expect(first.contains { $0.size == 16 && $0.color == red })
    #expect(runs(page, in: lines[1]).allSatisfy { $0.size == 16 && $0.color != red })
  }

  @Test func blocksWithoutTheRuleAreUnchanged() throws {
    let plain = try book("", "<p>\(Self.prose)</p>", "plain")
    let other = try book("p.x::first-line { color: red }", "<p>\(Self.prose)</p>", "other")
    #expect(plain.layout.pages[0].lines == other.layout.pages[0].lines)
  }

  @Test func hostileFirstLinesAreBounded() throws {
    let long = String(repeating: "word ", count: 3000)
    let b = try book(
      "p::first-line { font-size: 1000em; letter-spacing: 500px; line-height: 100 }"
        + " p.n::first-line { font-size: 0.001em; word-spacing: -1000px }",
      "<p>\(long)</p><p class=\"n\">\(long)</p>"
        + String(repeating: "<p class=\"n\">Short one.</p>", count: 300), "hostile")
    let text = b.layout.pages.flatMap(\.lines).map(\.text).joined(separator: " ")
    #expect(text.components(separatedBy: "Short one.").count - 1 == 300)
    #expect(text.components(separatedBy: "word").count - 1 == 6000)
  }

  @Test func fixtureGolden() throws {
    let (book, page) = try oracleFixtureFirstPage(Self.fixture)
    try checkGolden(Data(GoldenPageTests().lineDump(page).utf8), "first-line.lines.txt")
    let image = book.makeRenderer().render(page, width: 600, height: 800, format: .rgba8)
    try checkGolden(Data(PNGCodec.encode(image)), "first-line.png")
  }
}
