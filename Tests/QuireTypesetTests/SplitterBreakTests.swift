import Testing

@testable import QuireTypeset

private func block(_ count: Int, _ id: Int, height: Double = 10) -> [SplitLine] {
  (0..<count).map { _ in SplitLine(height: height, block: id) }
}

/// The break rules of issue #10 on the page splitter, one test per rule.
@Suite struct SplitterBreakTests {
  @Test func headingIsNeverSplitWhenItFitsAPage() {
    // 3 body lines, a 3-line heading (one group), a paragraph; a page holds 5 lines. The
    // heading cannot start on page 1 (it would be split), so it starts page 2 whole.
    var lines = block(3, 0)
    for _ in 0..<3 {
      var h = SplitLine(height: 10, block: 1, group: 3)
      h.orphans = 1
      h.widows = 1
      lines.append(h)
    }
    lines[5].keepWithNext = true
    lines += block(6, 2)
    let pages = PageSplitter().split(lines, pageHeight: 50)
    #expect(pages.first == 0..<3)
    #expect(pages[1].lowerBound == 3 && pages[1].contains(5))
    // Without the group, orphans/widows 1 let the heading split after its 2nd line.
    var loose = lines
    for i in 3..<6 { loose[i].group = nil }
    let split = PageSplitter().split(loose, pageHeight: 50)
    #expect(split.first == 0..<5)
  }

  @Test func headingKeepsTheNextBlocksOrphans() {
    // The paragraph after the heading asks for orphans: 3, so the heading needs 3 of its
    // lines on the same page: heading at line 4 of a 6-line page moves to page 2.
    var lines = block(3, 0)
    lines.append(SplitLine(height: 10, keepWithNext: true, block: 1))
    var para = block(6, 2)
    for i in para.indices { para[i].orphans = 3 }
    lines += para
    #expect(PageSplitter().split(lines, pageHeight: 60).first == 0..<3)
    // With orphans 2 (the default) the heading and two lines fit on page 1.
    var two = lines
    for i in 4..<two.count { two[i].orphans = nil }
    #expect(PageSplitter().split(two, pageHeight: 60).first == 0..<6)
  }

  @Test func headingNotLeftAtThePageFoot() {
    // A heading as the last line that fits: it goes to the next page with its text.
    var lines = block(4, 0)
    lines.append(SplitLine(height: 10, keepWithNext: true, block: 1))
    lines += block(4, 2)
    let pages = PageSplitter().split(lines, pageHeight: 50)
    #expect(pages == [0..<4, 4..<9])
  }

  @Test func cssWidowsAndOrphansAreHonoured() {
    // One paragraph of 10 lines with widows: 3, 4 lines a page: 4, 3, 3.
    var lines = block(10, 0)
    for i in lines.indices { lines[i].widows = 3 }
    #expect(PageSplitter().split(lines, pageHeight: 40) == [0..<4, 4..<7, 7..<10])
    // widows: 1 and orphans: 1 turn the rules off for that block only.
    for i in lines.indices {
      lines[i].widows = 1
      lines[i].orphans = 1
    }
    #expect(PageSplitter().split(lines, pageHeight: 40) == [0..<4, 4..<8, 8..<10])
    // orphans: 3 moves a paragraph whose first two lines would end a page.
    var o = block(2, 0) + block(5, 1)
    for i in 2..<7 { o[i].orphans = 3 }
    #expect(PageSplitter().split(o, pageHeight: 40).first == 0..<2)
  }

  @Test func breakInsideAvoidMovesTheBlockWhole() {
    // A 4-line avoid block after 3 lines, pages of 5: it starts page 2 whole.
    var lines = block(3, 0)
    lines += (0..<4).map { _ in SplitLine(height: 10, block: 1, group: 3) }
    lines += block(2, 2)
    #expect(PageSplitter().split(lines, pageHeight: 50) == [0..<3, 3..<7, 7..<9])
  }

  @Test func tallAvoidBlockStillSplits() {
    // An 8-line avoid block on pages of 5 lines: it starts a page and is cut where it must.
    var lines = block(2, 0)
    lines += (0..<8).map { _ in SplitLine(height: 10, block: 1, group: 2) }
    let pages = PageSplitter().split(lines, pageHeight: 50)
    #expect(pages == [0..<2, 2..<7, 7..<10])
  }

  @Test func cheapestBreakWinsWhenNoAutoBreakFits() {
    // Lines 1...4 all unwanted breaks, costs 4, 1, 4, 4: the page ends before line 2.
    var lines = (0..<6).map { _ in SplitLine(height: 10) }
    lines[1].group = 9
    lines[0].group = 9
    lines[2].breakBefore = .avoid
    lines[3].group = 8
    lines[2].group = 8
    lines[4].group = 8
    let costs = PageSplitter().costs(lines)
    #expect(Array(costs[1...4]) == [4, 1, 4, 4])
    #expect(PageSplitter().split(lines, pageHeight: 45).first == 0..<2)
  }

  @Test func breakAfterAvoidKeepsWithNext() {
    // keepWithNext on an image line (no block after it but an image): the gap after it
    // costs a keep and the image moves with it.
    var lines = block(4, 0)
    lines.append(SplitLine(height: 10, keepWithNext: true))
    lines.append(SplitLine(height: 30))
    #expect(PageSplitter().costs(lines)[5] == PageSplitter.Cost.keepAlone)
    #expect(PageSplitter().split(lines, pageHeight: 60) == [0..<4, 4..<6])
  }

  @Test func aRunOfHeadingsBreaksBeforeTheLastOne() {
    // A page starting with three one-line headings, then text; 3 lines a page: no auto
    // break fits, so the page ends between headings 2 and 3 (heading 3 goes with its text)
    // rather than after heading 3.
    var lines: [SplitLine] = []
    for k in 0..<3 { lines.append(SplitLine(height: 10, keepWithNext: true, block: k)) }
    lines += block(4, 3)
    #expect(PageSplitter().split(lines, pageHeight: 30).first == 0..<2)
  }

  @Test func forcedBreaksStayForcedWhateverTheKeeps() {
    var lines = block(2, 0)
    lines[1].keepWithNext = true
    lines.append(SplitLine(height: 10, breakBefore: .always, block: 1, group: 1))
    #expect(PageSplitter().costs(lines)[2] == PageSplitter.Cost.always)
    #expect(PageSplitter().split(lines, pageHeight: 100) == [0..<2, 2..<3])
  }
}
