import Dispatch
import Foundation
import QuireIngest
import QuireTestSupport
import QuireTypeset
import Testing

@testable import QuireRaster

/// The real pipeline upstream of us (ingest + typesetter) feeding the renderer.
enum RealBook {
  static func path(_ name: String) -> String { Corpus.path(name) }
  static func available(_ name: String) -> Bool {
    FileManager.default.fileExists(atPath: path(name))
  }

  static func typeset(_ name: String) throws -> (Document, Typesetter) {
    let doc = try Book.open(URL(fileURLWithPath: path(name)))
    return (doc, try Typesetter(document: doc, options: LayoutOptions()))
  }

  static func renderer(_ doc: Document, _ t: Typesetter) -> PageRenderer {
    let store = doc.resources
    return PageRenderer(fonts: t.fonts, images: { store.data(forHref: $0) })
  }
}

@Suite struct RealBookTests {
  /// Every page of a few Moby-Dick chapters draws ink where its line boxes are, and nothing
  /// in the margins beyond the glyphs' reach.
  @Test(.enabled(if: RealBook.available("moby-dick.epub"), Comment(rawValue: Corpus.missing)))
  func mobyDickChaptersHaveInkInTheirLines() throws {
    let (doc, t) = try RealBook.typeset("moby-dick.epub")
    let r = RealBook.renderer(doc, t)
    let chapters = doc.chapters.indices.filter { doc.chapters[$0].size > 5000 }.prefix(2)
    var checked = 0
    for c in chapters {
      for page in t.layoutChapter(c).pages.prefix(3) {
        let b = r.render(page, width: 600, height: 800, format: .gray8)
        for line in page.lines where !line.text.trimmingCharacters(in: .whitespaces).isEmpty {
          let y0 = Swift.max(0, Int(line.rect.y))
          let y1 = Swift.min(800, Int(line.rect.maxY.rounded(.up)))
          let x0 = Swift.max(0, Int(line.rect.x))
          let x1 = Swift.min(600, Int(line.rect.maxX.rounded(.up)))
          var dark = 0
          for y in y0..<y1 {
            for x in x0..<x1 where b.pixels[y * 600 + x] < 128 { dark += 1 }
          }
          #expect(dark > line.text.count / 2, "page \(page.number) line “\(line.text)” is blank")
          checked += 1
        }
      }
    }
    #expect(checked > 20)
  }

  /// Every image placement of a book with PNG and JPEG figures renders: decoded, or a
  /// placeholder with a warning naming it — never a crash, never silence.
  @Test(
    .enabled(if: RealBook.available("accessible_epub_3.epub"), Comment(rawValue: Corpus.missing)))
  func bookImagesDecodeOrWarn() throws {
    let (doc, t) = try RealBook.typeset("accessible_epub_3.epub")
    let r = RealBook.renderer(doc, t)
    var placements = 0
    for c in doc.chapters.indices {
      for page in t.layoutChapter(c).pages {
        for case .image(let p) in page.items {
          placements += 1
          let before = r.warnings.count
          _ = r.render(
            Page(
              number: 1, spine: c, href: page.href, start: page.start, end: page.end,
              items: [
                .image(p)
              ]), width: 600, height: 800, format: .rgba8)
          let data = doc.resources.data(forHref: p.href)
          if let data, decodeImage(data, href: p.href) != nil {
            #expect(r.warnings.count == before, "\(p.href) decoded but warned")
          } else {
            #expect(r.warnings.contains { $0.file == p.href }, "\(p.href) failed silently")
          }
        }
      }
    }
    #expect(placements >= 3)
  }
}

/// The headline measurement: all of Moby-Dick, ingest → typeset → render → PNG, both cores,
/// against mutool on the same book at the same size, run back to back. QUIRE_BENCH=1.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["QUIRE_BENCH"] == "1"))
struct RealBookBenchmark {
  @Test func mobyDickAgainstMutool() throws {
    try #require(RealBook.available("moby-dick.epub"))
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quire-moby")
    try? FileManager.default.removeItem(at: dir)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let t0 = RasterBenchmark.now()
    let (doc, t) = try RealBook.typeset("moby-dick.epub")
    let book = t.layoutBook(threads: 2)
    let t1 = RasterBenchmark.now()
    let layoutRSS = RasterBenchmark.peakRSSMB()
    let store = doc.resources
    let r = PageRenderer(fonts: book.fonts, images: { store.data(forHref: $0) })
    let pages = book.pages
    let firstStart = RasterBenchmark.now()
    _ = PNGCodec.encode(r.render(pages[0], width: 600, height: 800, format: .gray8))
    let firstMs = (RasterBenchmark.now() - firstStart) * 1000
    let cursor = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 2) { _ in
      while true {
        let i = cursor.wrappingAdd(1, ordering: .relaxed).oldValue
        if i >= pages.count { break }
        let png = PNGCodec.encode(r.render(pages[i], width: 600, height: 800, format: .gray8))
        try? Data(png).write(to: dir.appendingPathComponent(String(format: "page-%04d.png", i + 1)))
      }
    }
    let t2 = RasterBenchmark.now()
    var line =
      "moby-dick: \(pages.count) pages; ingest+typeset \(String(format: "%.2f", t1 - t0)) s, "
    line += "render+encode+write \(String(format: "%.2f", t2 - t1)) s (first page "
    line +=
      "\(String(format: "%.1f", firstMs)) ms); total \(String(format: "%.0f", Double(pages.count) / (t2 - t0))) pages/s; "
    line += "peak RSS after layout \(String(format: "%.0f", layoutRSS)) MB, after rendering "
    line += "\(String(format: "%.0f", RasterBenchmark.peakRSSMB())) MB; "
    line += "renderer warnings \(r.warnings.count)"
    let out = dir.appendingPathComponent("mutool")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/mutool")
    p.arguments = [
      "draw", "-q", "-W", "600", "-H", "800", "-S", "16", "-c", "gray", "-o",
      out.appendingPathComponent("p%04d.png").path, RealBook.path("moby-dick.epub"),
    ]
    let m0 = RasterBenchmark.now()
    try p.run()
    p.waitUntilExit()
    let seconds = RasterBenchmark.now() - m0
    let count = (try? FileManager.default.contentsOfDirectory(atPath: out.path).count) ?? 0
    line += "; mutool: \(count) pages in \(String(format: "%.2f", seconds)) s = "
    line += "\(String(format: "%.0f", Double(count) / seconds)) pages/s"
    print(line)
    if ProcessInfo.processInfo.environment["QUIRE_KEEP"] == nil {
      try? FileManager.default.removeItem(at: dir)
    }
  }
}
