// The CSS fixture book of issue #10 (samples/css-fixtures.epub, made by
// scripts/make-css-fixtures.py: one chapter per feature group — boxes, floats, tables, code,
// selectors, text, lists, images, breaks, footnotes, colour): the first page of every
// chapter as an exact colour PNG and a line dump, so that any change to how a group is drawn
// shows up here. QUIRE_BLESS=1 rewrites them after an intended change (look at them).

import Foundation
import QuireRaster
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

@Suite("CSS fixture book", .serialized)
struct CSSFixtureBookTests {
  static let path = packageRoot.appendingPathComponent("samples/css-fixtures.epub").path
  static let chapters = [
    "boxes", "floats", "tables", "code", "selectors", "text", "lists", "images", "breaks",
    "footnotes", "colour",
  ]

  @Test func everyChapterHasAFirstPageGolden() throws {
    let book = try EagerBook(Self.path, settings: LayoutSettings(pageWidth: 600, pageHeight: 800))
    for name in Self.chapters {
      let page = try #require(
        book.layout.pages.first { $0.href.hasSuffix("text/\(name).xhtml") }, "\(name)")
      try checkGolden(Data(GoldenPageTests().lineDump(page).utf8), "css-book-\(name).lines.txt")
      let image = book.makeRenderer().render(page, width: 600, height: 800, format: .rgba8)
      try checkGolden(Data(PNGCodec.encode(image)), "css-book-\(name).png")
    }
  }
}
