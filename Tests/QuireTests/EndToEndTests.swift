import Foundation
import QuireRaster
import QuireTestSupport
import Testing

@testable import Quire

@Suite("End to end", .serialized)
struct EndToEndTests {
  @Test(
    "Every corpus book lays out, conserves its text, and renders pages of the asked size",
    .enabled(if: corpusPresent, Comment(rawValue: Corpus.missing)))
  func wholeCorpus() throws {
    let settings = LayoutSettings(pageWidth: 600, pageHeight: 800)
    let options = settings.layoutOptions
    for name in corpusBooks {
      let book = try EagerBook(corpusBook(name), settings: settings)
      let pages = book.layout.pages
      #expect(pages.count > 0, "\(name): no pages")
      // No tofu: every character of the corpus has a glyph in some vendored or book font.
      let missing = book.warnings.filter { $0.contains("no font has") }
      #expect(missing.isEmpty, "\(name): \(missing.prefix(3))")
      // Text conservation: the text lines, in page order, hold every character of the source.
      let shown = pages.flatMap { $0.lines.filter { $0.role == .text }.map(\.text) }.joined()
      let a = normalized(sourceText(book.document))
      let b = normalized(shown)
      // Notes moved to the page feet: their lines, in page order, hold the notes' text in
      // the order of their references (their own order, apart from the running text's).
      let notes = pages.flatMap { $0.lines.filter { $0.role == .note }.map(\.text) }.joined()
      #expect(normalized(notes) == normalized(noteText(book.document)), "\(name): note text")
      if a != b {
        let common = zip(a.unicodeScalars, b.unicodeScalars).prefix { $0 == $1 }.count
        let ctxA = String(String.UnicodeScalarView(a.unicodeScalars.dropFirst(common).prefix(40)))
        let ctxB = String(String.UnicodeScalarView(b.unicodeScalars.dropFirst(common).prefix(40)))
        Issue.record(
          "\(name): text differs after \(common) characters: source «\(ctxA)» shown «\(ctxB)»")
      }
      // No line crosses the page bottom; page numbers run 1…n.
      for (i, p) in pages.enumerated() {
        #expect(p.number == i + 1)
        for l in p.lines where l.role == .text {
          #expect(
            l.rect.maxY <= Double(options.height) - options.margins.bottom + 0.5,
            "\(name) p\(p.number): «\(l.text)» crosses the bottom")
        }
      }
      // No heading split across pages or left at a page's foot (HeadingBreakCorpusTests).
      let headings = HeadingBreakCorpusTests.problems(book, name: name)
      #expect(headings.problems.isEmpty, "\(headings.problems.prefix(5))")
      // Render a spread of pages: exact size; a page with content is not blank.
      let renderer = book.makeRenderer()
      let sample = Set([0, pages.count / 3, pages.count / 2, pages.count - 1]).sorted()
      for i in sample {
        let img = renderer.render(pages[i], width: 600, height: 800, format: .gray8)
        #expect(img.width == 600 && img.height == 800)
        if !pages[i].lines.isEmpty || !pages[i].images.isEmpty {
          #expect(
            img.pixels.contains { $0 < 128 }, "\(name): page \(i + 1) has content but renders blank"
          )
        }
      }
    }
  }

  @Test("Rendering twice gives identical bytes, whatever the thread count")
  func determinism() throws {
    let sample = packageRoot.appendingPathComponent("samples/childrens-literature.epub").path
    var r1 = RenderRequest(book: sample, output: temporaryFolder("det1"))
    r1.pages = PageSelection(ranges: [1...6])
    r1.boxes = true
    r1.threads = 2
    var r2 = r1
    r2.output = URL(fileURLWithPath: temporaryFolder("det2"))
    r2.threads = 1
    _ = try RenderJob.run(r1)
    _ = try RenderJob.run(r2)
    let files = try FileManager.default.contentsOfDirectory(atPath: r1.output.path).sorted()
    #expect(files == ["manifest.json"] + (1...6).map { String(format: "page-%04d.png", $0) })
    for f in files {
      let a = FileManager.default.contents(atPath: r1.output.path + "/" + f)
      let b = FileManager.default.contents(atPath: r2.output.path + "/" + f)
      #expect(a == b, "\(f) differs between runs")
    }
  }

  @Test("The manifest follows the quire-pages/2 contract")
  func manifestContract() throws {
    let sample = packageRoot.appendingPathComponent("samples/childrens-literature.epub").path
    var r = RenderRequest(book: sample, output: temporaryFolder("manifest"))
    r.pages = PageSelection(ranges: [2...3])
    r.boxes = true
    _ = try RenderJob.run(r)
    let data = try #require(FileManager.default.contents(atPath: r.output.path + "/manifest.json"))
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(json["format"] as? String == "quire-pages/2")
    #expect(json["warnings"] is [Any])
    let book = try #require(json["book"] as? [String: Any])
    #expect(book["title"] as? String == "Children's Literature")
    #expect(book["direction"] as? String == "ltr")
    let layout = try #require(json["layout"] as? [String: Any])
    #expect(layout["width"] as? Int == 600 && layout["height"] as? Int == 800)
    #expect((layout["key"] as? String)?.isEmpty == false)
    let count = try #require(json["pageCount"] as? Int)
    let pages = try #require(json["pages"] as? [[String: Any]])
    #expect(pages.count == count)
    #expect(pages[1]["file"] as? String == "page-0002.png")
    #expect(pages[0]["file"] == nil)
    let lines = try #require(pages[1]["lines"] as? [[String: Any]])
    #expect(!lines.isEmpty)
    for l in lines {
      for key in ["text", "x", "y", "width", "height", "block", "role", "hyphenated", "ratio"] {
        #expect(l[key] != nil, "line lacks \(key)")
      }
    }
    let toc = try #require(json["toc"] as? [[String: Any]])
    #expect(!toc.isEmpty)
    // Locations run in order through the book.
    var last = (-1, -1)
    for p in pages {
      let s = try #require(p["start"] as? [String: Int])
      let cur = (s["spine"]!, s["offset"]!)
      #expect(cur >= last)
      last = cur
    }
  }

  @Test("Manifest warnings are {kind, file, message, count}, one per kind and file")
  func manifestWarnings() throws {
    let damaged = packageRoot.appendingPathComponent(
      "Tests/QuireIngestTests/Fixtures/hostile/malformed-chapter.epub"
    ).path
    let r = RenderRequest(book: damaged, output: temporaryFolder("warnings"))
    let summary = try RenderJob.run(r)
    let data = try #require(FileManager.default.contents(atPath: r.output.path + "/manifest.json"))
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let warnings = try #require(json["warnings"] as? [[String: Any]])
    #expect(warnings.count == summary.diagnostics.entries.count)
    let first = try #require(warnings.first)
    #expect(Set(first.keys) == ["kind", "file", "message", "count"])
    #expect(first["kind"] as? String == "malformedMarkup")
    #expect(first["file"] as? String == "OEBPS/ch1.xhtml")
    #expect(first["count"] as? Int == 1)
    #expect((first["message"] as? String)?.contains("recovered") == true)
  }

  @Test("The first frame of a flip equals page N and the last page N+1")
  func flipEnds() throws {
    let sample = packageRoot.appendingPathComponent("samples/childrens-literature.epub").path
    let out = temporaryFolder("flip")
    var r = FlipRequest(
      book: URL(fileURLWithPath: sample), output: URL(fileURLWithPath: out), page: 3)
    r.turn.timing.frames = 5
    try FlipJob.run(r)
    let book = try EagerBook(sample)
    let renderer = book.makeRenderer()
    let p3 = renderer.render(book.layout.pages[2], width: 600, height: 800, format: .rgba8)
    let p4 = renderer.render(book.layout.pages[3], width: 600, height: 800, format: .rgba8)
    let f1 = try PNGCodec.decode(
      try #require(FileManager.default.contents(atPath: out + "/frame-0001.png")))
    let f5 = try PNGCodec.decode(
      try #require(FileManager.default.contents(atPath: out + "/frame-0005.png")))
    #expect(f1.converted(to: .rgba8) == p3)
    #expect(f5.converted(to: .rgba8) == p4)
    #expect(FileManager.default.fileExists(atPath: out + "/frames.json"))
  }

  @Test("The CLI maps failures to sysexits codes with one line on stderr")
  func exitCodes() throws {
    guard quireExecutable != nil else {
      Issue.record("quire executable not built")
      return
    }
    let missing = try runQuire(["info", "/nonexistent/book.epub"])
    #expect(missing.status == 66)
    #expect(missing.stderr.split(separator: "\n").count == 1)
    let usage = try runQuire(["render", "x.epub", "--bogus"])
    #expect(usage.status == 64)
    let noCommand = try runQuire(["frobnicate"])
    #expect(noCommand.status == 64)
    let junk = temporaryFolder("junk.epub")
    try Data([0x50, 0x4B, 0x03, 0x04, 1, 2, 3]).write(to: URL(fileURLWithPath: junk))
    let bad = try runQuire(["info", junk])
    #expect(bad.status == 65, "\(bad.stderr)")
    #expect(bad.stderr.split(separator: "\n").count == 1)
    let sample = packageRoot.appendingPathComponent("samples/xiyouji-chapter1.txt").path
    let blocker = temporaryFolder("afile")
    try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
    let backwards = try runQuire(["render", sample, "-o", temporaryFolder("bw"), "--pages", "3-1"])
    #expect(backwards.status == 64 && backwards.stderr.contains("--pages"), "\(backwards.stderr)")
    let past = try runQuire(["render", sample, "-o", temporaryFolder("past"), "--pages", "9999"])
    #expect(past.status == 64 && past.stderr.contains("--pages '9999'"), "\(past.stderr)")
    let noTurn = try runQuire(["flip", sample, "--page", "9999", "-o", temporaryFolder("nt")])
    #expect(noTurn.status == 64 && noTurn.stderr.contains("--page 9999"), "\(noTurn.stderr)")
    let cannot = try runQuire(["render", sample, "-o", blocker + "/sub", "--pages", "1"])
    #expect(cannot.status == 73, "\(cannot.stderr)")
    // A readable package whose only chapter is damaged: bad data, one line, no pages.
    let damaged = packageRoot.appendingPathComponent(
      "Tests/QuireIngestTests/Fixtures/hostile/bad-crc.epub"
    ).path
    let out = temporaryFolder("damaged")
    let crc = try runQuire(["render", damaged, "-o", out])
    #expect(crc.status == 65, "\(crc.stderr)")
    #expect(crc.stderr.split(separator: "\n").count == 1)
    #expect(crc.stderr.contains("CRC-32"))
    let help = try runQuire(["help", "flip"])
    #expect(help.status == 0 && help.stdout.contains("--corner"))
  }
}
