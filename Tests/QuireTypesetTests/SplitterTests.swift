import QuireCore
import QuireTestSupport
import Testing

@testable import QuireTypeset

private func paragraphLines(_ count: Int, block: Int, height: Double = 10) -> [SplitLine] {
  (0..<count).map { _ in SplitLine(height: height, block: block) }
}

@Suite struct SplitterTests {
  @Test func fillsPagesWithoutRules() {
    let lines = (0..<10).map { _ in SplitLine(height: 10) }
    let pages = PageSplitter().split(lines, pageHeight: 35)
    #expect(pages == [0..<3, 3..<6, 6..<9, 9..<10])
    #expect(PageSplitter().split([], pageHeight: 35).isEmpty)
  }

  @Test func widowIsAvoidedByBreakingEarlier() {
    // One paragraph of 10 lines, 3 per page: the last page would hold a single line.
    let pages = PageSplitter(orphans: 2, widows: 2).split(
      paragraphLines(10, block: 0), pageHeight: 35)
    #expect(pages == [0..<3, 3..<6, 6..<8, 8..<10])
  }

  @Test func orphanMovesParagraphStart() {
    // A 2-line paragraph then a 5-line paragraph, page of 3 lines: the second paragraph's
    // first line alone at the bottom of page 1 would be an orphan.
    let lines = paragraphLines(2, block: 0) + paragraphLines(5, block: 1)
    let pages = PageSplitter().split(lines, pageHeight: 30)
    #expect(pages == [0..<2, 2..<5, 5..<7])
    // orphans 1 / widows 1 turns the rules off.
    let plain = PageSplitter(orphans: 1, widows: 1).split(lines, pageHeight: 30)
    #expect(plain == [0..<3, 3..<6, 6..<7])
  }

  @Test func headingKeepsWithTwoLines() {
    // 3 body lines, a heading, then a 4-line paragraph; a page holds 5 lines.
    var lines = paragraphLines(3, block: 0)
    lines.append(SplitLine(height: 10, keepWithNext: true, block: 1))
    lines += paragraphLines(4, block: 2)
    let pages = PageSplitter().split(lines, pageHeight: 50)
    // Heading + 1 line would fit on page 1 but the heading needs two lines after it.
    #expect(pages == [0..<3, 3..<8])
  }

  @Test func figureStaysWithCaption() {
    var lines = paragraphLines(3, block: 0)
    lines.append(SplitLine(height: 40, advance: 45, group: 7))  // image
    lines.append(SplitLine(height: 10, block: 2, group: 7))  // caption line
    lines += paragraphLines(2, block: 3)
    let pages = PageSplitter().split(lines, pageHeight: 80)
    // 3 lines (30) + figure (45 advance, 40 tall) = 70 fits; caption would end at 85.
    #expect(pages == [0..<3, 3..<7])
  }

  @Test func forcedBreaksStartPages() {
    var lines = paragraphLines(2, block: 0)
    lines.append(SplitLine(height: 10, breakBefore: .always, block: 1))
    lines.append(SplitLine(height: 10, breakBefore: .always, block: 2))
    let pages = PageSplitter().split(lines, pageHeight: 100)
    #expect(pages == [0..<2, 2..<3, 3..<4])
  }

  @Test func tallLineGetsItsOwnPage() {
    let lines = [SplitLine(height: 10), SplitLine(height: 500), SplitLine(height: 10)]
    let pages = PageSplitter().split(lines, pageHeight: 100)
    #expect(pages == [0..<1, 1..<2, 2..<3])
  }

  @Test func avoidIsIgnoredWhenNothingElseFits() {
    // A keep-together group taller than a page must still be split.
    let lines = (0..<12).map { _ in SplitLine(height: 10, group: 1) }
    let pages = PageSplitter().split(lines, pageHeight: 50)
    #expect(pages == [0..<5, 5..<10, 10..<12])
  }

  @Test func gapsReflectRules() {
    let lines = paragraphLines(6, block: 0)
    let gaps = PageSplitter(orphans: 3, widows: 2).gaps(lines)
    #expect(gaps == [.auto, .avoid, .avoid, .auto, .auto, .avoid])
  }

  @Test func randomLinesProperty() {
    var rng = SplitMix64(seed: 99)
    for trial in 0..<400 {
      let n = Int.random(in: 0...80, using: &rng)
      var lines: [SplitLine] = []
      var block = 0
      while lines.count < n {
        let count = Int.random(in: 1...8, using: &rng)
        let heading = Int.random(in: 0..<6, using: &rng) == 0
        let group: Int? = Int.random(in: 0..<8, using: &rng) == 0 ? block : nil
        for k in 0..<count where lines.count < n {
          let h = Double.random(
            in: 5...(Int.random(in: 0..<30, using: &rng) == 0 ? 300 : 30), using: &rng)
          let brk: SplitLine.BreakBefore =
            k == 0 && Int.random(in: 0..<10, using: &rng) == 0
            ? .always : (Int.random(in: 0..<10, using: &rng) == 0 ? .avoid : .auto)
          lines.append(
            SplitLine(
              height: h, advance: h + Double.random(in: 0...8, using: &rng), breakBefore: brk,
              keepWithNext: heading, block: block, group: group))
        }
        block += 1
      }
      let pageHeight = Double.random(in: 40...250, using: &rng)
      let splitter = PageSplitter(
        orphans: Int.random(in: 1...3, using: &rng), widows: Int.random(in: 1...3, using: &rng))
      let pages = splitter.split(lines, pageHeight: pageHeight)
      // Every line exactly once, in order, no empty page.
      var next = 0
      for p in pages {
        #expect(p.lowerBound == next && !p.isEmpty, "trial \(trial)")
        next = p.upperBound
        // No overflow unless a single line is taller than the page.
        var used = 0.0
        for i in p {
          used = (i == p.upperBound - 1) ? used + lines[i].height : used + lines[i].advance
        }
        #expect(used <= pageHeight + 1e-9 || (p.count == 1), "trial \(trial) page \(p)")
      }
      #expect(next == lines.count)
      // Forced breaks start pages.
      let starts = Set(pages.map(\.lowerBound))
      for (i, l) in lines.enumerated() where l.breakBefore == .always {
        #expect(starts.contains(i))
      }
    }
  }
}

/// Pride and Prejudice broken into lines by Knuth–Plass, then into pages: no widows or
/// orphans remain (the rules can always be met with 2/2 on pages of 30+ lines), every
/// page fits, and the naive splitter (rules off) does leave some.
@Suite(.enabled(if: PrideCorpus.available, Comment(rawValue: Corpus.missing)))
struct SplitterCorpusTests {
  @Test func prideAndPrejudicePages() throws {
    let h = try #require(Hyphenator.forLanguage("en"))
    var lines: [SplitLine] = []
    for (k, p) in PrideCorpus.paragraphs(400).enumerated() {
      let (items, _) = PrideCorpus.items(p, hyphenator: h)
      let breaks = KnuthPlassBreaker().breakLines(items, lineWidth: { _ in 480 })
      for (j, _) in breaks.enumerated() {
        let last = j == breaks.count - 1
        lines.append(SplitLine(height: 22, advance: last ? 30 : 22, block: k))
      }
    }
    let pageHeight = 700.0
    let pages = PageSplitter().split(lines, pageHeight: pageHeight)
    var stats = LineQualityStats()
    stats.addPages(pages, lines: lines)
    #expect(stats.widows == 0 && stats.orphans == 0)
    #expect(pages.first?.lowerBound == 0 && pages.last?.upperBound == lines.count)
    for p in pages {
      let used = lines[p].dropLast().reduce(0) { $0 + $1.advance } + lines[p.upperBound - 1].height
      #expect(used <= pageHeight)
      if p != pages.last { #expect(p.count >= 20, "\(p)") }  // pages stay reasonably full
    }
    var naive = LineQualityStats()
    naive.addPages(
      PageSplitter(orphans: 1, widows: 1).split(lines, pageHeight: pageHeight), lines: lines)
    #expect(naive.widows + naive.orphans > 0)
  }
}

@Suite struct SplitterHostileTests {
  @Test func absurdHeightsTerminate() {
    let values: [Double] = [.nan, .infinity, -.infinity, -5, 0, 1e300, 10]
    var lines: [SplitLine] = []
    for i in 0..<200 {
      lines.append(
        SplitLine(
          height: values[i % values.count], advance: values[(i / 7) % values.count],
          breakBefore: i % 13 == 0 ? .always : (i % 3 == 0 ? .avoid : .auto),
          keepWithNext: i % 5 == 0, block: i / 4, group: i % 11 == 0 ? 1 : nil))
    }
    for height in [Double.nan, 0, -10, .infinity, 100] {
      let pages = PageSplitter().split(lines, pageHeight: height)
      #expect(pages.first?.lowerBound == 0 && pages.last?.upperBound == lines.count)
      #expect(zip(pages, pages.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
      #expect(pages.allSatisfy { !$0.isEmpty })
    }
  }
}

@Suite struct SplitterHyphenTests {
  /// 20 lines of one paragraph, 5 per page; line 4 (the 5th, last of page 1) is hyphenated.
  static func lines(hyphenated: Set<Int>) -> [SplitLine] {
    (0..<20).map { SplitLine(height: 10, block: 0, hyphenated: hyphenated.contains($0)) }
  }

  @Test func pageDoesNotEndWithAHyphen() {
    let pages = PageSplitter().split(Self.lines(hyphenated: [4]), pageHeight: 50)
    #expect(pages.first == 0..<4)
    #expect(
      !pages.dropLast().contains { Self.lines(hyphenated: [4])[$0.upperBound - 1].hyphenated })
    // Without the rule the page is full and ends with the hyphen.
    let plain = PageSplitter(hyphenSlack: 0).split(Self.lines(hyphenated: [4]), pageHeight: 50)
    #expect(plain.first == 0..<5)
  }

  @Test func hyphenKeptWhenTheEarlierLineIsHyphenatedToo() {
    // Lines 3 and 4 both hyphenated: one line of slack cannot help, the page stays full.
    let pages = PageSplitter().split(Self.lines(hyphenated: [3, 4]), pageHeight: 50)
    #expect(pages.first == 0..<5)
  }

  @Test func hyphenRuleRespectsOrphans() {
    // Paragraph A of 3 lines then B; page of 5 lines ends after B's 2nd line (hyphenated):
    // ending one line earlier would leave B's first line as an orphan, so the page ends
    // before B instead only if that is within the slack — it is not, so it stays.
    var lines = (0..<3).map { _ in SplitLine(height: 10, block: 0) }
    lines += (0..<6).map { SplitLine(height: 10, block: 1, hyphenated: $0 == 1) }
    let pages = PageSplitter().split(lines, pageHeight: 50)
    #expect(pages.first == 0..<5)
  }
}
