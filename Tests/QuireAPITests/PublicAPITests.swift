// The library as a consumer uses it: `import Quire` only, no @testable, no stage module.
import Foundation
import Quire
import Testing

private let sample = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("samples/childrens-literature.epub")

@Suite("Public API")
struct PublicAPITests {
  @Test("A page of a book, drawn and encoded through the public API")
  func page() throws {
    let book = try PagedBook(
      contentsOf: sample, layout: LayoutSettings(pageWidth: 480, pageHeight: 640))
    #expect(book.info.title == "Children's Literature")
    #expect(book.pageCount > 100)
    #expect(!book.layoutKey.isEmpty)
    let page = try book.page(3)
    #expect(page.width == 480 && page.height == 640)
    let png = try book.pagePNG(3)
    // PNG signature, then IHDR with the size.
    #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    #expect(bigEndian(png, at: 16) == 480 && bigEndian(png, at: 20) == 640)
    // Ink on the page: some pixels are far from white paper.
    #expect(page.pixels.contains { $0 < 128 })
  }

  @Test("One colour type: `RGBA` from `import Quire` is unambiguous and round-trips")
  func oneColour() {
    // With two public RGBA types in view this line would not compile ("ambiguous").
    let ink = RGBA(r: 0, g: 0, b: 0)
    #expect(ink == RGBA(red: 0, green: 0, blue: 0))
    #expect(RGBA.white.alpha == 1)
  }

  @Test("A turn: the asked frame count, frame 0 is the page, the last frame the next page")
  func turn() throws {
    let book = try PagedBook(contentsOf: sample)
    let turn = try book.turn(from: 3, PageTurn(style: .curl, timing: AnimationTiming(frames: 6)))
    #expect(turn.frameCount == 6)
    #expect(turn.width == 600 && turn.height == 800)
    #expect(turn.frame(0) == (try book.page(3, color: .rgb)))
    #expect(turn.frame(5) == (try book.page(4, color: .rgb)))
    #expect(turn.frame(2) != turn.frame(0))
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("quire-api-\(getpid())")
    try? FileManager.default.removeItem(at: out)
    try turn.write(to: out)
    let files = try FileManager.default.contentsOfDirectory(atPath: out.path)
    #expect(files.filter { $0.hasSuffix(".png") }.count == 6)
    #expect(files.contains("frames.json"))
  }

  @Test("Typed errors: a missing book names its file; a page past the end is a request problem")
  func errors() throws {
    let missing = URL(fileURLWithPath: "/nonexistent/book.epub")
    #expect {
      _ = try PagedBook(contentsOf: missing)
    } throws: { e in
      guard case .cannotOpen(let file, _)? = e as? QuireError else { return false }
      return file == missing.path
    }
    let book = try PagedBook(contentsOf: sample)
    #expect(throws: QuireError.invalidRequest(.nothingToTurnTo(page: 1, direction: .prev))) {
      var back = PageTurn()
      back.direction = .prev
      _ = try book.turn(from: 1, back)
    }
    #expect(throws: QuireError.invalidRequest(.noSuchPage(10_000, pageCount: book.pageCount))) {
      _ = try book.page(10_000)
    }
  }

  @Test("A render job writes the selected pages and a quire-pages/2 manifest")
  func render() throws {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent(
      "quire-api-render-\(getpid())")
    try? FileManager.default.removeItem(at: out)
    var request = RenderRequest(book: sample, output: out)
    request.pages = PageSelection(ranges: [2...3])
    request.threads = 2
    let summary = try RenderJob.run(request)
    #expect(summary.rendered == 2)
    let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
    #expect(files == ["manifest.json", "page-0002.png", "page-0003.png"])
    let data = try #require(FileManager.default.contents(atPath: out.path + "/manifest.json"))
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(json["format"] as? String == "quire-pages/2")
    #expect(json["pageCount"] as? Int == summary.pageCount)
  }

  private func bigEndian(_ d: Data, at i: Int) -> Int {
    d.dropFirst(i).prefix(4).reduce(0) { $0 << 8 | Int($1) }
  }
}
