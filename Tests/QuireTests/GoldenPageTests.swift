import Foundation
import QuireRaster
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

/// Whole-pipeline goldens: for fixed pages of corpus books, the line boxes as a readable text
/// dump and the exact PNG. They pin typography (justification, hyphenation, CJK, Arabic,
/// embedded fonts) end to end; QUIRE_BLESS=1 rewrites them after an intended change.
@Suite("Golden pages", .serialized)
struct GoldenPageTests {
  struct Case: Sendable, CustomStringConvertible {
    var name: String
    var book: String
    var page: Int
    var width = 600
    var height = 800
    var description: String { name }
  }

  static let cases: [Case] = [
    Case(name: "moby-justified", book: "moby-dick.epub", page: 20),
    Case(name: "moby-narrow-hyphenated", book: "moby-dick.epub", page: 40, width: 320, height: 480),
    Case(name: "xiyouji-chinese", book: "xiyouji-journey-to-the-west.utf8.txt", page: 3),
    Case(name: "jlreq-japanese", book: "jlreq-in-japanese.epub", page: 228),
    Case(name: "regime-arabic", book: "regime-anticancer-arabic.epub", page: 4),
    // Page 4 since the cover image became page 1 (issue #11); the same page as before.
    Case(name: "wasteland-embedded-font", book: "wasteland-otf-obf.epub", page: 4),
  ]

  @Test(.enabled(if: corpusPresent, Comment(rawValue: Corpus.missing)), arguments: cases)
  func page(_ c: Case) throws {
    let book = try EagerBook(
      corpusBook(c.book), settings: LayoutSettings(pageWidth: c.width, pageHeight: c.height))
    let page = try #require(book.layout.pages.first { $0.number == c.page })
    try checkGolden(Data(lineDump(page).utf8), "\(c.name).lines.txt")
    let image = book.makeRenderer().render(page, width: c.width, height: c.height, format: .gray8)
    try checkGolden(Data(PNGCodec.encode(image)), "\(c.name).png")
  }

  func lineDump(_ page: Page) -> String {
    var s =
      "page \(page.number)  spine \(page.spine)  \(page.href)  start \(page.start.spine):\(page.start.offset)  end \(page.end.spine):\(page.end.offset)\n"
    s += "   y      x      w      h  ratio  hy block role  text\n"
    for l in page.lines {
      s += String(
        format: "%6.1f %6.1f %6.1f %6.1f %+6.2f  ", l.rect.y, l.rect.x, l.rect.width, l.rect.height,
        l.ratio)
      s += (l.hyphenated ? "-" : " ") + String(format: " %5d ", l.block)
      s += l.role.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0) + "  " + l.text + "\n"
    }
    for i in page.images {
      s +=
        String(
          format: "image %6.1f %6.1f %6.1f %6.1f  ", i.rect.x, i.rect.y, i.rect.width, i.rect.height
        ) + i.href + "\n"
    }
    return s
  }
}
