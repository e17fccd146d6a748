// Inline text properties of issue #10 checked end to end, from the publisher's CSS to the
// glyphs on the page: `word-spacing` (CSS Text 3 §7.1) adds its length to every word
// separator, `font-variant-numeric` and `font-feature-settings` (CSS Fonts 4 §6.7, §7.2)
// choose the font's other figures.

import Foundation
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

@Suite struct TextPropertyTests {
  func page(_ body: String, css: String, name: String) throws -> Page {
    let url = try writeXHTMLChapter(
      body, css: "p { margin: 0; text-align: left; hyphens: none } \(css)", folder: "textprops",
      name: name)
    let book = try EagerBook(url.path, settings: LayoutSettings(pageWidth: 600, pageHeight: 800))
    return try #require(book.layout.pages.first)
  }

  @Test func wordSpacingAddsItsLengthToEverySpace() throws {
    let text = "Word spacing adds its length to every space"
    let p = try page(
      "<p>\(text)</p><p class=\"ws\">\(text)</p><p class=\"wse\">\(text)</p>",
      css: ".ws { word-spacing: 10px } .wse { word-spacing: 0.5em }", name: "ws")
    #expect(p.lines.count == 3)
    guard p.lines.count == 3 else { return }
    let spaces = Double(text.filter { $0 == " " }.count)
    let (plain, px, em) = (p.lines[0].rect.width, p.lines[1].rect.width, p.lines[2].rect.width)
    #expect(abs(px - plain - 10 * spaces) < 0.5, "\(plain) \(px)")
    #expect(abs(em - plain - 8 * spaces) < 0.5, "\(plain) \(em)")
  }

  /// The glyph ids drawn on `line`, left to right.
  static func glyphs(_ page: Page, _ line: LineBox) -> [UInt32] {
    page.items.flatMap { item -> [UInt32] in
      guard case .glyphs(let run) = item, let y = run.y.first,
        Double(y) > line.rect.y, Double(y) <= line.rect.maxY
      else { return [] }
      return run.glyphs
    }
  }

  @Test func numericVariantsAndFeatureSettingsChooseOldStyleFigures() throws {
    let p = try page(
      "<p>0123456789</p><p class=\"onum\">0123456789</p><p class=\"ffs\">0123456789</p>"
        + "<p class=\"off\">0123456789</p>",
      css:
        ".onum { font-variant-numeric: oldstyle-nums } .ffs { font-feature-settings: \"onum\" 1 }"
        + " .off { font-feature-settings: \"onum\" 0 }", name: "figures")
    #expect(p.lines.count == 4)
    guard p.lines.count == 4 else { return }
    let lining = Self.glyphs(p, p.lines[0])
    let oldstyle = Self.glyphs(p, p.lines[1])
    #expect(lining.count == 10 && oldstyle.count == 10)
    #expect(Set(lining).isDisjoint(with: oldstyle), "\(lining) \(oldstyle)")
    #expect(Self.glyphs(p, p.lines[2]) == oldstyle)
    #expect(Self.glyphs(p, p.lines[3]) == lining)
  }
}
