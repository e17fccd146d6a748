import Foundation
import QuireCore
import QuireIngest
import QuireRaster
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

/// Vertical writing, ruby and emphasis marks (issue #13) on the fixtures that
/// scripts/make-vertical-fixture.py makes in Tests/QuireTests/Fixtures/vertical: a vertical-rl
/// book from real JLREQ text (with ruby, emphasis and tate-chu-yoko), and one small XHTML per
/// feature. Invariants (text conservation, kinsoku, tall narrow line boxes, columns right to
/// left) plus line dumps and PNG goldens.
@Suite("Vertical writing", .serialized)
struct VerticalTests {
  static let folder = packageRoot.appendingPathComponent("Tests/QuireTests/Fixtures/vertical")
  static func fixture(_ name: String) -> String { folder.appendingPathComponent(name).path }

  static func book(_ name: String, width: Int = 600, height: Int = 800) throws -> EagerBook {
    try EagerBook(fixture(name), settings: LayoutSettings(pageWidth: width, pageHeight: height))
  }

  static func textLines(_ b: EagerBook) -> [LineBox] {
    b.layout.pages.flatMap { $0.lines.filter { $0.role == .text } }
  }

  static func dump(_ b: EagerBook) -> String {
    var s = ""
    for page in b.layout.pages {
      s += "page \(page.number) \(page.writingMode.rawValue)\n"
      for l in page.lines {
        s += String(
          format: "%6.1f %6.1f %6.1f %6.1f %+6.2f |%@|\n", l.rect.x, l.rect.y, l.rect.width,
          l.rect.height, l.ratio, l.text)
      }
    }
    for w in b.warnings { s += "warning: \(w)\n" }
    return s
  }

  @Test func everySourceCharacterOnceInOrder() throws {
    let b = try Self.book("vertical-jlreq.epub")
    let source = try String(
      contentsOf: Self.folder.appendingPathComponent("source.txt"), encoding: .utf8)
    let shown = Self.textLines(b).map(\.text).joined()
    #expect(normalized(shown) == normalized(source))
    // Ruby text is annotation only: never in the running text.
    for reading in ["くみはん", "かんじ", "おやもじ", "たてちゅうよこ"] {
      #expect(!shown.contains(reading), "\(reading) set inline")
    }
  }

  @Test func noKinsokuViolations() throws {
    let b = try Self.book("vertical-jlreq.epub")
    var violations: [String] = []
    for l in Self.textLines(b) {
      let scalars = Array(l.text.unicodeScalars.filter { !$0.properties.isWhitespace })
      guard let first = scalars.first, let last = scalars.last else { continue }
      if !Kinsoku.mayStartLine(first, strict: false) || !Kinsoku.mayEndLine(last) {
        violations.append(l.text)
      }
    }
    #expect(violations.isEmpty, "\(violations)")
  }

  @Test func linesAreTallNarrowColumnsRightToLeft() throws {
    let b = try Self.book("vertical-jlreq.epub")
    #expect(b.layout.pages.count > 1)
    for page in b.layout.pages {
      #expect(page.writingMode == .verticalRL)
      let lines = page.lines.filter { $0.role == .text }
      for l in lines where l.text.unicodeScalars.count > 3 {
        let ratio = l.text.unicodeScalars.count > 10 ? 4.0 : 1.0
        #expect(l.rect.height > ratio * l.rect.width, "\(l.text) \(l.rect)")
        #expect(l.rect.x >= 0 && l.rect.maxX <= 600 && l.rect.y >= 0 && l.rect.maxY <= 800)
      }
      // Reading order runs right to left: each line's column is left of the one before.
      for (a, c) in zip(lines, lines.dropFirst()) {
        #expect(c.rect.maxX <= a.rect.x + 0.5, "\(a.text) → \(c.text)")
      }
    }
  }

  @Test func manifestCarriesWritingModeAndOrientation() throws {
    let b = try Self.book("vertical-jlreq.epub")
    #expect(b.document.metadata.direction == .rtl)
    let page = try #require(b.layout.pages.first)
    let info = Manifest.pageInfo(page, files: [:], boxes: true)
    #expect(info.writingMode == "vertical-rl")
    let lines = try #require(info.lines)
    #expect(!lines.isEmpty && lines.allSatisfy { $0.orientation == "vertical" })
    #expect(lines.contains { $0.height > $0.width * 4 })
  }

  @Test func rubyBecomesAnnotationOfItsBase() throws {
    let doc = try Book.open(URL(fileURLWithPath: Self.fixture("vertical-jlreq.epub")))
    var bases: [String: String] = [:]
    var running = ""
    func walk(_ blocks: [Block]) {
      for b in blocks {
        for case .text(let run) in b.inlines {
          running += run.text
          if let r = run.style.text.writing.rubyText { bases[run.text] = r }
        }
        walk(b.children)
      }
    }
    for c in doc.chapters { walk(c.blocks) }
    #expect(bases["組版"] == "くみはん")
    #expect(bases["親文字"] == "おやもじ")
    #expect(!running.contains("くみはん") && !running.contains("（くみはん）"))
    #expect(doc.chapters.allSatisfy { $0.writingMode == WritingMode.verticalRL })
  }

  @Test(arguments: [
    ("vertical-jlreq.epub", 1), ("vertical-jlreq.epub", 2), ("tcy.xhtml", 1),
    ("orientation.xhtml", 1), ("emphasis.xhtml", 1), ("linebreak.xhtml", 1), ("ruby.xhtml", 1),
    ("ruby-horizontal.xhtml", 1), ("flow.xhtml", 1),
  ])
  func goldenPage(_ name: String, _ number: Int) throws {
    let small = name.hasSuffix(".xhtml")
    let (w, h) = small ? (400, 300) : (600, 800)
    let b = try Self.book(name, width: w, height: h)
    let base = String(name.split(separator: ".")[0])
    let stem = small ? "vertical-\(base)" : "\(base)-\(number)"
    if number == 1 { try checkGolden(Data(Self.dump(b).utf8), "\(stem).lines.txt") }
    let page = try #require(b.layout.pages.first { $0.number == number })
    let image = b.makeRenderer().render(page, width: w, height: h, format: .gray8)
    try checkGolden(Data(PNGCodec.encode(image)), "\(stem).png")
  }

  @Test func strictKeepsSmallKanaOffLineStarts() throws {
    let b = try Self.book("linebreak.xhtml", width: 400, height: 300)
    let lines = Self.textLines(b)
    let strict = lines.filter { $0.block == lines.first?.block }
    let loose = lines.filter { $0.block != lines.first?.block }
    #expect(!strict.isEmpty && !loose.isEmpty)
    for l in strict.dropFirst() {
      let c = try #require(l.text.unicodeScalars.first)
      #expect(Kinsoku.mayStartLine(c, strict: true), "strict line starts with \(c)")
    }
    #expect(
      loose.dropFirst().contains {
        !Kinsoku.mayStartLine($0.text.unicodeScalars.first!, strict: true)
      }, "loose never starts a line with a small kana here")
  }

  @Test func orientationAndCombineForms() throws {
    let b = try Self.book("orientation.xhtml", width: 400, height: 300)
    let runs = b.layout.pages.flatMap(\.items).compactMap { item -> GlyphRun? in
      if case .glyphs(let r) = item { return r }
      return nil
    }
    #expect(runs.contains { $0.orientation == .upright })
    #expect(runs.contains { $0.orientation == .sideways })
    #expect(!runs.contains { $0.orientation == .horizontal })
  }

  @Test func verticalLRStacksColumnsLeftToRight() throws {
    let dir = temporaryFolder("vertical-lr")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let path = dir + "/lr.xhtml"
    let text = String(repeating: "縦書きの文章を左から右へ並べる。", count: 12)
    try """
    <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="ja"><head><style>
    body { -webkit-writing-mode: vertical-lr; }</style></head><body><p>\(text)</p></body></html>
    """.write(toFile: path, atomically: true, encoding: .utf8)
    let b = try EagerBook(path, settings: LayoutSettings(pageWidth: 400, pageHeight: 300))
    #expect(Self.textLines(b).count > 2)
    for page in b.layout.pages {
      #expect(page.writingMode == .verticalLR)
      let lines = page.lines.filter { $0.role == .text }
      for (a, c) in zip(lines, lines.dropFirst()) {
        #expect(c.rect.x >= a.rect.maxX - 0.5, "\(a.rect) → \(c.rect)")
      }
      for l in lines { #expect(l.rect.height > l.rect.width) }
    }
  }

  /// Ruby markup: per-character pairs from `<rb>`/`<rt>`, `<rtc>` as the second level,
  /// `<rp>` dropped, `-epub-ruby-position`.
  @Test func rubyPairsBasesAndLevels() throws {
    let doc = try Book.open(URL(fileURLWithPath: Self.fixture("ruby.xhtml")))
    var annotations: [String] = []
    var running = ""
    func walk(_ blocks: [Block]) {
      for b in blocks {
        for case .text(let run) in b.inlines {
          running += run.text
          let w = run.style.text.writing
          if let r = w.rubyText {
            let other = w.rubyOtherText.map { "/\($0)" } ?? ""
            let under = w.rubyPosition == .under ? " under" : ""
            annotations.append("\(run.text)=\(r)\(other)\(under)")
          }
        }
        walk(b.children)
      }
    }
    for c in doc.chapters { walk(c.blocks) }
    #expect(
      annotations == [
        "漢=かん", "字=じ", "熟=じゅく", "語=ご", "鬱=ゆううつ", "鬱=ゆううつ", "東京=とうきょう/Tokyo",
        "振仮名=ふりがな under",
      ])
    #expect(!running.contains("（") && !running.contains("かん") && !running.contains("Tokyo"))
  }

  /// One horizontal line of `body` at 16 px (vendored serif): its box and glyph runs.
  static func rubyLine(_ name: String, _ body: String) throws -> (LineBox, [GlyphRun]) {
    let dir = temporaryFolder("ruby-\(name)")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let path = dir + "/r.xhtml"
    try """
    <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="ja"><head><style>
    body { font-family: serif; line-height: 2; } p { text-align: left; }</style></head>
    <body><p>\(body)</p></body></html>
    """.write(toFile: path, atomically: true, encoding: .utf8)
    var settings = LayoutSettings(pageWidth: 400, pageHeight: 300)
    settings.alignment = .start
    let b = try EagerBook(path, settings: settings)
    let line = try #require(Self.textLines(b).first)
    let runs = b.layout.pages[0].items.compactMap { item -> GlyphRun? in
      if case .glyphs(let r) = item { return r }
      return nil
    }
    return (line, runs)
  }

  /// A base shorter than its annotation: between kanji it is spaced out to the annotation's
  /// length; between kana the annotation overhangs them by up to one ruby character a side
  /// (JLREQ §3.3), and only what is still missing widens the base.
  @Test func rubyLongerThanItsBaseWidensItOrOverhangsKana() throws {
    let (plain, _) = try Self.rubyLine("plain", "字鬱字")
    let em = plain.rect.width / 3
    let (kanji, kanjiRuns) = try Self.rubyLine("kanji", "字<ruby>鬱<rt>ゆううつ</rt></ruby>字")
    let (kana, _) = try Self.rubyLine("kana", "の<ruby>鬱<rt>ゆううつ</rt></ruby>の")
    let (long, _) = try Self.rubyLine("long", "の<ruby>鬱<rt>ゆううつゆう</rt></ruby>の")
    // Four ruby characters at half size are two ems: the base grows by one em.
    #expect(abs(kanji.rect.width - 4 * em) < 0.5, "\(kanji.rect.width) vs \(4 * em)")
    #expect(abs(kana.rect.width - 3 * em) < 0.5, "\(kana.rect.width)")
    // Six ruby characters (three ems) less one em of overhang: the base grows by one em.
    #expect(abs(long.rect.width - 4 * em) < 0.5, "\(long.rect.width)")
    // Between kanji the annotation stays over its widened base, off the neighbours.
    let ruby = try #require(kanjiRuns.first { $0.size < 10 })
    let x0 = try #require(ruby.x.min())
    let x1 = try #require(ruby.x.max()) + Float(em / 2)
    #expect(Double(x0) >= kanji.rect.x + em - 0.5 && Double(x1) <= kanji.rect.x + 3 * em + 0.5)
  }

  /// `text-transform: full-width` and EPUB's `-epub-fullwidth`: ASCII, the space and
  /// halfwidth katakana set in their fullwidth forms, combined with a case transform; the
  /// source offsets still map each character once.
  @Test func fullWidthTransform() throws {
    let dir = temporaryFolder("full-width")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let path = dir + "/fw.xhtml"
    try """
    <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="ja"><head><style>
    .fw { text-transform: full-width; } .epub { -epub-text-transform: -epub-fullwidth; }
    .up { text-transform: uppercase full-width; } .bad { text-transform: full-width sideways; }
    </style></head><body><p class="fw">Abc 12! ｶﾀｶﾅ</p><p class="epub">x=1</p>
    <p class="up">abc</p><p class="bad">abc</p><p>abc</p></body></html>
    """.write(toFile: path, atomically: true, encoding: .utf8)
    let b = try EagerBook(path, settings: LayoutSettings(pageWidth: 400, pageHeight: 300))
    #expect(Self.textLines(b).map(\.text) == ["Ａｂｃ　１２！　カタカナ", "ｘ＝１", "ＡＢＣ", "abc", "abc"])
  }

  /// Images in vertical flow stand upright with their own aspect ratio: the tall picture is
  /// fitted to the column's height, the inline one is 16 px wide as its CSS says and stands
  /// in its own column; neither overlaps another text column.
  @Test func imagesStandUprightFittedToTheColumn() throws {
    let b = try Self.book("flow.xhtml", width: 400, height: 300)
    let m = LayoutSettings(pageWidth: 400, pageHeight: 300).layoutOptions.margins
    let images = b.layout.pages.flatMap { page in page.images.map { (page, $0) } }
    #expect(images.count == 2)
    for (page, image) in images {
      let r = image.rect
      #expect(abs(r.width / r.height - 160.0 / 400.0) < 0.01, "aspect \(r)")
      #expect(r.y >= m.top - 0.5 && r.maxY <= 300 - m.bottom + 0.5, "\(r)")
      for l in page.lines where l.role == .text && l.text.count > 3 {
        let apart = l.rect.maxX <= r.x + 0.5 || r.maxX <= l.rect.x + 0.5
        if apart { continue }
        // Only the inline image's own column may hold it, and wholly.
        #expect(l.text.contains("\u{FFFC}"), "\(l.text) \(l.rect) overlaps the image \(r)")
        #expect(r.x >= l.rect.x - 0.5 && r.maxX <= l.rect.maxX + 0.5, "\(l.rect) \(r)")
      }
    }
    let big = try #require(images.map(\.1.rect).max { $0.height < $1.height })
    #expect(abs(big.height - (300 - m.top - m.bottom)) < 0.5, "fitted to the column: \(big)")
    let small = try #require(images.map(\.1.rect).min { $0.height < $1.height })
    #expect(abs(small.width - 16) < 0.5, "\(small)")
  }

  /// Inter-character justification (JIS X 4051 §4.8 / JLREQ §3.8): a line that is not its
  /// paragraph's last fills the column exactly, though the text has no spaces — the slack is
  /// spread between characters (punctuation compressed first, kinsoku kept) — with a
  /// moderate adjustment ratio.
  @Test func verticalLinesAreJustifiedBetweenCharacters() throws {
    let b = try Self.book("vertical-jlreq.epub")
    let m = LayoutSettings(pageWidth: 600, pageHeight: 800).layoutOptions.margins
    let bottom = 800 - m.bottom
    let lines = Self.textLines(b)
    var justified = 0
    for (l, next) in zip(lines, lines.dropFirst()) where next.block == l.block {
      #expect(!l.text.contains(" "))
      #expect(abs(l.rect.maxY - bottom) < 0.5, "\(l.text) ends at \(l.rect.maxY)")
      #expect(abs(l.ratio) <= 1, "\(l.text) ratio \(l.ratio)")
      if abs(l.ratio) > 0.01 { justified += 1 }
    }
    #expect(justified > 10)
  }

  /// Vertical folios: horizontal digits at the foot's outer corner, flush with the text
  /// block's outer edge; the book reads right to left, so odd pages are left pages (JLREQ
  /// §2.6.2) with the folio on the left, even pages on the right.
  @Test func verticalFoliosSitAtTheOuterFootCorner() throws {
    var settings = LayoutSettings(pageWidth: 600, pageHeight: 800)
    settings.folio = true
    let b = try EagerBook(Self.fixture("vertical-jlreq.epub"), settings: settings)
    let m = settings.layoutOptions.margins
    #expect(b.layout.pages.count > 2)
    for page in b.layout.pages {
      let folios = page.lines.filter { $0.role == .folio }
      let f = try #require(folios.first)
      #expect(folios.count == 1 && f.text == String(page.number))
      #expect(f.rect.width > f.rect.height * 0.4 && f.rect.height < m.bottom, "\(f.rect)")
      // In the bottom margin, below every text column, inside the page.
      #expect(f.rect.y >= 800 - m.bottom && f.rect.maxY <= 800, "\(f.rect)")
      for l in page.lines where l.role != .folio {
        let apart = l.rect.maxX <= f.rect.x || f.rect.maxX <= l.rect.x || l.rect.maxY <= f.rect.y
        #expect(apart, "\(l.text) \(l.rect) overlaps the folio \(f.rect)")
      }
      if page.number % 2 == 1 {
        #expect(abs(f.rect.x - m.left) < 0.01, "odd page \(page.number) folio \(f.rect)")
      } else {
        #expect(abs(f.rect.maxX - (600 - m.right)) < 0.01, "even page folio \(f.rect)")
      }
      let info = Manifest.pageInfo(page, files: [:], boxes: true)
      let folioInfo = try #require(info.lines?.first { $0.role == "folio" })
      #expect(folioInfo.orientation == "horizontal")
      #expect(
        info.lines?.filter { $0.role == "text" }.allSatisfy { $0.orientation == "vertical" } == true
      )
    }
    let second = try #require(b.layout.pages.first { $0.number == 2 })
    let image = b.makeRenderer().render(second, width: 600, height: 800, format: .gray8)
    try checkGolden(Data(PNGCodec.encode(image)), "vertical-folio-2.png")
  }

  /// An unpacked EPUB of one vertical-rl chapter with the spine's progression `ppd`.
  static func verticalPackage(_ name: String, ppd: String?, mode: String) throws -> String {
    let dir = temporaryFolder("vertical-ppd-\(name)")
    let attribute = ppd.map { " page-progression-direction=\"\($0)\"" } ?? ""
    let opf = """
      <?xml version="1.0" encoding="utf-8"?>
      <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
      <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">x</dc:identifier>
      <dc:title>T</dc:title><dc:language>ja</dc:language></metadata>
      <manifest><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/></manifest>
      <spine\(attribute)><itemref idref="c"/></spine></package>
      """
    let html = """
      <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="ja"><head><title>c</title><style>
      html { writing-mode: \(mode); }</style></head><body><p>\(String(repeating: "縦書きの頁は右から左へ。", count: 150))</p></body></html>
      """
    try writeUnpackedEPUB(dir, opf: opf, files: ["c.xhtml": Data(html.utf8)])
    return dir
  }

  /// Page progression: declared wins; undeclared follows most of the text's writing mode.
  @Test(
    arguments: [
      (nil, "vertical-rl", TextDirection.rtl), ("ltr", "vertical-rl", .ltr),
      (nil, "horizontal-tb", .ltr), (nil, "vertical-lr", .ltr), ("rtl", "horizontal-tb", .rtl),
    ] as [(String?, String, TextDirection)])
  func verticalRLWithoutDeclaredProgressionReadsRightToLeft(
    ppd: String?, mode: String, expected: TextDirection
  ) throws {
    let path = try Self.verticalPackage("\(ppd ?? "none")-\(mode)", ppd: ppd, mode: mode)
    let book = try PagedBook(contentsOf: URL(fileURLWithPath: path), threads: 1)
    #expect(book.rightToLeft == (expected == .rtl))
    #expect(book.info.direction == expected.rawValue)
    // A turn without `--rtl`/`--ltr` is the one forced in the book's direction, and not the
    // other one.
    var timing = AnimationTiming()
    timing.frames = 5
    var turn = PageTurn(style: .curl, timing: timing)
    let middle = try book.turn(from: 1, turn).frame(2)
    turn.rightToLeft = expected == .rtl
    #expect(try book.turn(from: 1, turn).frame(2) == middle)
    turn.rightToLeft = expected != .rtl
    #expect(try book.turn(from: 1, turn).frame(2) != middle)
    // The text itself stays left to right whatever the pages do.
    let doc = try Book.open(URL(fileURLWithPath: path))
    #expect(doc.chapters.allSatisfy { $0.direction == nil })
  }

  @Test func horizontalBookHasNoVerticalFields() throws {
    let path = packageRoot.appendingPathComponent(
      "Tests/QuireIngestTests/Fixtures/css-inline/spacing.xhtml"
    ).path
    let b = try EagerBook(path, settings: LayoutSettings(pageWidth: 400, pageHeight: 600))
    let page = try #require(b.layout.pages.first)
    #expect(page.writingMode == .horizontalTB)
    let info = Manifest.pageInfo(page, files: [:], boxes: true)
    #expect(info.writingMode == nil && (info.lines ?? []).allSatisfy { $0.orientation == nil })
  }
}
