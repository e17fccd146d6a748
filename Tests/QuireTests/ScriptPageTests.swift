// Golden pages of eight scripts (issue #11): Article 1 of the Universal Declaration of Human
// Rights in Devanagari, Bengali, Tamil, Thai, Hebrew, Ethiopic, Hangul and Khmer
// (Tests/Fixtures/scripts/udhr-article-1.xhtml), set with the vendored fonts alone. The
// shaping itself (conjuncts, reordering) is checked glyph by glyph against hb-shape in
// ScriptFallbackTests; these pin the whole page: fallback per cluster, line breaking (ICU
// dictionaries for Thai and Khmer), bidi for Hebrew, and the pixels.

import Foundation
import QuireRaster
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

@Suite struct ScriptPageTests {
  static let fixture = packageRoot.appendingPathComponent(
    "Tests/Fixtures/scripts/udhr-article-1.xhtml"
  ).path

  @Test func eightScriptsGoldenPage() throws {
    var settings = LayoutSettings(pageWidth: 600, pageHeight: 1000)
    settings.systemFonts = false
    let book = try EagerBook(Self.fixture, settings: settings)
    #expect(book.layout.warnings.filter { $0.kind == .missingGlyph }.isEmpty, "\(book.warnings)")
    #expect(book.layout.pages.count == 1)
    let page = try #require(book.layout.pages.first)
    // Every script's paragraph is on the page, its text whole (spaces aside).
    let shown = page.lines.map(\.text).joined().filter { !$0.isWhitespace }
    for word in [
      "स्वतन्त्रता", "ভ্রাতৃত্বসুলভ", "மனச்சாட்சியையும்", "ภราดรภาพ", "ובזכויותיהם", "በወንድማማችነት", "존엄과", "សេរីភាព",
    ] {
      #expect(shown.range(of: word, options: .literal) != nil, "\(word)")  // by code units
    }
    // The Hebrew paragraph is right to left: its lines end at the right edge.
    let hebrew = page.lines.filter {
      $0.text.unicodeScalars.contains { (0x5D0...0x5EA).contains($0.value) }
    }
    #expect(
      !hebrew.isEmpty && hebrew.allSatisfy { abs($0.rect.maxX - 550) < 1 }, "\(hebrew.map(\.rect))")
    try checkGolden(Data(GoldenPageTests().lineDump(page).utf8), "scripts-udhr.lines.txt")
    let image = book.makeRenderer().render(page, width: 600, height: 1000, format: .gray8)
    try checkGolden(Data(PNGCodec.encode(image)), "scripts-udhr.png")
  }
}
