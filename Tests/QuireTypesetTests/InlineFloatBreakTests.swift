// The break stage beside inline floats (Blocks/InlineFloats.swift): breaking resumes at a
// line with the bands of the paragraph's own line numbers, anchors find the item a float's
// source stands before, and a float placed in the middle of a paragraph leaves the lines
// above it their measure and narrows the lines beside it.

import QuireIngest
import Testing

@testable import QuireTypeset

@Suite struct InlineFloatBreakTests {
  /// `count` boxes of 30 px with 10-px glue between them, ended as a paragraph.
  static func words(_ count: Int) -> [BreakItem] {
    var items: [BreakItem] = []
    for k in 0..<count {
      if k > 0 { items.append(.glue(width: 10, stretch: 5, shrink: 3)) }
      items.append(.box(width: 30))
    }
    return items + BreakItem.paragraphEnd
  }

  @Test func resumedBreakingUsesTheParagraphsLineNumbersForBands() {
    let items = Self.words(60)
    var breaking = InlineBreaking(
      breaker: KnuthPlassBreaker(), noWrap: false, firstWidth: 300, width: 300)
    let whole = breaking.lines(items)
    #expect(whole.count >= 6)
    let start = ParagraphMeasure.lineStart(afterBreak: whole[2].index, in: items)
    // Lines 3 and 4 of the paragraph have 200 px cut by a float; breaking from line 3 on
    // must see those bands, not bands 0 and 1.
    breaking.bands =
      Array(repeating: LineBand(inset: 0, cut: 0), count: 3)
      + Array(repeating: LineBand(inset: 0, cut: 200), count: 2)
    let rest = breaking.lines(items, from: start, firstLine: 3, first: false)
    #expect(rest.last?.index == items.count - 1)
    #expect(rest.first.map { $0.index > start } == true)
    let ranges = LineBreak.lineRanges(Array(whole.prefix(3)) + rest, in: items)
    for (k, range) in ranges.enumerated() {
      let m = ParagraphMeasure.measure(range, in: items)
      #expect(m.width - m.shrink <= (k == 3 || k == 4 ? 100 : 300) + 1e-6, "line \(k)")
    }
    #expect(ranges.count > whole.count)  // the narrow lines hold fewer words
  }

  @Test func eachLineSegmentsIndexBandsByTheParagraphsLine() {
    // Two segments of five 30-px words (a forced break between): under `each-line` the
    // second segment's lines are lines 1… of the paragraph, so band 1 applies to its first.
    var items = Array(Self.words(5).dropLast(2)) + [BreakItem.forcedLineBreak]
    items += Self.words(5)
    var breaking = InlineBreaking(
      breaker: GreedyBreaker(hyphenate: false), noWrap: false, firstWidth: 300, width: 300)
    breaking.eachLine = true
    breaking.bands = [.init(inset: 0, cut: 0), .init(inset: 0, cut: 230)]
    let lines = breaking.lines(items)
    // Five words on line 0; two on line 1 (70 px beside the float); three on line 2.
    #expect(lines.count == 3)
    let ranges = LineBreak.lineRanges(lines, in: items)
    let second = ParagraphMeasure.measure(ranges[1], in: items)
    #expect(second.width - second.shrink <= 70 + 1e-6)
  }

  @Test func anchorsAreTheItemsAtOrAfterEachFloatsSource() throws {
    var rig = try InlineRig()
    // Offsets from 100: "alpha " 100–105, "beta " 106–110, "gamma" 111–115.
    let block = InlineRig.block([("alpha beta gamma", InlineRig.style())])
    let (text, _, shaped) = rig.shape(block, width: 400)
    let anchors = ChapterFlow.floatAnchors(
      [100, 106, 108, 111, 999], shaped: shaped, sources: text.sources)
    // The anchor is a word's box, or the letter-spacing glue set just before it.
    func word(_ k: Int) -> String? {
      let p: Int
      switch shaped.sources[k] {
      case .piece(let q), .letter(let q): p = q
      default: return nil
      }
      let piece = shaped.pieces[p]
      return String(
        String.UnicodeScalarView(
          text.scalars[piece.start..<piece.end].compactMap(Unicode.Scalar.init)))
    }
    #expect(word(anchors[0])?.hasPrefix("alpha") == true)
    #expect(word(anchors[1])?.hasPrefix("beta") == true)
    // In the middle of a word: the item after the one holding its source.
    #expect(anchors[2] > anchors[1] && anchors[2] <= anchors[3])
    #expect(word(anchors[3])?.hasPrefix("gamma") == true)
    // Past the text: the paragraph's end (its last line).
    let lastBox = try #require(shaped.items.lastIndex { $0.isBox })
    #expect(anchors[4] > lastBox)
    #expect(anchors == anchors.sorted())
  }

  @Test func aFloatInTheMiddleNarrowsTheLinesFromItsOwnOn() throws {
    var rig = try InlineRig()
    let sentence = "Words of a long paragraph that runs on over a good many lines. "
    let block = InlineRig.block([(String(repeating: sentence, count: 12), InlineRig.style())])
    let (text, _, shaped) = rig.shape(block, width: 400)
    let offset = 100 + sentence.unicodeScalars.count * 6  // the start of the 7th sentence
    let piece = FloatPiece(
      width: 120, height: 60, content: FloatContent(items: [], lines: [], blockBoxes: []))
    let float = PendingFloat(
      piece: piece, side: .right, start: Location(spine: 0, offset: offset),
      end: Location(spine: 0, offset: offset + 1))
    let breaking = InlineBreaking(
      breaker: KnuthPlassBreaker(), noWrap: false, firstWidth: 400, width: 400)
    let out = rig.flow.breakBesideFloats(
      [float], shaped: shaped, sources: text.sources, breaking: breaking, top: 1000,
      lineHeight: 20, left: 50, right: 450)
    #expect(out.breaks.last?.index == shaped.items.count - 1)
    #expect(out.bands.count == out.breaks.count)
    let placed = try #require(out.placed.first)
    #expect(placed.line >= 2)
    #expect(placed.box.top == 1000 + Double(placed.line) * 20)
    #expect(placed.box.right == 450 && placed.box.left == 330)
    // Lines above the float's keep the measure; the three lines beside it (60 px) lose the
    // float's 120 px, and every line fits its room.
    for (k, range) in LineBreak.lineRanges(out.breaks, in: shaped.items).enumerated() {
      let beside = k >= placed.line && k < placed.line + 3
      #expect(out.bands[k].cut == (beside ? 120 : 0), "line \(k)")
      let m = ParagraphMeasure.measure(range, in: shaped.items)
      #expect(m.width - m.shrink <= (beside ? 280 : 400) + 1e-6, "line \(k)")
    }
    // Never above the line holding the content before its source (§9.5.1 rule 6): its line
    // starts before the source, which is on that line or (broken again beside the float)
    // the next.
    let ranges = LineBreak.lineRanges(out.breaks, in: shaped.items)
    let anchor = ChapterFlow.floatAnchors([offset], shaped: shaped, sources: text.sources)[0]
    #expect(ranges[placed.line].lowerBound < anchor)
    #expect(anchor <= out.breaks[placed.line + 1].index)
  }
}

@Suite struct NarrowLineBreakTests {
  @Test func leadingWidthRunsToTheFirstBreakOpportunity() {
    let items: [BreakItem] = [
      .box(width: 30), .box(width: 20), .glue(width: 5, stretch: 2, shrink: 1), .box(width: 40),
      .hyphen(width: 6), .box(width: 50),
    ]
    #expect(ChapterFlow.leadingWidth(items, from: 0) == 50)
    // A hyphen's width counts when the least a line holds ends there.
    #expect(ChapterFlow.leadingWidth(items, from: 3) == 46)
    #expect(ChapterFlow.leadingWidth(items, from: 5) == 50)
  }

  @Test func aLineTooNarrowBesideAFloatMovesBelowIt() throws {
    var rig = try InlineRig()
    // "aa", then a number no pattern hyphenates, wider than the room the float leaves (one
    // word before it, so every breaker sets the number on the second line).
    let text = "aa 314159265358979323846 cc dd ee ff gg hh ii jj kk ll mm nn oo pp"
    let block = InlineRig.block([(text, InlineRig.style())])
    let (collected, _, shaped) = rig.shape(block, width: 400)
    let piece = FloatPiece(
      width: 330, height: 60, content: FloatContent(items: [], lines: [], blockBoxes: []))
    // Floated from the paragraph's start: it stands at the first line's top.
    let float = PendingFloat(
      piece: piece, side: .left, start: Location(spine: 0, offset: 100),
      end: Location(spine: 0, offset: 101))
    let breaking = InlineBreaking(
      breaker: KnuthPlassBreaker(), noWrap: false, firstWidth: 400, width: 400)
    let out = rig.flow.breakBesideFloats(
      [float], shaped: shaped, sources: collected.sources, breaking: breaking, top: 1000,
      lineHeight: 20, left: 50, right: 450)
    let placed = try #require(out.placed.first)
    #expect(placed.line == 0 && placed.box.top == 1000 && placed.box.bottom == 1060)
    // Line 0 holds "aa" in the 70 px beside the float; the number cannot stand in the
    // 70 px of line 1, so line 1 moves to the float's bottom, with the full measure.
    #expect(out.drops.count == 1)
    #expect(out.drops.first?.line == 1 && out.drops.first?.top == 1060)
    #expect(out.lineTop(2, top: 1000, lineHeight: 20) == 1080)
    #expect(out.bands[0].cut == 330 && out.bands[1].cut == 0)
    let ranges = LineBreak.lineRanges(out.breaks, in: shaped.items)
    #expect(ranges.count >= 2)
    for (k, range) in ranges.enumerated() {
      let m = ParagraphMeasure.measure(range, in: shaped.items)
      #expect(m.width - m.shrink <= 400 - out.bands[k].cut + 1e-6, "line \(k)")
    }
    // Without the float's narrowing it would not move: the same words at the full measure.
    var wide = rig.flow
    wide.floatArea = FloatArea()
    let plain = wide.breakBesideFloats(
      [], shaped: shaped, sources: collected.sources, breaking: breaking, top: 1000,
      lineHeight: 20, left: 50, right: 450)
    #expect(plain.drops.isEmpty)
  }

  @Test func aParagraphBesideABlockFloatDropsOnlyTheNarrowLine() throws {
    var rig = try InlineRig()
    let text = "aa 314159265358979323846 cc dd ee ff gg hh ii jj kk ll mm nn oo pp"
    let block = InlineRig.block([(text, InlineRig.style())])
    let (collected, _, shaped) = rig.shape(block, width: 400)
    // A right float placed before the paragraph, 40 px tall: lines 0 and 1 beside it.
    rig.flow.floatArea.add(
      PlacedFloat(side: .right, left: 120, right: 450, top: 1000, bottom: 1040), group: 0)
    let breaking = InlineBreaking(
      breaker: KnuthPlassBreaker(), noWrap: false, firstWidth: 400, width: 400)
    let out = rig.flow.breakBesideFloats(
      [], shaped: shaped, sources: collected.sources, breaking: breaking, top: 1000,
      lineHeight: 20, left: 50, right: 450)
    #expect(out.drops.map(\.line) == [1])
    #expect(out.drops.map(\.top) == [1040])
    #expect(out.bands[0].cut == 330)
  }
}
