// CSS floats end to end (Blocks/FloatLayout.swift): the floats fixture of the browser
// oracle, laid out by the whole pipeline, checked as geometry (line boxes shortened beside
// the floats, full width below them, clearance, side-by-side floats, no line over a float),
// as a line dump and as an exact PNG golden; and a float that does not fit the page's rest.

import Foundation
import QuireRaster
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

@Suite("Floats", .serialized)
struct FloatTests {
  static let fixture = BrowserOracle.fixtures.appendingPathComponent("floats.xhtml").path

  func firstPage() throws -> (EagerBook, Page) { try oracleFixtureFirstPage(FloatTests.fixture) }

  /// True when the two rects overlap by more than half a pixel each way.
  func overlaps(_ a: Rect, _ b: Rect) -> Bool {
    a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5
      && b.y < a.y + a.height - 0.5
  }

  @Test func linesBesideALeftFloatAreShortened() throws {
    let (_, page) = try firstPage()
    let float = try #require(page.images.first)
    // `margin: 0 1em 0.5em 0` at 16 px: the lines start 16 px right of the image.
    let beside = page.lines.filter { $0.text.hasPrefix("An image floated") }
    let first = try #require(beside.first)
    #expect(first.rect.x == float.rect.x + float.rect.width + 16)
    #expect(first.rect.x + first.rect.width <= 550.5)
    // The paragraph's lines below the float's margin box take the full measure again.
    let below = page.lines.filter { $0.rect.y >= float.rect.maxY + 8 && $0.role == .text }
    let next = try #require(below.first)
    #expect(next.rect.x == 50)
    #expect(next.text.hasPrefix("whole measure"))
  }

  @Test func rightFloatClearanceAndSideBySide() throws {
    let (_, page) = try firstPage()
    #expect(page.images.count == 4)
    let right = page.images[1]
    #expect(right.rect.x + right.rect.width == 550)  // against the right content edge
    #expect(right.rect.width == 128)  // width: 8em
    let wrapped = try #require(page.lines.first { $0.text.hasPrefix("A right float") })
    #expect(wrapped.rect.x == 50)
    #expect(wrapped.rect.x + wrapped.rect.width <= right.rect.x - 16 + 0.5)
    // clear: both starts below both floats' margin boxes.
    let cleared = try #require(page.lines.first { $0.text.hasPrefix("This paragraph clears") })
    #expect(cleared.rect.y >= right.rect.maxY + 8 - 0.01)
    #expect(cleared.rect.x == 50)
    // Two left floats side by side on one line top; the text beside both.
    let (a, b) = (page.images[2], page.images[3])
    #expect(a.rect.y == b.rect.y)
    #expect(b.rect.x >= a.rect.x + a.rect.width)
    let besideBoth = try #require(page.lines.first { $0.text.hasPrefix("Two left floats") })
    #expect(besideBoth.rect.x >= b.rect.x + b.rect.width)
  }

  @Test func noLineOverlapsAFloatAndBlockBoxesKeepTheirWidth() throws {
    let (_, page) = try firstPage()
    for line in page.lines {
      for image in page.images {
        #expect(!overlaps(line.rect, image.rect), "\(line.text) over \(image.href)")
      }
    }
    for box in page.blocks where box.tag == "p" {
      #expect(box.rect.width == 500, "\(box.tag) \(box.rect)")
    }
  }

  @Test func fixtureGoldens() throws {
    let (book, page) = try firstPage()
    try checkGolden(Data(GoldenPageTests().lineDump(page).utf8), "floats.lines.txt")
    let image = book.makeRenderer().render(page, width: 600, height: 800, format: .gray8)
    try checkGolden(Data(PNGCodec.encode(image)), "floats.png")
  }

  /// A float below which the page has too little room starts the next page with the lines
  /// beside it; no float crosses a page's bottom and no line runs over one.
  @Test func floatThatDoesNotFitMovesToTheNextPage() throws {
    let folder = temporaryFolder("floats-next-page")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let filler = String(repeating: "Words that fill the page before the float. ", count: 6)
    var body = ""
    for k in 0..<9 { body += "<p>\(k) \(filler)</p>\n" }
    body += "<img class=\"f\" src=\"small.png\" alt=\"\"/>\n<p>Beside the float. \(filler)</p>\n"
    let xhtml = """
      <?xml version="1.0" encoding="utf-8"?>
      <html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title>
      <style>img.f { float: left; width: 240px; height: 160px }</style></head>
      <body>\(body)</body></html>
      """
    let path = folder + "/next.xhtml"
    try Data(xhtml.utf8).write(to: URL(fileURLWithPath: path))
    try FileManager.default.copyItem(
      atPath: BrowserOracle.fixtures.appendingPathComponent("small.png").path,
      toPath: folder + "/small.png")
    let settings = LayoutSettings(pageWidth: 600, pageHeight: 800)
    let book = try EagerBook(path, settings: settings)
    let pages = book.layout.pages
    let withFloat = try #require(pages.first { !$0.images.isEmpty })
    #expect(withFloat.number > 1)
    let float = try #require(withFloat.images.first)
    #expect(float.rect.maxY <= 800 - settings.layoutOptions.margins.bottom + 0.01)
    let beside = try #require(withFloat.lines.first { $0.text.hasPrefix("Beside the float") })
    #expect(beside.rect.y == float.rect.y)
    #expect(beside.rect.x >= float.rect.maxX)
    for page in pages {
      for line in page.lines {
        for image in page.images { #expect(!overlaps(line.rect, image.rect), "\(line.text)") }
      }
    }
  }
}
