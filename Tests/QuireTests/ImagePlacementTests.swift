// Where an image alone in its block goes across the column (Blocks/BlockImage.swift): in a
// chapter with a publisher style sheet, by its CSS as a browser places it (the block's
// `text-align`, the image's `auto` side margins; images.xhtml of the browser oracle agrees
// with Chromium on every one); in a chapter without one, centred (the reader's default).

import Foundation
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

@Suite struct ImagePlacementTests {
  static let width = 600

  /// The first page of a chapter holding `body`, with a `<style>` of `css` when given, and
  /// the oracle's 120 × 80 px small.png beside it.
  func page(_ body: String, css: String?, name: String) throws -> Page {
    let url = try writeXHTMLChapter(body, css: css, folder: "imgplace", name: name)
    let png = packageRoot.appendingPathComponent("Tests/Fixtures/browser-oracle/small.png")
    let copy = url.deletingLastPathComponent().appendingPathComponent("small.png")
    if !FileManager.default.fileExists(atPath: copy.path) {
      try FileManager.default.copyItem(at: png, to: copy)
    }
    let book = try EagerBook(
      url.path, settings: LayoutSettings(pageWidth: Self.width, pageHeight: 800))
    return try #require(book.layout.pages.first)
  }

  /// The text area's left and right edges.
  var column: (left: Double, right: Double) {
    let m = LayoutSettings(pageWidth: Self.width, pageHeight: 800).effectiveMargins
    return (Double(m.left), Double(Self.width) - Double(m.right))
  }

  /// The left edges of the page's images, top to bottom.
  func lefts(_ page: Page) -> [Double] {
    page.images.sorted { $0.rect.y < $1.rect.y }.map(\.rect.x)
  }

  static let images = """
    <div><img src="small.png" alt=""/></div>
    <div class="c"><img src="small.png" alt=""/></div>
    <div><img class="auto" src="small.png" alt=""/></div>
    <div class="r"><img src="small.png" alt=""/></div>
    <div class="j"><img src="small.png" alt=""/></div>
    <div dir="rtl"><img src="small.png" alt=""/></div>
    <p class="i"><img src="small.png" alt=""/></p>
    """

  @Test func publisherCSSPlacesImagesAsABrowserDoes() throws {
    let css = """
      p { margin: 0 } .c { text-align: center } .r { text-align: right }
      .j { text-align: justify } img.auto { display: block; margin: 0 auto }
      .i { text-indent: 2em }
      """
    let xs = lefts(try page(Self.images, css: css, name: "styled"))
    try #require(xs.count == 7)
    let (l, r) = column
    let centred = l + (r - l - 120) / 2
    #expect(abs(xs[0] - l) < 0.01, "start: the left edge")
    #expect(abs(xs[1] - centred) < 0.01, "text-align: center")
    #expect(abs(xs[2] - centred) < 0.01, "margin: 0 auto")
    #expect(abs(xs[3] - (r - 120)) < 0.01, "text-align: right")
    #expect(abs(xs[4] - l) < 0.01, "justify: the last line is not justified")
    #expect(abs(xs[5] - (r - 120)) < 0.01, "start in a right-to-left block: the right edge")
    #expect(abs(xs[6] - (l + 32)) < 0.01, "the block's 2 em text-indent opens the line")
  }

  @Test func unstyledImagesAreCentred() throws {
    let xs = lefts(try page(Self.images, css: nil, name: "bare"))
    try #require(xs.count == 7)
    let (l, r) = column
    let centred = l + (r - l - 120) / 2
    for (i, x) in xs.enumerated() { #expect(abs(x - centred) < 0.01, "image \(i)") }
  }
}
