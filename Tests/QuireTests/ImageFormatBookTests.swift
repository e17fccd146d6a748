import Foundation
import QuireCore
import QuireIngest
import QuireRaster
import QuireTestSupport
import Testing

@testable import Quire

/// Issue #11 end to end on Fixtures/image-formats.epub (make-image-formats.py): one image
/// per raster format, data: URLs in <img> and a CSS background, and a manifest fallback
/// chain, all drawn without an undrawable-image warning.
@Suite struct ImageFormatBookTests {
  static let fixture = packageRoot.appendingPathComponent(
    "Tests/QuireTests/Fixtures/image-formats.epub"
  ).path

  @Test func everyImageIsDrawnWithoutWarnings() throws {
    let book = try EagerBook(
      Self.fixture, settings: LayoutSettings(pageWidth: 400, pageHeight: 600))
    #expect(book.warnings.isEmpty, "\(book.warnings)")
    let renderer = book.makeRenderer()
    var placed = 0
    for page in book.layout.pages {
      _ = renderer.render(page, width: 400, height: 600, format: .rgba8)
      placed += page.images.count
    }
    #expect(placed >= 12)
    #expect(renderer.warnings.isEmpty, "\(renderer.warnings.map(\.description))")
  }

  @Test func aTIFFItemFallsBackThroughTheChainToItsPNG() throws {
    let document = try Book.open(URL(fileURLWithPath: Self.fixture))
    let served = document.resources.data(forHref: "OPS/images/scan.tif")
    #expect(served.map { ImageFormat.sniff($0) } == .png)
    // The PNG itself is served as is; an unknown file without a chain is served as is.
    #expect(document.resources.data(forHref: "OPS/images/scan.png").map(ImageFormat.sniff) == .png)
  }

  @Test func dataURLsDecode() throws {
    #expect(try DataURL.decode("data:,a%20b") == Data("a b".utf8))
    #expect(try DataURL.decode("data:text/plain;charset=utf-8;base64,aGk=") == Data("hi".utf8))
    #expect(try DataURL.decode("DATA:;base64,aG\n k") == Data("hi".utf8))  // unpadded, spaced
    #expect(try DataURL.decode("data:image/png;base64,aGk%3D") == Data("hi".utf8))
    #expect(throws: DataURL.Failure.malformed) { try DataURL.decode("data:image/png;base64") }
    #expect(throws: DataURL.Failure.badBase64) { try DataURL.decode("data:;base64,a") }
    let long = "data:," + String(repeating: "a", count: DataURL.maxEncodedBytes)
    #expect(throws: DataURL.Failure.tooLong(bytes: long.utf8.count)) { try DataURL.decode(long) }
    #expect(DataURL.isDataURL("  data:,x") && !DataURL.isDataURL("images/data:x"))
  }
}
