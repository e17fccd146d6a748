import CLibXML2
import Foundation
import Testing

@testable import QuireIngest

/// Fixture helpers shared by the content tests.
enum ContentFixtures {
  static let root: URL = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")
  /// The source folder of the goldens, for QUIRE_BLESS=1.
  static let sourceDumps = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/dumps")

  static func converter(
    _ folder: String, options: IngestOptions = IngestOptions(), language: String? = nil
  ) -> ChapterConverter {
    let base = root.appendingPathComponent("chapters/\(folder)")
    return ChapterConverter(options: options, bookLanguage: language) { href in
      // Only paths inside the fixture folder.
      guard !href.contains(".."), !href.hasPrefix("/") else { return nil }
      return try? Data(contentsOf: base.appendingPathComponent(href))
    }
  }

  static func chapter(
    _ folder: String, _ href: String, spine: Int = 0, options: IngestOptions = IngestOptions(),
    language: String? = nil
  )
    throws -> ConvertedChapter
  {
    let data = try Data(contentsOf: root.appendingPathComponent("chapters/\(folder)/\(href)"))
    return converter(folder, options: options, language: language).convert(
      ChapterSource(
        spineIndex: spine, href: href, mediaType: "application/xhtml+xml", linear: true, data: data)
    )
  }

  static func convert(
    _ xhtml: String, options: IngestOptions = IngestOptions(), resources: [String: String] = [:]
  ) -> ConvertedChapter {
    ChapterConverter(options: options, bookLanguage: "en") { href in
      resources[href].map { Data($0.utf8) }
    }
    .convert(
      ChapterSource(
        spineIndex: 0, href: "OPS/c.xhtml", mediaType: "application/xhtml+xml", linear: true,
        data: Data(xhtml.utf8)))
  }

  /// A chapter whose `<body>` is `body`, styled by `css` linked from `cssHref` (relative to
  /// OPS/), in language `lang`.
  static func styled(
    _ body: String, css: String = "", cssHref: String = "s.css", lang: String = "en",
    options: IngestOptions = IngestOptions()
  ) -> Chapter {
    let doc = """
      <?xml version="1.0" encoding="UTF-8"?>
      <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="\(lang)"><head><link rel="stylesheet" href="\(cssHref)"/></head><body>\(body)</body></html>
      """
    return convert(doc, options: options, resources: ["OPS/\(cssHref)": css]).chapter
  }

  /// Compares `text` with the golden `name`; QUIRE_BLESS=1 rewrites it.
  static func checkGolden(
    _ name: String, _ text: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let source = sourceDumps.appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["QUIRE_BLESS"] == "1" {
      try FileManager.default.createDirectory(at: sourceDumps, withIntermediateDirectories: true)
      try Data(text.utf8).write(to: source)
      return
    }
    let golden = try String(
      contentsOf: root.appendingPathComponent("dumps/\(name)"), encoding: .utf8)
    if golden != text {
      let g = golden.split(separator: "\n", omittingEmptySubsequences: false)
      let t = text.split(separator: "\n", omittingEmptySubsequences: false)
      let first = zip(g, t).enumerated().first { $0.element.0 != $0.element.1 }
      Issue.record(
        "golden \(name) differs at line \((first?.offset ?? min(g.count, t.count)) + 1): expected \(first.map { String($0.element.0) } ?? "<end>") got \(first.map { String($0.element.1) } ?? "<end>")",
        sourceLocation: sourceLocation)
    }
  }

  /// libxml2's own text content of <body> (entities as libxml2 has them), whitespace removed.
  static func libxmlBodyText(_ data: Data) -> String {
    let doc = data.withUnsafeBytes { raw in
      xmlReadMemory(
        raw.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(raw.count), nil, nil,
        Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue))
    }
    guard let doc else { return "" }
    defer { xmlFreeDoc(doc) }
    var out = ""
    // Body text, minus elements that never produce text.
    var stack: [xmlNodePtr] = []
    if let root = xmlDocGetRootElement(doc) { stack.append(root) }
    var inBody: [xmlNodePtr] = []
    while let n = stack.popLast() {
      let name = n.pointee.name.map { String(cString: $0) } ?? ""
      if n.pointee.type == XML_ELEMENT_NODE && name == "body" {
        inBody.append(n)
        continue
      }
      var c = n.pointee.children
      while let x = c {
        stack.append(x)
        c = x.pointee.next
      }
    }
    for b in inBody {
      var st: [xmlNodePtr] = [b]
      while let n = st.popLast() {
        let name = n.pointee.name.map { String(cString: $0) } ?? ""
        if n.pointee.type == XML_TEXT_NODE || n.pointee.type == XML_CDATA_SECTION_NODE {
          out += n.pointee.content.map { String(cString: $0) } ?? ""
          continue
        }
        if ["script", "style"].contains(name) { continue }
        var kids: [xmlNodePtr] = []
        var c = n.pointee.children
        while let x = c {
          kids.append(x)
          c = x.pointee.next
        }
        st.append(contentsOf: kids.reversed())
      }
    }
    return String(
      String.UnicodeScalarView(out.unicodeScalars.filter { !$0.properties.isWhitespace }))
  }
}

@Suite struct MarkupGoldenTests {
  static let books: [(folder: String, href: String, golden: String, lang: String?)] = [
    ("moby-dick", "OPS/chapter_001.xhtml", "moby-dick-chapter_001.txt", "en-US"),
    ("frankenstein", "OEBPS/110231777846946344_84-h-5.htm.html", "frankenstein-84-h-5.txt", "en"),
    ("arabic", "EPUB/Content/C_content.xhtml", "arabic-C_content.txt", "ar"),
    (
      "jlreq", "OEBPS/xhtml/principles_of_arrangement_of_kanji_and_kana_characters.xhtml",
      "jlreq-principles.txt", "ja"
    ),
  ]

  @Test(arguments: 0..<4) func golden(_ i: Int) throws {
    let b = Self.books[i]
    let converted = try ContentFixtures.chapter(b.folder, b.href, spine: i + 3, language: b.lang)
    var dump = converted.chapter.textDump()
    for f in converted.fontFaces {
      dump += "font-face \(f.family) weight=\(f.weight) italic=\(f.italic) src=\(f.src)\n"
    }
    for w in converted.warnings { dump += "warning \(w)\n" }
    try ContentFixtures.checkGolden(b.golden, dump)
    #expect(converted.warnings.isEmpty)
    #expect(converted.chapter.plainText.unicodeScalars.count == converted.chapter.length)
  }

  /// No text is lost: the blocks' text equals libxml2's text content of <body>, modulo white space.
  @Test(arguments: 0..<4) func conservation(_ i: Int) throws {
    let b = Self.books[i]
    let data = try Data(
      contentsOf: ContentFixtures.root.appendingPathComponent("chapters/\(b.folder)/\(b.href)"))
    let converted = try ContentFixtures.chapter(b.folder, b.href, language: b.lang)
    let ours = String(
      String.UnicodeScalarView(
        converted.chapter.plainText.unicodeScalars.filter {
          !$0.properties.isWhitespace && $0 != "\u{FFFC}"
        }))
    let theirs = ContentFixtures.libxmlBodyText(data)
    #expect(!theirs.isEmpty)
    #expect(ours == theirs)
  }
}

@Suite struct MarkupConcurrencyTests {
  /// Chapters are converted in parallel by the package reader: one converter (and its style
  /// cache) shared by many tasks gives the same chapters as sequential conversion.
  @Test func parallelConversionMatchesSequential() async throws {
    let href = "OEBPS/xhtml/principles_of_arrangement_of_kanji_and_kana_characters.xhtml"
    let data = try Data(
      contentsOf: ContentFixtures.root.appendingPathComponent("chapters/jlreq/\(href)"))
    let converter = ContentFixtures.converter("jlreq", language: "ja")
    let expected = converter.convert(
      ChapterSource(
        spineIndex: 0, href: href, mediaType: "application/xhtml+xml", linear: true, data: data)
    ).chapter.textDump()
    let dumps = await withTaskGroup(of: String.self) { group in
      for _ in 0..<8 {
        group.addTask {
          converter.convert(
            ChapterSource(
              spineIndex: 0, href: href, mediaType: "application/xhtml+xml", linear: true,
              data: data)
          ).chapter.textDump()
        }
      }
      var out: [String] = []
      for await d in group { out.append(d) }
      return out
    }
    #expect(dumps.count == 8)
    #expect(dumps.allSatisfy { $0 == expected })
  }
}

extension Chapter {
  /// Every block, depth first in document order.
  var blocksInOrder: [Block] {
    var out: [Block] = []
    var stack: [Block] = blocks.reversed()
    while let b = stack.popLast() {
      out.append(b)
      stack.append(contentsOf: b.children.reversed())
    }
    return out
  }
}

extension Block {
  /// The block's own text runs (generated text included).
  var textRuns: [TextRun] {
    inlines.compactMap { if case .text(let r) = $0 { r } else { nil } }
  }
}
