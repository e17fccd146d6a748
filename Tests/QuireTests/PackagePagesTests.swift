import Foundation
import QuireCore
import QuireIngest
import QuireRaster
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

/// Pages from the package (issue #11): image and SVG spine items become one page each, the
/// cover image becomes page 1 when no spine document shows it, inline SVG is drawn, TOC
/// labels that are images get their alt text.
@Suite struct PackagePagesTests {
  /// An unpacked EPUB in a temporary folder: `manifest` items and `spine` idrefs of
  /// OPS/content.opf, `files` under OPS/.
  static func book(
    _ name: String, manifest: String, spine: [String], metadata: String = "",
    files: [String: Data]
  ) throws -> String {
    let dir = temporaryFolder("package-pages-\(name)")
    let opf = """
      <?xml version="1.0" encoding="utf-8"?>
      <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
      <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">x</dc:identifier>
      <dc:title>T</dc:title><dc:language>en</dc:language>\(metadata)</metadata>
      <manifest>\(manifest)</manifest>
      <spine>\(spine.map { "<itemref idref=\"\($0)\"/>" }.joined())</spine></package>
      """
    try writeUnpackedEPUB(dir, opf: opf, files: files)
    return dir
  }

  static let cover = Data(
    PNGEncoder.encode(PixelBuffer(width: 300, height: 400, format: .gray8, fill: 40)))
  static func chapter(_ body: String) -> Data {
    Data(
      """
      <?xml version="1.0" encoding="utf-8"?>
      <html xmlns="http://www.w3.org/1999/xhtml"><head><title>c</title></head><body>\(body)</body></html>
      """.utf8)
  }

  static func coverBook(_ name: String, body: String, epub2: Bool = false) throws -> String {
    let property = epub2 ? "" : " properties=\"cover-image\""
    return try book(
      name,
      manifest: """
        <item id="c" href="cover.png" media-type="image/png"\(property)/>
        <item id="t" href="text.xhtml" media-type="application/xhtml+xml"/>
        """, spine: ["t"], metadata: epub2 ? "<meta name=\"cover\" content=\"c\"/>" : "",
      files: ["cover.png": cover, "text.xhtml": chapter(body)])
  }

  @Test func coverAutoAddsAPageOffDoesNot() throws {
    let path = try Self.coverBook("cover", body: "<p>Chapter one.</p>")
    let auto = try EagerBook(path)
    #expect(auto.layout.pages.count == 2)
    let first = try #require(auto.layout.pages.first)
    #expect(first.href == "OPS/cover.png" && first.lines.isEmpty)
    // The box is the content box; the 300×400 image is fitted into it at its aspect, centred:
    // as wide as the column.
    let box = try #require(first.images.first).rect
    let m = LayoutSettings().effectiveMargins
    #expect(abs(box.x - m.left) < 0.5 && abs(box.width - (600 - m.left - m.right)) < 0.5)
    let drawn = try #require(
      first.items.compactMap { item -> Rect? in
        if case .image(let p) = item { return p.rect } else { return nil }
      }.first)
    #expect(abs(drawn.width - box.width) < 0.5)
    #expect(abs(drawn.width / drawn.height - 0.75) < 0.01)
    #expect(abs((drawn.y - box.y) - (box.maxY - drawn.maxY)) < 0.5)
    #expect(auto.layout.pages[1].lines.first?.text == "Chapter one.")

    var settings = LayoutSettings()
    settings.reading.cover = .off
    let off = try EagerBook(path, settings: settings)
    #expect(off.layout.pages.count == 1)
    #expect(
      settings.reading.refined(off.typesetter.key)
        != LayoutSettings().reading.refined(off.typesetter.key))

    let epub2 = try EagerBook(try Self.coverBook("cover2", body: "<p>One.</p>", epub2: true))
    #expect(epub2.layout.pages.count == 2 && epub2.layout.pages[0].href == "OPS/cover.png")
  }

  @Test func aCoverTheTextShowsIsNotRepeated() throws {
    let path = try Self.coverBook("shown", body: "<p><img src=\"cover.png\" alt=\"\"/></p>")
    let book = try EagerBook(path)
    #expect(book.layout.pages.count == 1)
    #expect(book.document.chapters.map(\.href) == ["OPS/text.xhtml"])
  }

  @Test func tocLabelsThatAreImagesUseTheirAlt() throws {
    let nav = chapterNav()
    let ncx = Data(
      """
      <?xml version="1.0"?><ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">
      <navMap><navPoint id="p"><navLabel><text></text><img src="b.png"/></navLabel>
      <content src="text.xhtml"/></navPoint></navMap></ncx>
      """.utf8)
    let path = try Self.book(
      "toc",
      manifest: """
        <item id="n" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
        <item id="t" href="text.xhtml" media-type="application/xhtml+xml"/>
        <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
        """, spine: ["t"],
      files: ["nav.xhtml": nav, "text.xhtml": Self.chapter("<p>x</p>"), "toc.ncx": ncx])
    let doc = try Book.open(URL(fileURLWithPath: path))
    #expect(doc.toc.map(\.title) == ["Chapter One", "Chapter Two"])
  }

  func chapterNav() -> Data {
    Data(
      """
      <?xml version="1.0" encoding="utf-8"?>
      <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
      <head><title>n</title></head><body><nav epub:type="toc"><ol>
      <li><a href="text.xhtml"><img src="one.png" alt="Chapter One"/></a></li>
      <li><a href="text.xhtml#x"> <img src="two.png" alt=" Chapter Two "/> </a></li>
      </ol></nav></body></html>
      """.utf8)
  }

  /// The spine items of a corpus EPUB, counted from its OPF.
  static func spineCount(_ name: String) throws -> Int {
    let unzip = try Subprocess.run("/usr/bin/unzip", ["-p", Corpus.path(name), "*.opf"])
    try #require(unzip.status == 0)
    return String(decoding: unzip.out, as: UTF8.self).components(separatedBy: "<itemref").count - 1
  }

  /// Each page of `name` is one spine item, in order, with ink inside the content box and
  /// none in the margins.
  func onePagePerSpineItem(_ name: String) throws {
    let expected = try Self.spineCount(name)
    let book = try EagerBook(corpusBook(name))
    #expect(book.layout.pages.count == expected)
    #expect(book.layout.pages.map(\.spine) == Array(0..<expected))
    #expect(!book.warnings.contains { $0.contains("spine") })
    let renderer = book.makeRenderer()
    let m = LayoutSettings().effectiveMargins
    for page in book.layout.pages {
      let image = renderer.render(page, width: 600, height: 800, format: .gray8)
      var inside = 0
      var outside = 0
      for y in 0..<800 {
        for x in 0..<600 where image.pixels[y * 600 + x] < 250 {
          let isInside =
            Double(x) >= m.left - 1 && Double(x) <= 600 - m.right + 1 && Double(y) >= m.top - 1
            && Double(y) <= 800 - m.bottom + 1
          if isInside { inside += 1 } else { outside += 1 }
        }
      }
      // A page is blank only when its image is (page-blanche has a white page).
      let source = try #require(book.document.resources.data(forHref: page.href))
      let blank = decodeImage(source, href: page.href).map { !hasInk($0) } ?? false
      #expect(page.images.count == 1)
      #expect(blank || inside > 2_000, "page \(page.number) \(page.href) is blank")
      // Pre-paginated items fill the page without margins (issue #12, Fixed/FixedLayout).
      if page.rendition?.layout != .prePaginated {
        #expect(outside == 0, "page \(page.number) draws in the margins")
      }
    }
    #expect(renderer.warnings.isEmpty)
  }

  /// Whether an RGBA8 image has a pixel darker than near-white.
  func hasInk(_ b: PixelBuffer) -> Bool {
    stride(from: 0, to: b.pixels.count, by: 4).contains { i in
      b.pixels[i + 3] > 0 && min(b.pixels[i], b.pixels[i + 1], b.pixels[i + 2]) < 250
    }
  }

  @Test(.enabled(if: Corpus.has("svg-in-spine.epub"), Comment(rawValue: Corpus.missing)))
  func svgSpineGivesOnePagePerItem() throws {
    try onePagePerSpineItem("svg-in-spine.epub")
  }

  @Test(
    .enabled(
      if: Corpus.has("page-blanche-bitmaps-in-spine.epub"), Comment(rawValue: Corpus.missing)))
  func imageSpineGivesOnePagePerItem() throws {
    try onePagePerSpineItem("page-blanche-bitmaps-in-spine.epub")
  }

  @Test func inlineSVGGoldenPage() throws {
    let path = packageRoot.appendingPathComponent("Tests/QuireTests/Fixtures/inline-svg/page.xhtml")
      .path
    let book = try EagerBook(path)
    let page = try #require(book.layout.pages.first)
    #expect(page.images.map(\.href) == ["page.xhtml.svg-1.svg", "page.xhtml.svg-2.svg"])
    // Serialized by libxml2 with SVG's case kept and its namespace declared.
    let inline = book.document.chapters[0].inlineImages
    #expect(inline.keys.sorted() == ["page.xhtml.svg-1.svg", "page.xhtml.svg-2.svg"])
    let first = String(decoding: inline["page.xhtml.svg-1.svg"] ?? Data(), as: UTF8.self)
    #expect(first.hasPrefix("<svg") && first.contains("viewBox=\"0 0 20 10\""))
    #expect(first.contains("linearGradient") && first.contains("xmlns:xlink="))
    let renderer = book.makeRenderer()
    let image = renderer.render(page, width: 600, height: 800, format: .rgba8)
    #expect(renderer.warnings.isEmpty)
    try checkGolden(Data(PNGCodec.encode(image)), "inline-svg.png")
  }
}
