import CFriBidi
import Foundation
import QuireIngest
import QuireTestSupport
import Testing

@testable import QuireTypeset

private func runs(_ p: BidiParagraph, _ r: Range<Int>? = nil) -> [String] {
  p.visualRuns(lineRange: r ?? 0..<p.count).map {
    "\($0.range.lowerBound)..<\($0.range.upperBound)\($0.rtl ? " rtl" : "")"
  }
}

@Suite struct BidiParagraphTests {
  @Test func pureLTRFastPath() {
    let p = BidiParagraph("Hello, world — “quoted” 123.", baseDirection: nil)
    #expect(p.isPureLTR)
    #expect(p.baseDirection == .ltr)
    #expect(runs(p) == ["0..<28"])
    #expect(p.visualRuns(lineRange: 3..<3).isEmpty)
  }

  @Test func hebrewParagraphResolvesRTL() {
    let p = BidiParagraph("שלום עולם", baseDirection: nil)
    #expect(!p.isPureLTR)
    #expect(p.baseDirection == .rtl)
    #expect(runs(p) == ["0..<9 rtl"])
    #expect(p.visualOrder(lineRange: 0..<4) == [3, 2, 1, 0])
  }

  @Test func arabicWithEmbeddedLatinAndDigits() {
    // م ر ح ب ا ␠ A B C ␠ 1 2 3 ␠ ع ا ل م
    let p = BidiParagraph("مرحبا ABC 123 عالم", baseDirection: nil)
    #expect(p.baseDirection == .rtl)
    #expect(p.level(at: 0) == 1 && p.level(at: 6) == 2 && p.level(at: 10) == 2)
    // W7: the digits follow a Latin strong, so "ABC 123" is one left-to-right run.
    #expect(runs(p) == ["13..<18 rtl", "6..<13", "0..<6 rtl"])
    // The same text broken into two lines: each line is reordered on its own.
    #expect(runs(p, 0..<10) == ["9..<10 rtl", "6..<9", "0..<6 rtl"])
    #expect(runs(p, 10..<18) == ["13..<18 rtl", "10..<13"])
  }

  @Test func arabicWithDigitsOnly() {
    // Digits between Arabic words: level 2, displayed left to right inside the RTL line.
    let p = BidiParagraph("مرحبا 123 عالم", baseDirection: nil)
    #expect(runs(p) == ["9..<14 rtl", "6..<9", "0..<6 rtl"])
    #expect(p.visualOrder(lineRange: 0..<14) == [13, 12, 11, 10, 9, 6, 7, 8, 5, 4, 3, 2, 1, 0])
  }

  @Test func hebrewInsideEnglish() {
    let p = BidiParagraph("abc שלום def", baseDirection: nil)
    #expect(p.baseDirection == .ltr)
    #expect(runs(p) == ["0..<4", "4..<8 rtl", "8..<12"])
    #expect(p.visualOrder(lineRange: 0..<12) == [0, 1, 2, 3, 7, 6, 5, 4, 8, 9, 10, 11])
  }

  @Test func explicitRTLWithLatinAndTrailingSpace() {
    let p = BidiParagraph("abc ", baseDirection: .rtl)
    #expect(p.baseDirection == .rtl)
    // Letters at level 2, the trailing space reset to the paragraph level by L1.
    #expect(runs(p) == ["3..<4 rtl", "0..<3"])
  }

  @Test func explicitLTROverridesFirstStrong() {
    let p = BidiParagraph("שלום abc", baseDirection: .ltr)
    #expect(p.baseDirection == .ltr)
    #expect(runs(p) == ["0..<4 rtl", "4..<8"])
  }

  @Test func bracketPairsFollowTheirContent() {
    // In an RTL paragraph, brackets around Hebrew stay with it (N0), so the whole line is
    // one RTL run.
    let p = BidiParagraph("א (ב) ג", baseDirection: nil)
    #expect(runs(p) == ["0..<7 rtl"])
  }

  @Test func stringAndScalarInitialisersAgree() {
    let text = "abc שלום def"
    let a = BidiParagraph(text: text, baseDirection: nil)
    let b = BidiParagraph(text: Array(text.unicodeScalars), baseDirection: nil)
    #expect(a == b)
  }

  @Test func emptyText() {
    let p = BidiParagraph("", baseDirection: .rtl)
    #expect(p.count == 0)
    #expect(runs(p).isEmpty)
  }
}

/// Every paragraph of the Arabic corpus book, reordered line by line (lines cut every 37
/// scalars), compared with FriBidi's own fribidi_reorder_line (rules L1–L2).
@Suite(
  .enabled(
    if: Corpus.has("regime-anticancer-arabic.epub"), Comment(rawValue: Corpus.missing))
)
struct BidiCorpusTests {
  static func paragraphs() throws -> [String] {
    let doc = try Book.open(
      Corpus.url("regime-anticancer-arabic.epub"))
    var out: [String] = []
    func walk(_ b: Block) {
      var s = ""
      for i in b.inlines {
        if case .text(let run) = i { s += run.text }
      }
      if !s.isEmpty { out.append(s) }
      b.children.forEach(walk)
    }
    for c in doc.chapters { c.blocks.forEach(walk) }
    return out
  }

  @Test func arabicBookMatchesFriBidiReordering() throws {
    let paragraphs = try Self.paragraphs()
    #expect(paragraphs.count > 50)
    var rtlParagraphs = 0
    var mixedLines = 0
    for p in paragraphs {
      let scalars = Array(p.unicodeScalars)
      let bidi = BidiParagraph(text: scalars, baseDirection: nil)
      if bidi.baseDirection == .rtl { rtlParagraphs += 1 }
      // Reference: FriBidi levels + reorder per line.
      let n = scalars.count
      var chars = scalars.map { FriBidiChar($0.value) }
      var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: n)
      var brackets = [FriBidiBracketType](repeating: 0, count: n)
      var levels = [FriBidiLevel](repeating: 0, count: n)
      var par = FRIBIDI_PAR_ON
      fribidi_get_bidi_types(&chars, FriBidiStrIndex(n), &types)
      fribidi_get_bracket_types(&chars, FriBidiStrIndex(n), &types, &brackets)
      _ = fribidi_get_par_embedding_levels_ex(&types, &brackets, FriBidiStrIndex(n), &par, &levels)
      var map = Array(0..<Int32(n))
      var start = 0
      while start < n {
        let end = min(n, start + 37)
        let order = bidi.visualOrder(lineRange: start..<end)
        #expect(order.sorted() == Array(start..<end))
        _ = types.withUnsafeBufferPointer { t in
          levels.withUnsafeMutableBufferPointer { l in
            map.withUnsafeMutableBufferPointer { m in
              fribidi_reorder_line(
                0, t.baseAddress!, FriBidiStrIndex(end - start), FriBidiStrIndex(start), par,
                l.baseAddress!, nil, m.baseAddress!)
            }
          }
        }
        let reference = map[start..<end].map(Int.init)
        #expect(order == reference, "line \(start)..<\(end) of: \(p.prefix(60))")
        if Set(bidi.visualRuns(lineRange: start..<end).map(\.rtl)).count == 2 { mixedLines += 1 }
        start = end
      }
    }
    #expect(rtlParagraphs * 2 > paragraphs.count)
    #expect(mixedLines > 0)
  }
}
