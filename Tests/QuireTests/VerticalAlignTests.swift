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
}
