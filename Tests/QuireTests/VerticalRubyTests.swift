import Foundation
import QuireCore
import QuireIngest
import QuireRaster
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

/// Ruby placement (JLREQ §3.3, CSS Ruby 1) beyond what the fixture pages show: overhang per
/// side for single and group bases, never onto another ruby, group bases kept on one line,
/// annotations kept inside the measure at line starts and ends; and `object-position` in
/// vertical flow (issue #13).
@Suite("Vertical ruby and images", .serialized)
struct VerticalRubyTests {
  /// The em of the test's serif at 16 px, measured on three plain kanji.
  static func em() throws -> Double {
    try VerticalTests.rubyLine("plain", "字鬱字").0.rect.width / 3
  }

  /// JLREQ §3.3.8: the annotation rests on kana on one side only when the other side is a
  /// kanji, leaning there; on both sides evenly; a group base of two kanji overhangs the same
  /// way; a neighbour that carries ruby itself is never overhung.
  @Test(arguments: [
    // Four ruby characters (2 em) over one kanji: 1 em too long.
    ("kanji-kana", "字<ruby>鬱<rt>ゆううつ</rt></ruby>の", 3.5, 1.0),
    ("kana-kanji", "の<ruby>鬱<rt>ゆううつ</rt></ruby>字", 3.5, 0.5),
    ("kana-kana", "の<ruby>鬱<rt>ゆううつ</rt></ruby>の", 3.0, 0.5),
    // Six ruby characters (3 em) over a two-kanji group base: 1 em too long.
    ("group-kana", "の<ruby>東京<rt>とうきょうと</rt></ruby>の", 4.0, 0.5),
    ("group-kanji-kana", "字<ruby>東京<rt>とうきょうと</rt></ruby>の", 4.5, 1.0),
    ("group-kanji", "字<ruby>東京<rt>とうきょうと</rt></ruby>字", 5.0, 1.0),
    // Jukugo: じゅく may rest on 語 as far as ご (centred, half 語's width) leaves free.
    ("jukugo", "字<ruby><rb>熟</rb><rb>語</rb><rt>じゅく</rt><rt>ご</rt></ruby>字", 4.25, 1.0),
    // The kana before carries ruby: only the following kana takes the overhang.
    ("ruby-neighbour", "<ruby>あ<rt>あ</rt></ruby><ruby>鬱<rt>ゆううつ</rt></ruby>の", 3.5, 1.0),
  ])
  func overhangOnEachSide(_ name: String, _ body: String, _ width: Double, _ start: Double) throws {
    let em = try Self.em()
    let (line, runs) = try VerticalTests.rubyLine("overhang-\(name)", body)
    #expect(abs(line.rect.width - width * em) < 0.5, "\(line.rect.width / em) em")
    // The long annotation: its first glyph starts `start` em into the line.
    let ruby = try #require(runs.filter { $0.size < 10 }.max { $0.glyphs.count < $1.glyphs.count })
    let x0 = Double(try #require(ruby.x.min()))
    #expect(abs(x0 - (line.rect.x + start * em)) < 0.5, "\((x0 - line.rect.x) / em) em")
  }

  /// A paragraph of ruby bases between kana at many measures, horizontal and vertical: no
  /// group base is split across lines and no annotation leaves the measure (JLREQ §3.3.8:
  /// at a line's start or end the ruby is aligned with the line's edge).
  @Test(arguments: ["horizontal-tb", "vertical-rl", "vertical-lr"])
  func rubyStaysInsideTheMeasureAtLineEdges(_ mode: String) throws {
    let unit = "の<ruby>東京<rt>とうきょうとちょう</rt></ruby>の<ruby>鬱<rt>ゆううつ</rt></ruby>が"
    let body = String(repeating: unit, count: 12)
    var edgeRuby = 0
    for size in stride(from: 200, through: 320, by: 9) {
      let dir = temporaryFolder("ruby-edges-\(mode)-\(size)")
      try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
      let path = dir + "/e.xhtml"
      try """
      <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="ja"><head><style>
      html { writing-mode: \(mode); } body { font-family: serif; line-height: 2; }
      </style></head><body><p>\(body)</p></body></html>
      """.write(toFile: path, atomically: true, encoding: .utf8)
      let settings = LayoutSettings(pageWidth: size, pageHeight: size)
      let m = settings.layoutOptions.margins
      let b = try EagerBook(path, settings: settings)
      let lines = VerticalTests.textLines(b)
      #expect(lines.count > 3)
      for (a, c) in zip(lines, lines.dropFirst()) {
        #expect(!(a.text.hasSuffix("東") && c.text.hasPrefix("京")), "group base split")
      }
      let vertical = mode != "horizontal-tb"
      let (lo, hi) =
        vertical ? (m.top, Double(size) - m.bottom) : (m.left, Double(size) - m.right)
      for page in b.layout.pages {
        for case .glyphs(let run) in page.items where run.size < 10 {
          for (x, y) in zip(run.x, run.y) {
            // Along the line: x in horizontal text, y in vertical, where an upright glyph's
            // origin lies near the foot of its em box (a fifth of an em of tolerance there).
            let p = Double(vertical ? y : x)
            let (start, end) = vertical ? (p - run.size, p) : (p, p + run.size)
            let slack = vertical ? run.size / 5 : 0.5
            #expect(start >= lo - slack && end <= hi + slack, "\(mode) \(size): ruby at \(p)")
            if start < lo + 1 || end > hi - 1 { edgeRuby += 1 }
          }
        }
      }
    }
    #expect(edgeRuby > 0, "no annotation reached a line's edge: the test shows nothing")
  }

  /// `text-emphasis-position`: over/under chooses the side in horizontal lines, right/left
  /// in vertical ones (CSS Text Decoration 3 §3.5), independently.
  @Test(arguments: [
    ("horizontal-tb", "over right", true), ("horizontal-tb", "under right", false),
    ("horizontal-tb", "over left", true), ("vertical-rl", "under right", true),
    ("vertical-rl", "over left", false), ("vertical-lr", "under right", true),
    ("vertical-lr", "over left", false),
  ])
  func emphasisSideFollowsTheWritingMode(_ mode: String, _ position: String, _ over: Bool)
    throws
  {
    let dir = temporaryFolder("emphasis-\(mode)-\(position.prefix(2))-\(position.suffix(1))")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let path = dir + "/e.xhtml"
    try """
    <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="ja"><head><style>
    html { writing-mode: \(mode); } body { font-family: serif; line-height: 2; }
    .e { -epub-text-emphasis-style: filled dot; -epub-text-emphasis-position: \(position); }
    </style></head><body><p>文<span class="e">強調</span>字</p></body></html>
    """.write(toFile: path, atomically: true, encoding: .utf8)
    let b = try EagerBook(path, settings: LayoutSettings(pageWidth: 400, pageHeight: 400))
    let runs = try #require(b.layout.pages.first).items.compactMap { item -> GlyphRun? in
      if case .glyphs(let r) = item { return r }
      return nil
    }
    let marks = try #require(runs.first { $0.size < 10 })
    let base = try #require(runs.first { $0.size > 10 })
    #expect(marks.glyphs.count == 2)
    let (m, t) =
      mode == "horizontal-tb"
      ? (-Double(marks.y[0]), -Double(base.y[0])) : (Double(marks.x[0]), Double(base.x[0]))
    // Over: above a horizontal line (smaller y), right of a vertical one (larger x).
    #expect((m > t) == over, "\(mode) \(position): mark \(m) base \(t)")
  }

  /// `object-position` is physical: `left` puts a contained picture at the box's left edge
  /// in every writing mode (vertical-rl's logical block axis runs right to left).
  @Test(arguments: [
    ("horizontal-tb", "left top"), ("vertical-rl", "left top"), ("vertical-lr", "left top"),
    ("horizontal-tb", "right bottom"), ("vertical-rl", "right bottom"),
    ("vertical-lr", "right bottom"),
  ])
  func objectPositionIsPhysicalInVerticalFlow(_ mode: String, _ position: String) throws {
    let dir = temporaryFolder("object-position-\(mode)-\(position.prefix(1))")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    try Data(contentsOf: VerticalTests.folder.appendingPathComponent("picture.png"))
      .write(to: URL(fileURLWithPath: dir + "/picture.png"))
    let path = dir + "/o.xhtml"
    // picture.png is 160 × 400: contained in a 200 × 200 box it is 80 × 200.
    try """
    <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="ja"><head><style>
    html { writing-mode: \(mode); }
    img { display: block; width: 200px; height: 200px; object-fit: contain;
      object-position: \(position); }
    </style></head><body><p>前</p><img src="picture.png" alt=""/><p>後</p></body></html>
    """.write(toFile: path, atomically: true, encoding: .utf8)
    let b = try EagerBook(path, settings: LayoutSettings(pageWidth: 600, pageHeight: 600))
    let page = try #require(b.layout.pages.first)
    let box = try #require(page.images.first).rect
    let drawn = try #require(
      page.items.compactMap { item -> Rect? in
        if case .image(let p) = item { return p.rect }
        return nil
      }.first)
    #expect(abs(box.width - 200) < 0.5 && abs(box.height - 200) < 0.5, "\(box)")
    #expect(abs(drawn.width - 80) < 0.5 && abs(drawn.height - 200) < 0.5, "\(drawn)")
    if position.hasPrefix("left") {
      #expect(abs(drawn.x - box.x) < 0.5, "\(mode): \(drawn) in \(box)")
    } else {
      #expect(abs(drawn.maxX - box.maxX) < 0.5, "\(mode): \(drawn) in \(box)")
    }
  }
}

/// Kinsoku, punctuation compression, hanging and inter-character justification are the
/// horizontal ones in a vertical line (Vertical/VerticalPage.swift lays a vertical chapter
/// out on the turned page): the same JLREQ text breaks into the same lines with the same
/// adjustment ratios and lengths in `horizontal-tb` and in both vertical modes.
@Suite("Vertical lines as horizontal ones", .serialized)
struct VerticalLineParityTests {
  static func lines(_ mode: String, measure: Int, text: String) throws -> [LineBox] {
    let dir = temporaryFolder("parity-\(mode)-\(measure)")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let path = dir + "/p.xhtml"
    try """
    <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="ja"><head><style>
    html { writing-mode: \(mode); } body { font-family: serif; line-height: 1.8; }
    </style></head><body><p>\(text)</p></body></html>
    """.write(toFile: path, atomically: true, encoding: .utf8)
    let (w, h) = mode == "horizontal-tb" ? (measure + 40, 4000) : (4000, measure + 40)
    var settings = LayoutSettings(pageWidth: w, pageHeight: h)
    settings.margins = PageMargins(top: 20, right: 20, bottom: 20, left: 20)
    return VerticalTests.textLines(try EagerBook(path, settings: settings))
  }

  @Test(arguments: [233, 301, 352])
  func sameBreaksRatiosAndLengths(_ measure: Int) throws {
    let source = try String(
      contentsOf: VerticalTests.folder.appendingPathComponent("source.txt"), encoding: .utf8)
    let text = source.split(separator: "\n").dropFirst().prefix(3).joined()
    let horizontal = try Self.lines("horizontal-tb", measure: measure, text: text)
    #expect(horizontal.count > 5)
    #expect(horizontal.contains { $0.text.hasSuffix("，") || $0.text.hasSuffix("．") })
    for mode in ["vertical-rl", "vertical-lr"] {
      let vertical = try Self.lines(mode, measure: measure, text: text)
      #expect(vertical.map(\.text) == horizontal.map(\.text), "\(mode)")
      // Lengths and starts along the line are the same; the ratios differ a little, as
      // some kana advance 0.96 em across and 1 em down in this font.
      for (v, h) in zip(vertical, horizontal) {
        #expect(abs(v.ratio - h.ratio) < 0.1, "\(mode) \(v.text)")
        #expect(abs(v.rect.height - h.rect.width) < 0.01, "\(mode) \(v.text)")
        #expect(abs(v.rect.y - h.rect.x) < 0.01, "\(mode) \(v.text)")
      }
      // Hanging punctuation (past the measure's end) on the same lines.
      let end = Double(measure + 20) + 0.5
      #expect(vertical.map { $0.rect.maxY > end } == horizontal.map { $0.rect.maxX > end })
    }
  }
}

/// The corpus's right-to-left books after the precedence rules (issue #13): their content
/// declares `dir="rtl"`, so their text stays right to left and their pages turn right to
/// left (declared progression).
@Suite("Right-to-left corpus books", .enabled(if: corpusPresent, Comment(rawValue: Corpus.missing)))
struct RightToLeftCorpusTests {
  @Test(arguments: [
    ("israelsailing.epub", 0x0590...0x05FF), ("regime-anticancer-arabic.epub", 0x0600...0x06FF),
  ])
  func textStaysRightToLeft(_ name: String, _ script: ClosedRange<UInt32>) throws {
    let settings = LayoutSettings(pageWidth: 600, pageHeight: 800)
    let b = try EagerBook(corpusBook(name), settings: settings)
    #expect(b.document.metadata.direction == .rtl)
    let lines = VerticalTests.textLines(b).filter { line in
      let letters = line.text.unicodeScalars.filter { $0.properties.isAlphabetic }
      let inScript = letters.filter { script.contains($0.value) }.count
      return letters.count > 10 && inScript * 10 > letters.count * 9
    }
    #expect(lines.count > 200, "\(lines.count) lines in the script")
    // Start-aligned (right) or justified: the lines share their right edge, in the right
    // part of the page; the short ones (paragraph ends) too, where LTR text would sit left.
    var edges: [Int: Int] = [:]
    for l in lines { edges[Int(l.rect.maxX.rounded()), default: 0] += 1 }
    let right = Double(try #require(edges.max { $0.value < $1.value }).key)
    #expect(right > 600 - settings.layoutOptions.margins.right - 20, "right edge \(right)")
    let flush = lines.filter { abs($0.rect.maxX - right) < 1 }.count
    #expect(flush * 100 >= lines.count * 90, "\(flush) of \(lines.count) flush right")
    let short = lines.filter { $0.rect.width < 300 }
    let shortFlush = short.filter { abs($0.rect.maxX - right) < 1 }.count
    #expect(
      short.count > 20 && shortFlush * 100 >= short.count * 80, "\(shortFlush)/\(short.count)")
  }
}
