import Foundation
import QuireIngest
import QuireTestSupport
import Testing

@testable import QuireTypeset

@Suite struct KinsokuTests {
  @Test func charactersThatMayNotStartALine() {
    for c in "。、，．：；？！」』）〕】〉》〙〗’”ー々ゝゞヽヾぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ﹔・".unicodeScalars {
      #expect(!Kinsoku.mayStartLine(c), "\(c) must not start a line")
    }
    for c in "あア漢「『（A1한".unicodeScalars {
      #expect(Kinsoku.mayStartLine(c), "\(c) may start a line")
    }
  }

  @Test func charactersThatMayNotEndALine() {
    for c in "「『（〔【〈《〘〖‘“".unicodeScalars {
      #expect(!Kinsoku.mayEndLine(c), "\(c) must not end a line")
    }
    for c in "。」あ漢、）".unicodeScalars {
      #expect(Kinsoku.mayEndLine(c), "\(c) may end a line")
    }
  }

  @Test func forbiddenBreaksBetweenPairs() {
    #expect(Kinsoku.forbidBreak(before: "字", after: "。"))
    #expect(Kinsoku.forbidBreak(before: "「", after: "字"))
    #expect(Kinsoku.forbidBreak(before: "か", after: "っ"))
    #expect(Kinsoku.forbidBreak(before: "—", after: "—"))
    #expect(Kinsoku.forbidBreak(before: "…", after: "…"))
    #expect(!Kinsoku.forbidBreak(before: "字", after: "字"))
    #expect(!Kinsoku.forbidBreak(before: "。", after: "「"))
    #expect(!Kinsoku.forbidBreak(before: "」", after: "漢"))
  }

  @Test func lineBreakNormalLetsConditionalStartersStart() {
    // CSS Text 3 §5.3: `normal` allows breaks before small kana, ー and ‐ – 〜 ゠.
    for c in "ーぁっャヵ‐–〜゠".unicodeScalars {
      #expect(Kinsoku.mayStartLine(c, strict: false), "\(c)")
      #expect(!Kinsoku.mayStartLine(c), "\(c) strict")
      #expect(Kinsoku.mayBreakBeforeConditional(before: "ポ", after: c), "\(c)")
    }
    // What every set forbids stays forbidden.
    for c in "。、」々ゝ？～".unicodeScalars {
      #expect(!Kinsoku.mayStartLine(c, strict: false), "\(c)")
      #expect(!Kinsoku.mayBreakBeforeConditional(before: "ポ", after: c), "\(c)")
    }
    #expect(Kinsoku.forbidBreak(before: "か", after: "っ"))
    #expect(!Kinsoku.forbidBreak(before: "か", after: "っ", strict: false))
    // Not after Latin text, nor after an opening bracket.
    #expect(!Kinsoku.mayBreakBeforeConditional(before: "A", after: "ー"))
    #expect(!Kinsoku.mayBreakBeforeConditional(before: "「", after: "ー"))
  }

  /// `line-break: loose` (CSS Text 3 §5.3) on top of `normal`: iteration marks, centred
  /// punctuation, ！？ and inseparable leaders may start a line after CJK text; a postfix
  /// may follow a break after an ideograph and a prefix may end a line before one; what
  /// every rule set forbids stays forbidden.
  @Test func lineBreakLooseAllowsWhatNormalKeeps() {
    func allows(_ a: Unicode.Scalar, _ b: Unicode.Scalar) -> Bool {
      Kinsoku.looseAllows(before: a.value, after: b.value)
    }
    for c in "々〻ゝゞヽヾ・：；･！？‼⁇⁈⁉".unicodeScalars {
      #expect(allows("字", c), "before \(c)")
      #expect(!Kinsoku.mayStartLine(c, strict: false), "\(c) normal")
    }
    // Between two inseparable leaders, which every other set keeps together.
    for c in "…‥".unicodeScalars {
      #expect(allows(c, c), "\(c)\(c)")
      #expect(Kinsoku.forbidBreak(before: c, after: c, strict: false), "\(c)\(c) normal")
    }
    for c in "%¢°‰′″℃％￠".unicodeScalars {
      #expect(allows("字", c), "postfix \(c)")
      #expect(!allows("1", c), "postfix \(c) after a digit")
    }
    for c in "$£¥€№＄￡￥".unicodeScalars {
      #expect(allows(c, "字"), "prefix \(c)")
      #expect(!allows(c, "1"), "prefix \(c) before a digit")
    }
    for c in "。、」）".unicodeScalars { #expect(!allows("字", c), "\(c)") }
    #expect(!allows("「", "々"))  // an opening bracket still may not end a line
  }

  @Test func compressionAndHanging() {
    for c in "「」『』（）。、，．・：；【】".unicodeScalars {
      #expect(Kinsoku.isCompressible(c), "\(c)")
    }
    for c in "漢あ？！ー(".unicodeScalars { #expect(!Kinsoku.isCompressible(c), "\(c)") }
    for c in "。、，．".unicodeScalars { #expect(Kinsoku.mayHang(c)) }
    for c in "」？！漢".unicodeScalars { #expect(!Kinsoku.mayHang(c)) }
  }

  @Test func lb30BreaksBeforeWideOpeningBrackets() {
    // UAX #14 LB30 since Unicode 8: (AL | HL | NU) × OP only for narrow brackets.
    #expect(Kinsoku.mayBreakBeforeWideOpening(before: "2", after: "（"))
    #expect(Kinsoku.mayBreakBeforeWideOpening(before: "a", after: "「"))
    #expect(!Kinsoku.mayBreakBeforeWideOpening(before: "2", after: "("))
    #expect(!Kinsoku.mayBreakBeforeWideOpening(before: "漢", after: "（"))
    #expect(!Kinsoku.mayBreakBeforeWideOpening(before: "2", after: "）"))
  }

  @Test func hungOrTrimmedPunctuationKeepsItsWidthInMinContent() throws {
    // "い，ホ" with the break after the comma: the items offer a hung comma (−1 em) and a
    // compressed one (−½ em), but a min-content unit is "い，" at its full 2 em.
    let em = 16.0
    let after = try #require(
      Kinsoku.boundaryItems("，", "ホ", em: em, breakAllowed: true, compress: true))
    #expect(after.contains { if case .penalty(let w, _, _) = $0 { w < 0 } else { false } })
    let items: [BreakItem] =
      [.box(width: em), BreakItem.prohibitedBreak, .box(width: em)] + after + [.box(width: em)]
    let w = ChapterFlow.intrinsicWidths(items, noWrap: false)
    #expect(w.min == 2 * em)
    #expect(w.max == 3 * em)
  }

  @Test func cjkClassification() {
    for c in "漢字かなカナ한글。「ｱ𠀋".unicodeScalars { #expect(Kinsoku.isCJK(c), "\(c)") }
    for c in "Aé1,Ωж ".unicodeScalars { #expect(!Kinsoku.isCJK(c), "\(c)") }
  }

  @Test func quarterEmBetweenCJKAndLatin() {
    #expect(Kinsoku.needsQuarterEm(between: "字", and: "A"))
    #expect(Kinsoku.needsQuarterEm(between: "7", and: "か"))
    #expect(Kinsoku.needsQuarterEm(between: "ア", and: "é"))
    #expect(!Kinsoku.needsQuarterEm(between: "。", and: "A"))
    #expect(!Kinsoku.needsQuarterEm(between: "字", and: "字"))
    #expect(!Kinsoku.needsQuarterEm(between: "A", and: "B"))
    #expect(!Kinsoku.needsQuarterEm(between: "字", and: ","))
    #expect(!Kinsoku.needsQuarterEm(between: "字", and: "Ａ"))  // fullwidth A
    #expect(!Kinsoku.needsQuarterEm(between: "「", and: "A"))
  }

  /// `text-autospace`: each kind of spacing on its own, and none.
  @Test func autospaceChoosesWhichQuarterEms() {
    #expect(!Kinsoku.needsQuarterEm(between: "字", and: "A", autospace: []))
    #expect(!Kinsoku.needsQuarterEm(between: "7", and: "か", autospace: []))
    #expect(Kinsoku.needsQuarterEm(between: "字", and: "A", autospace: .alpha))
    #expect(!Kinsoku.needsQuarterEm(between: "7", and: "か", autospace: .alpha))
    #expect(Kinsoku.needsQuarterEm(between: "か", and: "7", autospace: .numeric))
    #expect(!Kinsoku.needsQuarterEm(between: "A", and: "字", autospace: .numeric))
    let glue = Kinsoku.boundaryItems("字", "A", em: 16, breakAllowed: true, compress: true)
    #expect(glue?.count == 1)
    #expect(
      Kinsoku.boundaryItems("字", "A", em: 16, breakAllowed: true, compress: true, autospace: [])
        == nil)
  }
}

@Suite(
  .enabled(
    if: Corpus.has("xiyouji-journey-to-the-west.utf8.txt"), Comment(rawValue: Corpus.missing))
)
struct KinsokuCorpusTests {
  /// 西遊記, set per character at 1 em on a 24 em measure: breaks allowed between any two
  /// CJK characters, filtered by the kinsoku rules, then broken greedily.
  @Test func journeyToTheWestHasNoKinsokuViolations() throws {
    let text = try String(
      contentsOfFile: Corpus.path("xiyouji-journey-to-the-west.utf8.txt"), encoding: .utf8)
    var paragraphs: [[Unicode.Scalar]] = []
    // The file is hard-wrapped at about 36 characters; blank lines separate paragraphs.
    for block in text.components(separatedBy: "\n\n") {
      let scalars = Array(
        block.unicodeScalars.filter { $0 != "\u{3000}" && $0 != " " && $0 != "\n" })
      if scalars.count > 40 { paragraphs.append(scalars) }
      if paragraphs.count == 300 { break }
    }
    #expect(paragraphs.count == 300)
    var naive = LineQualityStats()
    var ruled = LineQualityStats()
    for p in paragraphs {
      let all = [Bool](repeating: true, count: p.count)
      for (filtered, stats) in [(false, 0), (true, 1)] {
        let allowed = filtered ? Kinsoku.applyRules(to: p, breakAfter: all) : all
        var items: [BreakItem] = []
        for (i, _) in p.enumerated() {
          items.append(.box(width: 16))
          if i + 1 < p.count {
            items.append(
              allowed[i]
                ? .glue(width: 0, stretch: 1.6, shrink: 0)
                : BreakItem.prohibitedBreak)
            if !allowed[i] { items.append(.glue(width: 0, stretch: 1.6, shrink: 0)) }
          }
        }
        items += BreakItem.paragraphEnd
        // Greedy for the unfiltered run; Knuth–Plass (the default breaker) for the filtered.
        let breaker: any ParagraphBreaker = filtered ? KnuthPlassBreaker() : GreedyBreaker()
        let breaks = breaker.breakLines(items, lineWidth: { _ in 24 * 16 })
        expectValidBreaks(breaks, items)
        // Map lines back to scalars: box k is scalar k.
        var boxIndex: [Int: Int] = [:]
        var k = 0
        for (i, item) in items.enumerated() where item.isBox {
          boxIndex[i] = k
          k += 1
        }
        for r in LineBreak.lineRanges(breaks, in: items) {
          let boxes = r.compactMap { boxIndex[$0] }
          guard let first = boxes.first, let last = boxes.last else { continue }
          if stats == 0 {
            naive.addLineEdges(first: p[first], last: p[last])
          } else {
            ruled.addLineEdges(first: p[first], last: p[last])
          }
        }
      }
    }
    #expect(naive.kinsokuViolations > 50)  // per-character breaking alone violates often
    #expect(ruled.kinsokuViolations == 0)
  }
}
