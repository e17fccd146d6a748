// The shape walk's shortcuts (session 17) against the general paths they skip: the break
// opportunity before a space, soft hyphen, `<br>` or the end, the Latin line-break table
// walk, and the itemizer's scalar conversion.

import CUnibreak
import QuireIngest
import Testing

@testable import QuireTypeset

@Suite struct ShapeWalkTests {
  /// Paragraphs whose characters before a space, soft hyphen, `<br>` or the end are of every
  /// kind `breakAfter` tells apart: ASCII, CJK, fullwidth punctuation, ideographic space.
  static let texts = [
    "Call me Ishmael. Some years ago\u{AD}never mind how long",
    "漢字 かな、カナ。 「引用」 ﹁括弧﹂ word 字 a",
    "（注） 〔A〕 “quoted” ‘single’ — dash – en\u{AD}字\u{AD}a",
    "http://example.com/pack-age x\u{AD}\u{AD} 。 ",
    "Ἐν ἀρχῇ ἦν ὁ λόγος, Жили-были 123 456。",
  ]

  /// Styles that reach `breakAfter`'s other rules: strict and loose line breaking, and
  /// `word-break` other than normal.
  static func styles() -> [ComputedStyle] {
    var strict = ComputedStyle()
    strict.text.lineBreak = .strict
    var loose = ComputedStyle()
    loose.text.lineBreak = .loose
    var breakAll = ComputedStyle()
    breakAll.text.wordBreak = .breakAll
    var keepAll = ComputedStyle()
    keepAll.text.wordBreak = .keepAll
    return [ComputedStyle(), strict, loose, breakAll, keepAll]
  }

  /// The walk skips `breakAfter` where the next character takes its own break (or at the
  /// end) and spaces collapse: there it appends no item, flushes no piece.
  @Test(arguments: texts)
  func breakAfterAddsNothingBeforeASpaceSoftHyphenLineBreakOrTheEnd(_ line: String) throws {
    for style in Self.styles() {
      var rig = try InlineRig()
      // A `<br>` between two copies: U+2028 comes from a line break, not from text.
      let block = Block(
        kind: .paragraph, style: style,
        inlines: [
          .text(TextRun(text: line, style: style, location: Location(spine: 0, offset: 0))),
          .lineBreak(Location(spine: 0, offset: 500)),
          .text(TextRun(text: line, style: style, location: Location(spine: 0, offset: 501))),
        ],
        location: Location(spine: 0, offset: 0), element: "p")
      let text = rig.collect(block)
      let itemized = rig.itemize(text, language: "ja")
      let ws = CollectedText.WhiteSpaceRule(block.style.whiteSpace)
      let settings = rig.flow.shapeSettings(style, lang: "ja", whiteSpace: ws, noWrap: false)
      #expect(!settings.preserve)
      let s = text.scalars
      var checked = 0
      for i in s.indices where i + 1 == s.count || PieceShaper.takesItsOwnBreak(s[i + 1]) {
        var stage = PieceShaper(
          text, itemized, styles: rig.flow.styles, fonts: rig.flow.fonts, settings: settings,
          images: [:], shaper: rig.flow.shaper, hyphenation: rig.flow.hyphenation)
        stage.breakAfter(i)
        #expect(stage.out.items.isEmpty, "after \(i) of \(line)")
        #expect(stage.out.pieces.isEmpty && stage.out.sources.isEmpty)
        checked += 1
      }
      #expect(checked >= 8)
    }
  }

  /// The table walk gives the rule walk's answer for every state and class.
  @Test func transitionTableMatchesTheRules() {
    let (steps, width) = LatinLineBreaks.transitions
    #expect(width > Int(LatinLineBreaks.lastPaired))
    #expect(steps.count == 2 * width * width)
    let classes =
      (1...Int(LatinLineBreaks.lastPaired)).map { LatinLineBreaks.Class($0) }
      + [LatinLineBreaks.bk, LatinLineBreaks.cr]
    for current in classes {
      for afterSpace in [false, true] {
        for new in 1..<width {
          let c = LatinLineBreaks.Class(new)
          let t = steps[(Int(current) * 2 + (afterSpace ? 1 : 0)) * width + new]
          let (brk, next) = LatinLineBreaks.step(current, c, afterSpace: afterSpace)
          #expect(t.brk == brk)
          #expect(Int(t.next) == Int(next) * 2 + (c == LatinLineBreaks.sp ? 1 : 0))
        }
      }
    }
  }

  /// The fast path's opportunities equal libunibreak's on text of every class it takes,
  /// spaces first, in a run, and last included.
  @Test(arguments: texts + ["", " ", "a", "  a  b  ", "a\u{2028}\u{2028}b \u{2028}"])
  func latinBreaksMatchLibunibreak(_ line: String) {
    let scalars = line.unicodeScalars.map(\.value)
    guard let fast = LatinLineBreaks.breaks(scalars, language: "en") else { return }
    #expect(fast == LineBreakOpportunities.libunibreak(scalars, language: "en"))
  }

  /// The itemizer's conversion for FriBidi is `map`'s, a non-scalar as a space.
  @Test func unicodeScalarsMatchMap() {
    let values: [UInt32] = [0x41, 0x20, 0xD800, 0xDFFF, 0x10FFFF, 0x110000, 0x2028, 0, 0xFFFC]
    #expect(
      ItemizedText.unicodeScalars(values) == values.map { Unicode.Scalar($0) ?? " " })
    #expect(ItemizedText.unicodeScalars([]).isEmpty)
  }
}
