// `vertical-align: top` and `bottom` on images and inline blocks (CSS 2.1 §10.8): aligned
// with the line box once the rest of the line is aligned, not with the parent's text. The
// fixture is the browser oracle's vertical-align.xhtml (Chromium agrees on its one-line
// heights, BrowserOracleTests); here the geometry is asserted directly on a page wide
// enough for every paragraph to be one line.

import Foundation
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

@Suite struct VerticalAlignTests {
  static let fixture = packageRoot.appendingPathComponent(
    "Tests/Fixtures/browser-oracle/vertical-align.xhtml")

  static func page() throws -> Page {
    let book = try EagerBook(
      fixture.path, settings: LayoutSettings(pageWidth: 900, pageHeight: 1400))
    return try #require(book.layout.pages.first)
  }

  /// The images whose vertical middle lies on `line`, left to right.
  static func images(_ page: Page, on line: LineBox) -> [Rect] {
    page.images.map(\.rect).filter {
      $0.y + $0.height / 2 > line.rect.y && $0.y + $0.height / 2 < line.rect.maxY
    }.sorted { $0.x < $1.x }
  }

  @Test func topAndBottomImagesSitAtTheLineBoxEdges() throws {
    let page = try Self.page()
    let lines = page.lines
    try #require(lines.count >= 9, "\(lines.map(\.text))")
    // Which images of each of the first nine lines are `top` (t) or `bottom` (b).
    let kinds: [[Character]] = [
      ["t"], ["b"], ["t"], ["b"], ["t", "b"], ["t", "m"], ["b", "m"], ["t"], ["b", "s"],
    ]
    for (i, kind) in kinds.enumerated() {
      let line = lines[i]
      let imgs = Self.images(page, on: line)
      try #require(imgs.count == kind.count, "line \(i): \(line.text)")
      for (img, k) in zip(imgs, kind) {
        if k == "t" { #expect(abs(img.y - line.rect.y) < 0.01, "line \(i) top") }
        if k == "b" { #expect(abs(img.maxY - line.rect.maxY) < 0.01, "line \(i) bottom") }
      }
    }
    // An 80 px image taller than the rest of the line: the line is exactly its height.
    #expect(abs(lines[0].rect.height - 80) < 0.01)
    #expect(abs(lines[1].rect.height - 80) < 0.01)
    // A 40 px image beside 40 px text (a 56 px line): the line keeps the text's height,
    // whichever edge the image is aligned with.
    #expect(abs(lines[2].rect.height - lines[3].rect.height) < 0.01)
    #expect(lines[2].rect.height < 60)
    // Two 40 px images, one at each edge of a 22.4 px line: the line is 40 px.
    #expect(abs(lines[4].rect.height - 40) < 0.01)
    // A `middle` image sets the line; a shorter `top`/`bottom` one does not change it.
    #expect(lines[5].rect.height >= 80)
  }

  /// The baselines of the 40-px glyph runs (`.big` spans) on `line`, left to right.
  static func bigBaselines(_ page: Page, on line: LineBox) -> [Double] {
    var runs: [GlyphRun] = []
    for item in page.items { item.forEachGlyphRun { runs.append($0) } }
    return runs.filter {
      $0.size == 40 && Double($0.y[0]) > line.rect.y && Double($0.y[0]) < line.rect.maxY
    }.sorted { $0.x[0] < $1.x[0] }.map { Double($0.y[0]) }
  }

  /// Text spans (vertical-align-text.xhtml, 40-px text with a 56-px line height in 16-px
  /// text of 22.4): `top`/`bottom` align their inline box with the line box, not with the
  /// parent's text as `text-top`/`text-bottom` do (Chromium agrees on every one-line
  /// height, BrowserOracleTests; before, they were taken as `text-top`/`text-bottom`).
  @Test func topAndBottomTextSitsAtTheLineBoxEdges() throws {
    let book = try EagerBook(
      packageRoot.appendingPathComponent("Tests/Fixtures/browser-oracle/vertical-align-text.xhtml")
        .path, settings: LayoutSettings(pageWidth: 900, pageHeight: 1400))
    let page = try #require(book.layout.pages.first)
    let lines = page.lines
    try #require(lines.count == 8, "\(lines.map(\.text))")
    // "Both top and bottom": the two 56-px boxes make the line, which is exactly 56 px
    // (as text-top/text-bottom, the bottom span would stand 34 px higher: 90 px).
    #expect(abs(lines[2].rect.height - 56) < 0.01)
    let both = Self.bigBaselines(page, on: lines[2])
    try #require(both.count == 2)
    let above = both[0] - lines[2].rect.y  // the 40-px text's baseline below its box top
    #expect(abs(both[1] - both[0]) < 0.01)
    // A 60-px image on the baseline sets the line; the `top` span hangs from its top and
    // fits inside, so the line keeps the image's height (text-top: 33 px taller).
    let top = Self.bigBaselines(page, on: lines[0])
    #expect(top.count == 1 && abs(top[0] - (lines[0].rect.y + above)) < 0.01)
    #expect(lines[0].rect.height < 70 && lines[5].rect.height > lines[0].rect.height + 20)
    // An image lowered 40 px: the `bottom` span stands on the line's bottom.
    let bottom = Self.bigBaselines(page, on: lines[1])
    #expect(bottom.count == 1)
    #expect(abs(bottom[0] - (lines[1].rect.maxY - 56 + above)) < 0.01)
    #expect(lines[1].rect.height < 65 && lines[6].rect.height > lines[1].rect.height + 20)
  }
}
