import Foundation
import QuireIngest
import Testing

@testable import QuireTypeset

/// The typography refinements: letter spacing, CJK punctuation, page-end hyphens.
@Suite struct TypographyTests {
  static let prose =
    "It was the best of times, it was the worst of times, it was the age of wisdom, it was "
    + "the age of foolishness, it was the epoch of belief, it was the epoch of incredulity, "
    + "it was the season of Light, it was the season of Darkness, it was the spring of hope, "
    + "it was the winter of despair, we had everything before us, we had nothing before us."

  /// Justified lines still end exactly at the right margin when their words are letter
  /// spaced, and letter spacing never reorders or overlaps glyphs.
  @Test func letterSpacingKeepsTheMargin() throws {
    var b = DocumentBuilder()
    b.paragraph(TypographyTests.prose)
    b.endChapter()
    var o = LayoutOptions.small
    o.hyphenate = .off
    let book = try Typesetter(document: b.document(), options: o).layoutBook(threads: 1)
    let lines = book.pages.flatMap(\.lines).filter { $0.role == .text }
    #expect(lines.count > 4)
    let right = Double(o.width) - o.margins.right
    var stretched = 0
    for l in lines.dropLast() {
      #expect(abs(l.rect.maxX - right) < 0.05, "\(l.text): \(l.rect.maxX) vs \(right)")
      if l.ratio > 0 { stretched += 1 }
      // Word spaces keep TeX's proportions (stretch ½, shrink ⅓ of the space).
      let expected = l.ratio > 0 ? 1 + l.ratio / 2 : 1 + l.ratio / 3
      #expect(abs((l.spaceFactor ?? 0) - expected) < 1e-9)
    }
    #expect(stretched > 0)
    for case .glyphs(let run) in book.pages.flatMap(\.items) {
      for k in run.x.indices.dropFirst() { #expect(run.x[k] >= run.x[k - 1] - 0.01) }
    }
  }

  /// A style change inside a word (half plain, half italic) is no break opportunity, even
  /// though the italic half carries letter-spacing glue.
  @Test func styleChangeInsideAWordDoesNotBreak() throws {
    var b = DocumentBuilder()
    let plain = b.style()
    var italic = plain
    italic.italic = true
    var inlines: [Inline] = []
    for word in TypographyTests.prose.split(separator: " ") {
      let cut = word.index(word.startIndex, offsetBy: word.count / 2)
      inlines.append(b.run(String(word[..<cut]), plain))
      inlines.append(b.run(String(word[cut...]) + " ", italic))
    }
    b.add(b.block(.paragraph, plain, inlines: inlines))
    b.endChapter()
    var o = LayoutOptions.small
    o.hyphenate = .off
    let book = try Typesetter(document: b.document(), options: o).layoutBook(threads: 1)
    let words = Set(TypographyTests.prose.split(separator: " ").map(String.init))
    let lines = book.pages.flatMap(\.lines).filter { $0.role == .text }
    #expect(lines.count > 4)
    for l in lines {
      for w in l.text.split(separator: " ") { #expect(words.contains(String(w)), "\(l.text)") }
    }
  }

  /// An em dash between words offers a break (UAX #14 class B2) when nothing else fits.
  @Test func breaksAfterAnEmDash() throws {
    var b = DocumentBuilder()
    b.paragraph("extraordinarily—incomprehensibly—unbelievably—uncharacteristically")
    b.endChapter()
    var o = LayoutOptions.small
    o.hyphenate = .off
    let book = try Typesetter(document: b.document(), options: o).layoutBook(threads: 1)
    let lines = book.pages.flatMap(\.lines).filter { $0.role == .text }
    #expect(lines.count > 1)
    #expect(lines.dropLast().allSatisfy { $0.text.hasSuffix("—") || $0.text.hasPrefix("—") })
  }

  // MARK: CJK spacing (JLREQ)

  /// Pages of one Japanese paragraph (no indent) on a page whose measure is `ems` em of
  /// 16 px, and a dump of its lines plus each glyph's x offset from the line start in em.
  static func japanese(_ text: String, ems: Int = 20) throws -> (lines: [LineBox], dump: String) {
    var b = DocumentBuilder()
    b.paragraph(text, b.style { $0.textIndent = .zero })
    b.endChapter()
    var o = LayoutOptions()
    o.fontSize = 16
    o.margins = .init(top: 20, right: 20, bottom: 20, left: 20)
    o.width = 40 + 16 * ems
    o.height = 400
    let book = try Typesetter(document: b.document(language: "ja"), options: o).layoutBook(
      threads: 1)
    var out = dump(book.pages)
    for case .glyphs(let run) in book.pages.flatMap(\.items) {
      out += "x/em:" + run.x.map { String(format: " %.3g", (Double($0) - 20) / 16) }.joined()
      out += "\n"
    }
    return (book.pages.flatMap(\.lines).filter { $0.role == .text }, out)
  }

  /// Glyph x positions (px from the left margin) of the first glyph run(s), in order.
  static func xs(_ dump: String) -> [Double] {
    dump.split(separator: "\n").filter { $0.hasPrefix("x/em:") }.flatMap {
      $0.dropFirst(5).split(separator: " ").compactMap { Double($0) }
    }
  }

  /// 」「 and 。」 are set with half an em between them (one blank half cut).
  @Test func compressionAtABracketPair() throws {
    let (lines, out) = try Self.japanese("「あい」「うえ。」")
    #expect(matchesGolden("cjk-compression.txt", out))
    #expect(lines.count == 1)
    let x = Self.xs(out)
    // 「 あ い 」 「 う え 。 」: ½ em from 」 to 「 and from 。 to 」, 1 em elsewhere.
    #expect(x.count == 9)
    if x.count == 9 {
      #expect(x[4] - x[3] == 0.5)
      #expect(x[8] - x[7] == 0.5)
      #expect(x[3] == 3)
    }
  }

  /// A quarter em separates 日本 from Latin letters and digits on both sides.
  @Test func quarterEmBetweenJapaneseAndLatin() throws {
    let (lines, out) = try Self.japanese("日本Latin日本")
    #expect(matchesGolden("cjk-quarter-em.txt", out))
    #expect(lines.count == 1)
    let x = Self.xs(out)
    #expect(x.count >= 9)
    #expect(abs(x[2] - 2.25) < 0.001)  // L after 日本 and ¼ em
    let afterLatin = x[x.count - 2] - x[6]  // 日 after "n" + ¼ em
    #expect(afterLatin > 0.25)
  }

  /// A full line followed by 。 hangs the stop past the measure instead of pulling the last
  /// character down with it (。 may not start a line).
  @Test func hangingFullStop() throws {
    let (lines, out) = try Self.japanese("一二三四五六七八九十。一二三四五六七八九十一二三。", ems: 10)
    #expect(matchesGolden("cjk-hanging.txt", out))
    #expect(lines.count == 3)
    #expect(lines[0].text == "一二三四五六七八九十。")
    #expect(abs(lines[0].rect.maxX - (20 + 11 * 16)) < 0.01)
  }
}
