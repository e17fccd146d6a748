import Foundation
import Testing

@testable import QuireIngest

private func xhtml(_ body: String, head: String = "") -> String {
  "<?xml version=\"1.0\" encoding=\"UTF-8\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><head>\(head)</head><body>\(body)</body></html>"
}

@Suite struct MarkupRobustnessTests {
  @Test func malformedXHTMLRecoversWithWarning() {
    let c = ContentFixtures.convert(
      "<html><body><p>Hello <b>world</p><p>caf&eacute; &nbsp;x<br>y</body>")
    #expect(c.warnings.count == 1)
    #expect(c.warnings[0].message.contains("HTML parser"))
    #expect(c.chapter.plainText == "Hello worldcafé \u{A0}x\ny")
    #expect(c.chapter.blocks.count == 1)
  }

  @Test func textHTMLFallsBackQuietly() {
    let c = ChapterConverter(options: IngestOptions(), bookLanguage: nil) { _ in nil }
      .convert(
        ChapterSource(
          spineIndex: 0, href: "a.html", mediaType: "text/html", linear: true,
          data: Data("<html><body><p>one<p>two &mdash; <br>three</body></html>".utf8)))
    #expect(c.warnings.isEmpty)
    #expect(c.chapter.plainText == "onetwo —\nthree")
  }

  @Test func declaredEncodingsAndUTF16() {
    var latin1 = Data(
      "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>caf"
        .utf8)
    latin1.append(0xE9)
    latin1.append(contentsOf: Array("</p></body></html>".utf8))
    let a = ChapterConverter(options: IngestOptions(), bookLanguage: nil) { _ in nil }
      .convert(
        ChapterSource(
          spineIndex: 0, href: "a.xhtml", mediaType: "application/xhtml+xml", linear: true,
          data: latin1))
    #expect(a.chapter.plainText == "café")
    #expect(a.warnings.isEmpty)
    var utf16 = Data([0xFF, 0xFE])
    for u in "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>中文</p></body></html>".utf16 {
      utf16.append(UInt8(u & 0xFF))
      utf16.append(UInt8(u >> 8))
    }
    let b = ChapterConverter(options: IngestOptions(), bookLanguage: nil) { _ in nil }
      .convert(
        ChapterSource(
          spineIndex: 0, href: "b.xhtml", mediaType: "application/xhtml+xml", linear: true,
          data: utf16))
    #expect(b.chapter.plainText == "中文")
  }

  @Test func arbitraryBytesNeverCrash() {
    var rng = SystemRandomNumberGenerator()
    var bytes = [UInt8](repeating: 0, count: 4096)
    for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255, using: &rng) }
    for prefix in [Data(), Data("<".utf8), Data("<html><body>".utf8)] {
      let c = ChapterConverter(options: IngestOptions(), bookLanguage: nil) { _ in nil }
        .convert(
          ChapterSource(
            spineIndex: 0, href: "x.html", mediaType: "text/html", linear: true,
            data: prefix + Data(bytes)))
      #expect(c.chapter.plainText.unicodeScalars.count == c.chapter.length)
    }
  }

  @Test func billionLaughsDoesNotExpand() {
    var dtd = "<!DOCTYPE html [<!ENTITY lol \"lol\">"
    for i in 1...9 {
      let prev = i == 1 ? "lol" : "lol\(i - 1)"
      dtd += "<!ENTITY lol\(i) \"" + String(repeating: "&\(prev);", count: 10) + "\">"
    }
    dtd += "]>"
    let doc =
      dtd + "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>a &lol9; b</p></body></html>"
    let c = ContentFixtures.convert(doc)
    #expect(c.chapter.length < 1_000)
    #expect(c.chapter.plainText.hasPrefix("a"))
  }

  @Test func externalEntityIsNeverRead() {
    let doc = """
      <?xml version="1.0"?>
      <!DOCTYPE html [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]>
      <html xmlns="http://www.w3.org/1999/xhtml"><body><p>x&xxe;y</p><p>z</p></body></html>
      """
    let c = ContentFixtures.convert(doc)
    #expect(!c.chapter.plainText.contains("root:"))
    #expect(c.chapter.plainText.contains("z"))
  }

  static func maxBlockDepth(_ b: [Block]) -> Int {
    var best = 0
    var stack = b.map { ($0, 1) }
    while let (x, d) = stack.popLast() {
      best = max(best, d)
      stack.append(contentsOf: x.children.map { ($0, d + 1) })
    }
    return best
  }

  /// libxml2 refuses documents deeper than 256 without XML_PARSE_HUGE (which we never set):
  /// the converter flattens the excess itself and parses again, keeping all text.
  @Test func hundredThousandDeepNesting() {
    let depth = 100_000
    let doc =
      "<p>before</p>" + String(repeating: "<div>", count: depth) + "deep<!-- <div> --><br/>"
      + String(repeating: "</div>", count: depth) + "<p title='a>b'>after</p>"
    let c = ContentFixtures.convert(xhtml(doc))
    #expect(Self.maxBlockDepth(c.chapter.blocks) <= IngestLimits().maxDepth + 1)
    #expect(c.chapter.plainText == "beforedeep\nafter")
    #expect(c.warnings.map(\.message) == ["elements nested deeper than 200 were flattened"])
    let deepInline =
      String(repeating: "<span>", count: depth) + "inline"
      + String(repeating: "</span>", count: depth)
    #expect(
      ContentFixtures.convert(xhtml("<p>" + deepInline + "</p>")).chapter.plainText == "inline")
    // Not well-formed and deep: the HTML parser gets the flattened bytes.
    let broken = String(repeating: "<div>", count: depth) + "x &nbsp; y"
    #expect(ContentFixtures.convert(xhtml(broken)).chapter.plainText.hasPrefix("x"))
  }

  /// Below libxml2's limit but above ours: content deeper than maxDepth is flattened, kept.
  @Test func deepContentIsFlattenedNotLost() {
    let depth = 250
    let doc =
      String(repeating: "<div>", count: depth) + "<p>deep <em>text</em></p>"
      + String(repeating: "</div>", count: depth)
    var options = IngestOptions()
    options.limits.maxDepth = 50
    let c = ContentFixtures.convert(xhtml(doc), options: options)
    #expect(c.warnings.isEmpty)
    #expect(c.chapter.plainText == "deep text")
    #expect(Self.maxBlockDepth(c.chapter.blocks) <= 51)
  }

  @Test func oneMegabyteSingleLineCSS() {
    var css = ""
    var i = 0
    while css.utf8.count < 1_000_000 {
      css +=
        ".c\(i) > p + span ~ em[title=\"x\"], #i\(i) { color: #123; margin: 1em 2px 3pt 4% ; font: italic bold 12px/1.5 serif } "
      i += 1
    }
    css += "p { text-indent: 2em }"
    let c = ContentFixtures.convert(
      xhtml("<p>text</p>", head: "<link rel=\"stylesheet\" href=\"s.css\"/>"),
      resources: ["OPS/s.css": css])
    let p = c.chapter.blocks[0].children[0]
    #expect(p.style.textIndent == .rem(2))
  }

  @Test func pathologicalSelectorsAndCSS() {
    let longChain = String(repeating: "div ", count: 5_000) + "p { color: red }"
    let chain30 = String(repeating: "div ", count: 30) + "q { color: red }"
    let unbalanced = String(repeating: "(", count: 100_000) + String(repeating: "{", count: 100_000)
    let nestedMedia = String(repeating: "@media screen {", count: 10_000) + "p { color: red }"
    let weird =
      "p::before{content:'x'} :not(:not(:not(p))){color:red} *|*{} [a|=b]{} p > > p{} \\ { } @import url(s.css); @charset 'x';"
    var body = ""
    for _ in 0..<150 { body += "<div>" }
    body += "<p>x</p>"
    for _ in 0..<150 { body += "</div>" }
    for css in [longChain, chain30, unbalanced, nestedMedia, weird] {
      let c = ContentFixtures.convert(
        xhtml(
          body,
          head:
            "<style>\(css.replacingOccurrences(of: "<", with: "&lt;"))</style><link rel=\"stylesheet\" href=\"s.css\"/>"
        ),
        resources: ["OPS/s.css": "@import url(s.css); @import 's.css';"])
      #expect(c.chapter.plainText == "x")
    }
  }

  @Test func importCycleAndDepthAreCapped() {
    var resources: [String: String] = [
      "OPS/a.css": "@import url(b.css); p { margin-left: 1em }",
      "OPS/b.css": "@import 'a.css'; p { margin-right: 2em }",
    ]
    for i in 0..<20 {
      resources["OPS/d\(i).css"] = "@import url(d\(i + 1).css); p { text-indent: \(i)px }"
    }
    let c = ContentFixtures.convert(
      xhtml(
        "<p>x</p>",
        head: "<link rel=\"stylesheet\" href=\"a.css\"/><link rel=\"stylesheet\" href=\"d0.css\"/>"),
      resources: resources)
    let p = c.chapter.blocks[0].children[0]
    #expect(p.style.margin.left == .rem(1))
    #expect(p.style.margin.right == .rem(2))
    #expect(c.warnings.contains { $0.message.contains("@import") })
  }
}

@Suite struct MarkupFuzzRegressionTests {
  /// Inputs the xhtml fuzzer (Fuzz/run.sh xhtml) flagged: each converts, and its Locations
  /// stay consistent. `xhtml-slow-unit-*` took 10 s under ASan (a mutated jlreq chapter with
  /// invalid UTF-8 and mismatched table tags); it led to removing two quadratic copies.
  @Test func fuzzFindingsConvert() throws {
    let folder = ContentFixtures.root.appendingPathComponent("fuzz")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      $0.hasPrefix("xhtml-")
    }
    #expect(!files.isEmpty)
    for f in files.sorted() {
      let data = try Data(contentsOf: folder.appendingPathComponent(f))
      let c = ChapterConverter(options: IngestOptions(), bookLanguage: "en") { _ in nil }
        .convert(
          ChapterSource(
            spineIndex: 0, href: "OPS/fuzz.xhtml", mediaType: "application/xhtml+xml", linear: true,
            data: data))
      #expect(c.chapter.plainText.unicodeScalars.count == c.chapter.length, "\(f)")
      #expect(c.chapter.length > 0, "\(f)")
    }
  }
}

@Suite struct MarkupSilenceTests {
  /// libxml2 reports encoding errors outside any parser context; by default they would be
  /// printed to stderr ("encoding error : input conversion failed…", found by the fuzzer).
  @Test func encodingErrorsAreNotPrinted() throws {
    var doc = Data(
      "<?xml version=\"1.0\" encoding=\"US-ASCII\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>"
        .utf8)
    doc.append(contentsOf: Array("日本語".utf8))
    doc.append(contentsOf: Array("</p></body></html>".utf8))
    var html = Data("<html><head><meta charset=\"ISO-2022-JP\"></head><body><p>".utf8)
    html.append(contentsOf: [0x1B, 0x24, 0x42, 0xFF, 0xFE, 0x80])
    html.append(contentsOf: Array("日本</p></body></html>".utf8))
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "quire-stderr-\(getpid())"
    ).path
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    try #require(fd >= 0)
    let saved = dup(2)
    dup2(fd, 2)
    for data in [doc, html] {
      _ = ChapterConverter(options: IngestOptions(), bookLanguage: nil) { _ in nil }
        .convert(
          ChapterSource(
            spineIndex: 0, href: "e.xhtml", mediaType: "application/xhtml+xml", linear: true,
            data: data))
    }
    dup2(saved, 2)
    close(saved)
    close(fd)
    let printed = try String(contentsOfFile: path, encoding: .utf8)
    try? FileManager.default.removeItem(atPath: path)
    // fd 2 is the process's: other suites running in parallel may print test progress to it
    // meanwhile, so only libxml2's own message shapes ("encoding error : …", "parser error :
    // …", "I/O error : …") count.
    let fromLibxml2 = printed.split(separator: "\n").filter {
      $0.contains(" error : ") || $0.contains("warning : ") || $0.hasPrefix("^")
    }
    #expect(fromLibxml2.isEmpty, "libxml2 printed: \(fromLibxml2)")
  }
}
