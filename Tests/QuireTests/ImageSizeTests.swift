import Foundation
import QuireCore
import QuireTypeset
import Testing

@testable import Quire

/// Image sizes of issue #10: intrinsic CSS px at 96 dpi, never upscaled unless the CSS asks,
/// scaled down to the column and the page, object-fit for images with both sizes. Pages are
/// 600×800 with 50 px margins: a 500×700 text area.
@Suite struct ImageSizeTests {
  /// A folder holding `page.xhtml` with `body` and the PNGs it names (WxH.png, gray).
  static func book(_ name: String, body: String, images: [(Int, Int)]) throws -> String {
    let dir = temporaryFolder("images-\(name)")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    for (w, h) in images {
      let png = PNGEncoder.encode(PixelBuffer(width: w, height: h, format: .gray8, fill: 90))
      try Data(png).write(to: URL(fileURLWithPath: "\(dir)/\(w)x\(h).png"))
    }
    let page = """
      <?xml version="1.0" encoding="utf-8"?>
      <html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title></head>
      <body>\(body)</body></html>
      """
    try Data(page.utf8).write(to: URL(fileURLWithPath: "\(dir)/page.xhtml"))
    return "\(dir)/page.xhtml"
  }

  /// The image boxes of every page, rounded to 0.01 px: (page, x, y, width, height).
  static func boxes(_ path: String, settings: LayoutSettings = LayoutSettings()) throws
    -> [[Double]]
  {
    let book = try EagerBook(path, settings: settings)
    var out: [[Double]] = []
    for p in book.layout.pages {
      for i in p.images {
        out.append(
          [Double(p.number), i.rect.x, i.rect.y, i.rect.width, i.rect.height].map {
            ($0 * 100).rounded() / 100
          })
      }
    }
    return out
  }

  @Test func blockImagesKeepTheirIntrinsicSize() throws {
    // A 243×400 portrait and a 100×50 image, alone in their paragraphs: drawn at their own
    // size, centred (they were drawn 340 px and 200×100 before).
    let path = try Self.book(
      "intrinsic", body: "<p><img src='243x400.png' alt=''/></p><p><img src='100x50.png'/></p>",
      images: [(243, 400), (100, 50)])
    let b = try Self.boxes(path)
    #expect(b.count == 2)
    #expect(b[0] == [1, 178.5, 66, 243, 400])  // y: top margin 50 + the p's 1em margin
    #expect(Array(b[1][3...]) == [100, 50] && b[1][1] == 250)
  }

  @Test func largeImagesAreScaledDownToTheColumnAndThePage() throws {
    let path = try Self.book(
      "large", body: "<p><img src='1000x500.png'/></p><p><img src='300x1400.png'/></p>",
      images: [(1000, 500), (300, 1400)])
    let b = try Self.boxes(path)
    #expect(b.map { Array($0[3...]) } == [[500, 250], [150, 700]])
  }

  @Test func cssPixelsFollowTheFontSize() throws {
    // --font-size 32: a CSS px is 2 page px, as for every other publisher length. The
    // 243×400 portrait would be 486×800; the 700-px page scales it to 425.25×700.
    var settings = LayoutSettings()
    settings.fontSize = 32
    let path = try Self.book(
      "fontsize", body: "<p><img src='243x400.png'/></p><p><img src='100x50.png'/></p>",
      images: [(243, 400), (100, 50)])
    let b = try Self.boxes(path, settings: settings)
    #expect(b.map { Array($0[3...]) } == [[425.25, 700], [200, 100]])
  }

  @Test func cssSizesMayUpscale() throws {
    let body = """
      <p><img src='100x50.png' style='width: 50%'/></p>
      <p><img src='100x50.png' style='height: 100px'/></p>
      <p><img src='100x50.png' width='200'/></p>
      <p><img src='100x50.png' width='200' style='width: 120px'/></p>
      <p><img src='2000x100.png' style='max-width: 100%'/></p>
      <p><img src='100x50.png' style='width: 400px; max-width: 300px'/></p>
      <p><img src='100x50.png' style='min-width: 150px'/></p>
      <p><img src='100x50.png' style='max-height: 20px'/></p>
      """
    let path = try Self.book("css", body: body, images: [(100, 50), (2000, 100)])
    let b = try Self.boxes(path)
    #expect(
      b.map { Array($0[3...]) } == [
        [250, 125], [200, 100], [200, 100], [120, 60], [500, 25], [300, 150], [150, 75],
        [40, 20],
      ])
  }

  @Test func objectFitPlacesTheContentInItsBox() throws {
    // 200×200 boxes for a 100×50 image: the manifest's box is 200×200 every time; the
    // drawn content follows object-fit and is clipped to the box when it spills.
    let fits = ["fill", "contain", "cover", "none", "scale-down"]
    let body = fits.map {
      "<p><img src='100x50.png' style='width: 200px; height: 200px; object-fit: \($0)'/></p>"
    }.joined()
    let path = try Self.book("fit", body: body, images: [(100, 50)])
    let book = try EagerBook(path)
    var drawn: [[Double]] = []
    var clips: [Bool] = []
    for p in book.layout.pages {
      for i in p.images { #expect(i.rect.width == 200 && i.rect.height == 200) }
      for case .image(let place) in p.items {
        let box = try #require(p.images.first { $0.rect.y <= place.rect.y + 200 })
        drawn.append([
          place.rect.x - box.rect.x, place.rect.width, place.rect.height,
        ])
        clips.append(place.clip != nil)
      }
    }
    #expect(
      drawn == [[0, 200, 200], [0, 200, 100], [-100, 400, 200], [50, 100, 50], [50, 100, 50]])
    #expect(clips == [false, false, true, false, false])
  }

  @Test func objectPositionMovesTheContent() throws {
    let body =
      "<p><img src='100x50.png' style='width: 200px; height: 200px; object-fit: contain; object-position: left top'/></p>"
    let book = try EagerBook(try Self.book("position", body: body, images: [(100, 50)]))
    let page = try #require(book.layout.pages.first)
    let box = try #require(page.images.first).rect
    guard
      case .image(let place)? = page.items.first(where: {
        if case .image = $0 { true } else { false }
      })
    else { throw CancellationError() }
    #expect(place.rect.x == box.x && place.rect.y == box.y && place.rect.height == 100)
  }

  @Test func inlineImagesAreSizedTheSameWayAndGrowTheirLine() throws {
    let body = """
      <p>Text <img src='40x60.png' alt=''/> more text.</p>
      <p>Big <img src='1000x500.png' alt=''/> end.</p>
      """
    let book = try EagerBook(
      try Self.book("inline", body: body, images: [(40, 60), (1000, 500)]))
    let pages = book.layout.pages
    let images = pages.flatMap(\.images)
    #expect(images.map { [$0.rect.width, $0.rect.height] } == [[40, 60], [500, 250]])
    // The line holding the 60-px image is at least 60 px tall and contains it.
    let line = try #require(pages[0].lines.first)
    #expect(line.rect.height >= 60)
    #expect(images[0].rect.y >= line.rect.y - 0.5 && images[0].rect.maxY <= line.rect.maxY + 0.5)
  }
}
