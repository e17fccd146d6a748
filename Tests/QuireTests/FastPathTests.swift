import Foundation
import QuireIngest
import QuireRaster
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

/// The progressive, streaming render path (BookPagination + PageStream + ChapterLoader) must
/// give exactly what the eager stages (Book.open + Typesetter.layoutBook) give.
@Suite("Fast path", .serialized)
struct FastPathTests {
  /// Small books of different kinds: an EPUB 2 sample, an EPUB 3 with obfuscated embedded
  /// fonts, a plain-text book.
  static let books = [
    packageRoot.appendingPathComponent("samples/childrens-literature.epub").path,
    corpusBook("wasteland-otf-obf.epub"),
    packageRoot.appendingPathComponent("samples/xiyouji-chapter1.txt").path,
  ]

  static var options: LayoutSettings { LayoutSettings(pageWidth: 600, pageHeight: 800) }

  @Test(
    "Lazily opened chapters equal eagerly converted ones, and so does the whole document",
    .enabled(if: corpusPresent, Comment(rawValue: Corpus.missing)))
  func lazyChaptersMatch() throws {
    for name in ["accessible_epub_3.epub", "wasteland-otf-obf.epub", "pg84-frankenstein.epub"] {
      let url = URL(fileURLWithPath: corpusBook(name))
      let eager = try Book.open(url)
      let loader = try Book.openLazily(url)
      #expect(loader.count == eager.chapters.count, "\(name)")
      #expect(loader.metadata == eager.metadata, "\(name)")
      // A prefix first (what --pages converts), then the rest.
      let half = max(1, loader.count / 2)
      let prefix = try loader.prefix(half)
      #expect(prefix.chapters.count == half)
      for (a, b) in zip(prefix.chapters, eager.chapters) {
        #expect(a.textDump() == b.textDump(), "\(name): chapter \(a.spineIndex) differs")
        #expect(a.anchors == b.anchors)
      }
      let whole = try loader.document()
      #expect(whole.textDump() == eager.textDump(), "\(name): lazy document differs")
      #expect(whole.landmarks == eager.landmarks)
      #expect(whole.fonts.map(\.href) == eager.fonts.map(\.href))
      #expect(whole.fonts.map(\.data) == eager.fonts.map(\.data))
      #expect(whole.images == eager.images)
      // Fonts of a prefix are a prefix of the book's fonts.
      #expect(eager.fonts.map(\.href).starts(with: prefix.fonts.map(\.href)))
    }
  }

  @Test("The streamed manifest equals the one built from the eager layout")
  func streamedManifestMatchesEager() throws {
    for book in Self.books where FileManager.default.fileExists(atPath: book) {
      for boxes in [false, true] {
        var r = RenderRequest(book: book, output: temporaryFolder("stream-\(boxes)"))
        r.layout = Self.options
        r.boxes = boxes
        r.threads = 2
        let summary = try RenderJob.run(r)
        let eager = try EagerBook(book, settings: r.layout)
        #expect(summary.pageCount == eager.layout.pages.count)
        var files: [Int: String] = [:]
        for p in eager.layout.pages { files[p.number] = String(format: "page-%04d.png", p.number) }
        let expected = eager.manifest(book: book, settings: r.layout, files: files, boxes: boxes)
        let got = try #require(
          FileManager.default.contents(atPath: r.output.path + "/manifest.json"))
        #expect(got == expected, "\(book) boxes=\(boxes): manifest differs")
        // And the pages themselves are the eager renderer's.
        let renderer = eager.makeRenderer()
        for i in Set([0, eager.layout.pages.count / 2, eager.layout.pages.count - 1]).sorted() {
          let page = eager.layout.pages[i]
          let png = PNGCodec.encodePage(
            renderer.render(
              page, width: r.layout.pageWidth, height: r.layout.pageHeight, format: .gray8))
          let file = FileManager.default.contents(
            atPath: r.output.path + "/" + String(format: "page-%04d.png", page.number))
          #expect(file == Data(png), "\(book): page \(page.number) differs from the eager render")
        }
      }
    }
  }

  @Test("--pages gives the same bytes as the same pages of a full render, whatever the threads")
  func pagesMatchFullRender() throws {
    for book in Self.books where FileManager.default.fileExists(atPath: book) {
      var full = RenderRequest(book: book, output: temporaryFolder("full"))
      full.layout = Self.options
      full.boxes = true
      full.threads = 2
      let summary = try RenderJob.run(full)
      let fullManifest = try manifestJSON(full.output.path)
      let n = summary.pageCount
      for (spec, threads) in [("1", 2), ("2-3,\(n)", 1), ("\(max(1, n - 1))-", 2)] {
        var part = full
        part.output = URL(fileURLWithPath: temporaryFolder("part"))
        part.pages = try selection(spec)
        part.threads = threads
        let s = try RenderJob.run(part)
        #expect(s.pageCount == n)
        let asked = part.pages.pages(in: n)
        let files = try FileManager.default.contentsOfDirectory(atPath: part.output.path).sorted()
        #expect(files == ["manifest.json"] + asked.map { String(format: "page-%04d.png", $0) })
        for f in files where f.hasSuffix(".png") {
          let a = FileManager.default.contents(atPath: full.output.path + "/" + f)
          let b = FileManager.default.contents(atPath: part.output.path + "/" + f)
          #expect(a != nil && a == b, "\(book) --pages \(spec): \(f) differs from the full render")
        }
        // The manifest is the full one but for the files not written this time.
        var expected = fullManifest
        var pages = expected["pages"] as! [[String: Any]]
        for i in pages.indices where !asked.contains(pages[i]["number"] as! Int) {
          pages[i].removeValue(forKey: "file")
        }
        expected["pages"] = pages
        let got = try manifestJSON(part.output.path)
        #expect(canonical(got) == canonical(expected), "\(book) --pages \(spec): manifest differs")
      }
    }
  }

  @Test(
    "moby-dick --pages 1,7: the eager layout's pages and manifest, files aside",
    .enabled(if: corpusPresent, Comment(rawValue: Corpus.missing)))
  func mobyDickFirstPages() throws {
    let book = corpusBook("moby-dick.epub")
    var r = RenderRequest(book: book, output: temporaryFolder("moby"))
    r.pages = PageSelection(pages: [1, 7])
    r.threads = 2
    _ = try RenderJob.run(r)
    let eager = try EagerBook(book, settings: r.layout)
    let files = [1: "page-0001.png", 7: "page-0007.png"]
    let expected = eager.manifest(book: book, settings: r.layout, files: files, boxes: false)
    let got = try #require(FileManager.default.contents(atPath: r.output.path + "/manifest.json"))
    #expect(got == expected, "moby-dick: manifest differs from the eager one")
    let renderer = eager.makeRenderer()
    for n in [1, 7] {
      let png = PNGCodec.encodePage(
        renderer.render(
          eager.layout.pages[n - 1], width: r.layout.pageWidth, height: r.layout.pageHeight,
          format: .gray8))
      #expect(FileManager.default.contents(atPath: r.output.path + "/" + files[n]!) == Data(png))
    }
  }

  @Test("Pages past the end of the book are a request problem, page 0 too")
  func pagesErrors() throws {
    let book = Self.books[0]
    var r = RenderRequest(book: book, output: temporaryFolder("errors"))
    r.layout = Self.options
    r.pages = PageSelection(pages: [100_000])
    #expect {
      try RenderJob.run(r)
    } throws: { e in
      guard case .invalidRequest(.noSelectedPage(_, let n))? = e as? QuireError else {
        return false
      }
      return n > 0
    }
    r.pages = PageSelection(ranges: [0...3])
    #expect(throws: QuireError.invalidRequest(.pageNumberBelowOne(0))) { try RenderJob.run(r) }
  }

  @Test(
    "A flip lays out only as far as the pages it turns; the pages equal the eager ones",
    .enabled(if: corpusPresent, Comment(rawValue: Corpus.missing)))
  func flipStopsEarly() throws {
    let path = corpusBook("moby-dick.epub")
    let partial = try PagedBook(path, layout: LayoutSettings(), threads: 2, through: 8)
    #expect(!partial.pages.book.complete)
    #expect(partial.pageCount >= 8)
    let eager = try EagerBook(path)
    #expect(partial.pageCount < eager.layout.pages.count)
    let renderer = eager.makeRenderer()
    for n in [1, 7, 8] {
      let page = try partial.page(n, color: .gray)
      #expect(
        page == renderer.render(eager.layout.pages[n - 1], width: 600, height: 800, format: .gray8))
    }
  }

  private func selection(_ spec: String) throws -> PageSelection {
    var s = PageSelection(ranges: [])
    for part in spec.split(separator: ",") {
      let ends = part.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
      if ends.count == 1, let a = ends[0] { s.ranges.append(a...a) }
      if ends.count == 2, let a = ends[0] {
        if let b = ends[1] { s.ranges.append(a...b) } else { s.from = a }
      }
    }
    return s
  }

  private func manifestJSON(_ dir: String) throws -> [String: Any] {
    let data = try #require(FileManager.default.contents(atPath: dir + "/manifest.json"))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  private func canonical(_ json: [String: Any]) -> Data {
    (try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])) ?? Data()
  }
}
