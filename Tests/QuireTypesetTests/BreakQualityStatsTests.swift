import Testing

@testable import QuireTypeset

@Suite struct BreakQualityStatsTests {
  @Test func countsLinesHyphensAndSpacing() {
    var stats = LineQualityStats()
    // Glue 10 px with stretch 5 (factor 0.5): ratio 1.2 → spaces ×1.6; ratio 2.5 → ×2.25.
    stats.addLine(ratio: 0.2, hyphenated: true, spaceStretchFactor: 0.5, isLast: false)
    stats.addLine(ratio: 1.2, hyphenated: true, spaceStretchFactor: 0.5, isLast: false)
    stats.addLine(ratio: 2.5, hyphenated: true, spaceStretchFactor: 0.5, isLast: false)
    stats.addLine(ratio: -0.7, hyphenated: false, spaceStretchFactor: 0.5, isLast: false)
    stats.addLine(ratio: 0, hyphenated: false, spaceStretchFactor: 0.5, isLast: true)
    #expect(stats.lines == 5 && stats.lastLines == 1)
    #expect(stats.hyphenatedLines == 3)
    #expect(abs(stats.hyphenatedShare - 0.6) < 1e-12)
    #expect(stats.longestHyphenRun == 3)
    #expect(stats.hyphenRuns[2] == 1)
    #expect(stats.linesWithSpacesOver150 == 2)
    #expect(stats.linesWithSpacesOver200 == 1)
    #expect(stats.ratioHistogram == [1, 0, 1, 0, 1, 0, 1, 0])
    #expect(stats.summary.contains("hyphenated 3 (60.0%)"))
  }

  @Test func paragraphFromBreaker() {
    let text = "hello a dogs I a jumping brown fox"
    let items = paragraph(text)
    let breaks = GreedyBreaker().breakLines(items, lineWidth: { _ in 150 })
    var stats = LineQualityStats()
    stats.addParagraph(breaks, items: items)
    #expect(stats.paragraphs == 1 && stats.lines == 3 && stats.lastLines == 1)
    // Line 2 has ratio 4 with factor 0.5: spaces ×3.
    #expect(stats.linesWithSpacesOver200 == 1)
    var kp = LineQualityStats()
    kp.addParagraph(KnuthPlassBreaker().breakLines(items, lineWidth: { _ in 150 }), items: items)
    #expect(kp.linesWithSpacesOver150 == 0)
    stats.merge(kp)
    #expect(stats.lines == 6 && stats.paragraphs == 2)
  }

  @Test func widowsOrphansAndKinsoku() {
    let lines =
      (0..<3).map { _ in SplitLine(height: 10, block: 0) }
      + (0..<3).map { _ in SplitLine(height: 10, block: 1) }
    var stats = LineQualityStats()
    // Page 2 starts with block 0's last line (widow) and ends with block 1's first (orphan).
    stats.addPages([0..<2, 2..<4, 4..<6], lines: lines)
    #expect(stats.widows == 1 && stats.orphans == 1)
    stats.addLineEdges(first: "。", last: "「")
    stats.addLineEdges(first: "漢", last: "。")
    #expect(stats.kinsokuViolations == 2)
  }
}
