import Foundation
import QuireCore
import QuireIngest
import QuireRaster
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

/// CSS inline text properties end to end, on the small XHTML fixtures in
/// Tests/QuireIngestTests/Fixtures/css-inline (white space, hyphenation, spacing and
/// alignment, decorations, word breaking, font variants): a line dump golden per fixture,
/// PNG goldens where pixels matter, and assertions on what each property must do.
@Suite("Inline text properties")
struct InlineTextTests {
  static let width = 400
  static let height = 600

  static func fixture(_ name: String) -> String {
    packageRoot.appendingPathComponent("Tests/QuireIngestTests/Fixtures/css-inline/\(name).xhtml")
      .path
  }

  static func book(_ name: String, hyphenation: Hyphenation = .auto) throws
    -> EagerBook
  {
    var s = LayoutSettings(pageWidth: width, pageHeight: height)
    s.hyphenation = hyphenation
    return try EagerBook(fixture(name), settings: s)
  }

  static func lines(_ b: EagerBook) -> [LineBox] { b.layout.pages.flatMap(\.lines) }

  /// The page's text area, px.
  static var textArea: (left: Double, right: Double) {
    let m = LayoutSettings(pageWidth: width, pageHeight: height).effectiveMargins
    return (Double(m.left), Double(width) - Double(m.right))
  }

  static func dump(_ b: EagerBook) -> String {
    var s = ""
    for page in b.layout.pages {
      s += "page \(page.number)\n"
      for l in page.lines {
        s += String(
          format: "%6.1f %6.1f %6.1f %+6.2f %@ |%@|\n", l.rect.y, l.rect.x, l.rect.width, l.ratio,
          l.hyphenated ? "-" : " ", l.text)
      }
    }
    for w in b.warnings { s += "warning: \(w)\n" }
    return s
  }

  @Test(
    arguments: ["whitespace", "hyphens", "spacing", "decoration", "wordbreak", "variant", "valign"]
  )
  func lineDumpGolden(_ name: String) throws {
    let b = try Self.book(name)
    try checkGolden(Data(Self.dump(b).utf8), "css-inline-\(name).lines.txt")
  }

  @Test(arguments: ["decoration", "variant", "whitespace", "valign"])
  func pageGolden(_ name: String) throws {
    let b = try Self.book(name)
    let page = try #require(b.layout.pages.first)
    let image = b.makeRenderer().render(
      page, width: Self.width, height: Self.height, format: PixelBuffer.Format.rgba8)
    try checkGolden(Data(PNGCodec.encode(image)), "css-inline-\(name).png")
  }

  @Test func whiteSpaceModes() throws {
    let b = try Self.book("whitespace")
    let texts = Self.lines(b).map(\.text)
    #expect(texts.contains("pre:   kept   spaces"))
    #expect(texts.contains("and a newline"))
    #expect(texts.contains("pre-line: collapsed spaces"))
    #expect(texts.contains("but kept newlines"))
    // Tabs advance to the next stop of 4 (tab-size), counted from the line's start.
    #expect(texts.contains("a   b   c"))
    #expect(texts.contains("ab  cd  ef"))
    // nowrap and pre lines stay single lines; pre-wrap wraps at its spaces.
    #expect(texts.contains { $0.hasPrefix("nowrap: this long line") && $0.hasSuffix("page.") })
    #expect(texts.filter { $0.hasPrefix("pre-wrap:") }.count == 1)
    #expect(texts.contains("and keeps its newline"))
    #expect(!texts.contains(""))  // no blank line after a clipped pre line
  }

  @Test func unwrappableLinesAreClippedWithOneWarning() throws {
    let b = try Self.book("whitespace")
    let (left, right) = Self.textArea
    for l in Self.lines(b) {
      #expect(l.rect.x >= left - 0.01 && l.rect.maxX <= right + 0.01, "\(l.text)")
    }
    let clipped = b.layout.warnings.filter { $0.kind == Diagnostic.Kind.clippedLine }
    #expect(clipped.count == 1)
    #expect(clipped.first?.message.hasPrefix("2 lines") == true)
    #expect(!b.layout.warnings.contains { $0.kind == Diagnostic.Kind.emergencyBreak })
    // No glyph is drawn past the text area's right edge.
    let page = try #require(b.layout.pages.first)
    for case .glyphs(let run) in page.items {
      for x in run.x { #expect(Double(x) <= right) }
    }
  }

  @Test func codeHeadingsAndAddressesAreNotHyphenated() throws {
    let b = try Self.book("hyphens")
    let lines = Self.lines(b)
    let hyphenated = lines.filter { $0.hyphenated }.map { $0.text }
    // The first heading (UA hyphens: none) is not hyphenated; the one whose CSS says
    // hyphens: auto is.
    let headings = lines.filter { $0.text.contains("Internationalization") }
    #expect(headings.count >= 2)
    #expect(headings.first?.hyphenated == false)
    #expect(hyphenated.contains { $0.hasSuffix("Acces") })
    // Nothing in pre-wrap code, inline code, the URL, the address or the path.
    for t in hyphenated {
      #expect(!t.contains("<") && !t.contains("metadata") && !t.contains("Accessibility"))
      #expect(!t.hasSuffix("/") && !t.contains("@") && !t.contains("www."), "\(t)")
    }
    // Prose in the same paragraph still is.
    #expect(hyphenated.contains { $0.hasSuffix("unhyphenat") })
  }

  @Test func spacingAlignmentAndIndents() throws {
    let b = try Self.book("spacing")
    let lines = Self.lines(b)
    let (left, right) = Self.textArea
    func line(_ prefix: String) throws -> LineBox {
      try #require(lines.first { $0.text.hasPrefix(prefix) }, "\(prefix)")
    }
    // text-align-last: center, right, justify.
    let centred = try line("tified as usual.")
    #expect(abs((centred.rect.x - left) - (right - centred.rect.maxX)) < 1)
    let righted = try line("line goes to the right edge.")
    #expect(abs(righted.rect.maxX - right) < 0.5)
    let filled = try line("text-align-last, so it fills.")
    #expect(abs(filled.rect.x - left) < 0.5 && abs(filled.rect.maxX - right) < 0.5)
    // Hanging: the first line at the margin, the others 2 em in.
    let hangFirst = try line("A hanging indent")
    #expect(abs(hangFirst.rect.x - left) < 0.5)
    let hangIndex = try #require(lines.firstIndex(of: hangFirst))
    #expect(abs(lines[hangIndex + 1].rect.x - (left + 32)) < 0.5)
    // each-line: every line after a <br> is indented like the first.
    for p in ["Each line after", "is indented as", "with each-line."] {
      let x = try line(p).rect.x
      #expect(abs(x - (left + 32)) < 0.5)
    }
    // Negative: the first line 3 em left of the others.
    let neg = try line("A negative text indent")
    let negIndex = try #require(lines.firstIndex(of: neg))
    #expect(abs(lines[negIndex + 1].rect.x - neg.rect.x - 48) < 0.5)
    // Word spacing: 10 px more per space than the same words set without it.
    let ws = try line("Word spacing adds")
    #expect(ws.ratio >= 0)
  }

  @Test func letterSpacingWidensText() throws {
    let b = try Self.book("spacing")
    let spaced = try #require(Self.lines(b).first { $0.text == "Letter spacing: office flow." })
    // 28 characters (with spaces) at 0.2 em of 16 px: 89.6 px wider than Noto Serif sets
    // them (about 200 px); ligatures (ffi, fl) are off, so every letter gets its spacing.
    #expect(spaced.rect.width > 280 && spaced.rect.width < 300)
  }

  /// `text-autospace`: the ¼ em (4 px at 16 px) between CJK and Latin letters and digits
  /// comes and goes with the property (and the older `text-spacing`); an invalid value is
  /// ignored (spacing stays on).
  @Test func autospaceAddsQuarterEmsWhereAsked() throws {
    let widths = Self.lines(try Self.book("autospace")).map(\.rect.width)
    try #require(widths.count == 6)
    let (normal, none, numeric, invalid) = (widths[0], widths[1], widths[2], widths[3])
    // Four boundaries (語|A, C|日, 語|1, 3|日), two of them with digits.
    #expect(abs(normal - none - 16) < 0.5, "\(widths)")
    #expect(abs(numeric - none - 8) < 0.5, "\(widths)")
    #expect(abs(invalid - normal) < 0.01, "\(widths)")
    // The older `text-spacing` says the same with its own keywords.
    #expect(abs(widths[4] - none) < 0.01 && abs(widths[5] - numeric) < 0.01, "\(widths)")
  }

  @Test func decorationsRunAcrossSpaces() throws {
    let b = try Self.book("decoration")
    let page = try #require(b.layout.pages.first)
    let first = try #require(page.lines.first)
    var fills: [Rect] = []
    for case .fill(let r, _) in page.items where r.y > first.rect.y && r.y < first.rect.maxY {
      fills.append(r)
    }
    // "underlined across the spaces, also italic" is one underline (across its spaces and
    // the italic), "and" none.
    #expect(fills.count == 1)
    let u = try #require(fills.first)
    #expect(abs(u.x - first.rect.x) < 0.5)
    #expect(u.width > 250 && u.maxX < first.rect.maxX - 20)
    // "one two": two underlines with a gap for the undecorated space between.
    let second = page.lines[1]
    let two = page.items.compactMap { item -> Rect? in
      if case .fill(let r, _) = item, r.y > second.rect.y, r.y < second.rect.maxY { return r }
      return nil
    }
    #expect(two.count == 2)
    if two.count == 2 { #expect(two[1].x > two[0].maxX + 2) }
  }

  @Test func decorationColorStyleAndPosition() throws {
    let b = try Self.book("decoration")
    let page = try #require(b.layout.pages.first)
    func fills(_ prefix: String) throws -> [(Rect, RGBA)] {
      let l = try #require(page.lines.first { $0.text.hasPrefix(prefix) })
      return page.items.compactMap {
        // An underline may hang below its line box (6 px offset): look a little lower.
        if case .fill(let r, let c) = $0, r.y > l.rect.y, r.y < l.rect.maxY + 8 { return (r, c) }
        return nil
      }
    }
    #expect(try fills("red underline").first?.1 == RGBA(r: 255, g: 0, b: 0))
    #expect(try fills("double underline").count == 2)
    #expect(try fills("dotted underline").count > 20)
    #expect(try fills("thick underline").first.map { abs($0.0.height - 3) < 0.01 } == true)
    let plain = try #require(try fills("red underline").first?.0)
    let under = try #require(try fills("underline under").first?.0)
    let offset = try #require(try fills("underline offset").first?.0)
    let redLine = try #require(page.lines.first { $0.text.hasPrefix("red underline") })
    let underLine = try #require(page.lines.first { $0.text.hasPrefix("underline under") })
    let offsetLine = try #require(page.lines.first { $0.text.hasPrefix("underline offset") })
    // `under` goes below the descenders, lower than the font's underline position.
    #expect(under.y - underLine.rect.y > plain.y - redLine.rect.y + 1)
    // offset: 6 px below the baseline.
    #expect(abs((offset.y - offsetLine.rect.y) - (plain.y - redLine.rect.y)) > 2)
    #expect(try fills("overline").count == 1)
    #expect(try fills("struck").count == 1)
  }

  @Test func wordBreakRules() throws {
    let b = try Self.book("wordbreak")
    let texts = Self.lines(b).map(\.text)
    // break-all: a line ends inside a word, with no hyphen.
    #expect(texts.first?.hasSuffix("let") == true || texts.first?.last?.isLetter == true)
    #expect(Self.lines(b).allSatisfy { !$0.hyphenated })
    // keep-all: Korean lines break at spaces only: every line is whole words of the source.
    let words = Set(
      "한국어 텍스트는 keep-all 에서 공백에서만 줄이 바뀝니다 그래서 단어가 나뉘지 않습니다."
        .split(separator: " ").map(String.init) + ["않습니다"])
    let korean = texts.filter { $0.contains("니") || $0.contains("한") || $0.contains("단") }
    #expect(korean.count >= 2)
    for t in korean {
      #expect(t.split(separator: " ").allSatisfy { words.contains(String($0)) }, "\(t)")
    }
    // overflow-wrap: the long word is broken between characters, inside the measure.
    let (left, right) = Self.textArea
    for l in Self.lines(b) { #expect(l.rect.x >= left - 0.01 && l.rect.maxX <= right + 0.01) }
  }

  @Test func fontVariantsChooseOtherGlyphs() throws {
    let b = try Self.book("variant")
    let page = try #require(b.layout.pages.first)
    let runs = page.items.compactMap {
      if case .glyphs(let r) = $0 { return r } else { return nil }
    }
    // Old-style figures (onum) are other glyphs than the default lining ones.
    let figures = try #require(runs.first { $0.glyphs.count > 20 && $0.y.first ?? 0 > 90 })
    _ = figures
    let sc = try #require(page.lines.first)
    #expect(sc.text == "Small Caps From The Font")
  }

  /// The baselines (glyph y) of the runs drawn within a line box.
  static func baselines(_ page: Page, _ l: LineBox) -> [Double] {
    var ys: Set<Double> = []
    for case .glyphs(let run) in page.items {
      for y in run.y where Double(y) > l.rect.y && Double(y) <= l.rect.maxY { ys.insert(Double(y)) }
    }
    return ys.sorted()
  }

  @Test func verticalAlignRaisesTextAndPlacesImages() throws {
    let b = try Self.book("valign")
    let page = try #require(b.layout.pages.first)
    let lines = page.lines
    try #require(lines.count == 7)
    // 5 px up; −50 % of the 22.4 px line height down.
    let up = Self.baselines(page, lines[0])
    #expect(up.count == 2 && abs(up[1] - up[0] - 5) < 0.01)
    let down = Self.baselines(page, lines[1])
    #expect(down.count == 2 && abs(down[1] - down[0] - 11.2) < 0.01)
    // text-top raises the small text, text-bottom lowers it.
    let tops = Self.baselines(page, lines[2])
    #expect(tops.count == 3)
    // Images: on the baseline, centred on the x-height, top at the text's top; the line
    // grows to hold each.
    let images = page.images.sorted { $0.rect.y < $1.rect.y }
    try #require(images.count == 3)
    let base = try #require(Self.baselines(page, lines[3]).first)
    #expect(abs(images[0].rect.maxY - base) < 0.01)
    let mid = try #require(Self.baselines(page, lines[4]).first)
    let centre = images[1].rect.y + images[1].rect.height / 2
    #expect(mid - centre > 3 && mid - centre < 6)
    #expect(images[1].rect.maxY > mid + 10)
    #expect(lines[4].rect.height >= 40)
    let top = try #require(Self.baselines(page, lines[5]).first)
    #expect(top - images[2].rect.y > 10 && top - images[2].rect.y < 20)
    // all-small-caps in the monospace face: the source text is kept as written.
    #expect(lines[6].text == "Faked All Small Caps")
  }
}
