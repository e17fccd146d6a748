import Foundation
import QuireCore
import QuireIngest
import QuireRaster
import QuireTestSupport
import Testing

@testable import Quire

/// A shelf reads each book's cover from its package, laying a book out (through page 1) only
/// when neither the package nor its first document shows a cover image.
@Suite struct ShelfCoverTests {
  /// The bytes of `entry` inside the corpus EPUB `name`.
  static func entry(_ name: String, _ entry: String) throws -> Data {
    let unzip = try Subprocess.run("/usr/bin/unzip", ["-p", Corpus.path(name), entry])
    try #require(unzip.status == 0)
    return Data(unzip.out)
  }

  static let page = LayoutSettings(pageWidth: 300, pageHeight: 400)

  /// The package's cover-image item, decoded by the DCT at half size (the smallest scale
  /// still at least as large as asked): 646x902 → 323x451.
  @Test(.enabled(if: Corpus.has("moby-dick.epub"), Comment(rawValue: Corpus.missing)))
  func packageCoverImageAtTheSizeAsked() throws {
    let cover = try Cover.read(
      Corpus.path("moby-dick.epub"), page: Self.page, atLeast: (240, 360))
    #expect((cover.width, cover.height) == (323, 451))
    let href = "OPS/images/9780316000000.jpg"
    let expected = try #require(
      decodeImage(try Self.entry("moby-dick.epub", href), href: href, atLeast: (240, 360)))
    #expect(cover == expected.converted(to: .rgba8))
    // Unbounded: the whole picture.
    let full = try Cover.read(Corpus.path("moby-dick.epub"), page: Self.page)
    #expect((full.width, full.height) == (646, 902))
  }

  /// No cover declared, and the first spine document shows one image and no text: that
  /// image is the cover.
  @Test(.enabled(if: Corpus.has("haruko-html-jpeg.epub"), Comment(rawValue: Corpus.missing)))
  func loneImageOfTheFirstDocument() throws {
    let cover = try Cover.read(Corpus.path("haruko-html-jpeg.epub"), page: Self.page)
    let href = "OPS/images/01.jpg"
    let expected = try #require(
      decodeImage(try Self.entry("haruko-html-jpeg.epub", href), href: href))
    #expect(cover == expected.converted(to: .rgba8))
  }

  /// A book whose first document is text has its page 1 drawn at the page size, exactly as
  /// opening it through page 1 draws it.
  @Test(.enabled(if: Corpus.has("jlreq-in-japanese.epub"), Comment(rawValue: Corpus.missing)))
  func pageOneWhenThereIsNoPicture() throws {
    let path = Corpus.path("jlreq-in-japanese.epub")
    let cover = try Cover.read(path, page: Self.page)
    #expect((cover.width, cover.height) == (300, 400))
    let book = try PagedBook(path, layout: Self.page, threads: 1, through: 1)
    #expect(cover == (try book.page(1, color: .rgb)))
  }

  /// Plain text has no package: page 1.
  @Test(.enabled(if: Corpus.has("pride-and-prejudice.txt"), Comment(rawValue: Corpus.missing)))
  func plainTextIsPageOne() throws {
    let cover = try Cover.read(Corpus.path("pride-and-prejudice.txt"), page: Self.page)
    #expect((cover.width, cover.height) == (300, 400))
  }

  /// Only a document of exactly one image and no text counts as a picture.
  @Test func loneImageNeedsOneImageAndNoText() {
    func image(_ href: String) -> Block {
      Block(
        kind: .image(ImageRef(href: href, alt: "")), style: ComputedStyle(),
        location: Location(spine: 0, offset: 0), element: "img")
    }
    func container(_ children: [Block]) -> Block {
      Block(
        kind: .container, style: ComputedStyle(), children: children,
        location: Location(spine: 0, offset: 0), element: "div")
    }
    #expect(Cover.loneImage([container([image("a.jpg")])]) == "a.jpg")
    #expect(Cover.loneImage([container([image("a.jpg"), image("b.jpg")])]) == nil)
    #expect(Cover.loneImage([container([])]) == nil)
    #expect(Cover.loneImage([]) == nil)
  }

  /// A missing book is the façade's cannot-open error, not a crash.
  @Test func missingBookIsCannotOpen() {
    #expect(throws: QuireError.self) {
      try Cover.read("/nonexistent/book.epub", page: Self.page)
    }
  }
}
