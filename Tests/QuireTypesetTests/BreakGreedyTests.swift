import Testing

@testable import QuireTypeset

@Suite struct BreakGreedyTests {
  let greedy = GreedyBreaker()

  @Test func emptyParagraphHasNoBreaks() {
    #expect(greedy.breakLines([], lineWidth: { _ in 100 }).isEmpty)
  }

  @Test func shortParagraphIsOneNaturalLine() {
    let text = "a short line"
    let items = paragraph(text)
    let breaks = greedy.breakLines(items, lineWidth: { _ in 500 })
    #expect(breaks.count == 1)
    #expect(breaks[0].index == items.count - 1)
    #expect(breaks[0].ratio == 0)
    #expect(lineTexts(text, items, breaks) == ["a short line"])
  }

  @Test func firstFitFillsEachLine() {
    // Width 100 = 10 chars. Words: "aaaa bbbb cccc dd" → "aaaa bbbb" (90) then "cccc dd".
    let text = "aaaa bbbb cccc dd"
    let items = paragraph(text)
    let breaks = greedy.breakLines(items, lineWidth: { _ in 100 })
    expectValidBreaks(breaks, items)
    #expect(lineTexts(text, items, breaks) == ["aaaa bbbb", "cccc dd"])
    // First line: natural 90, one glue with stretch 5 → ratio (100−90)/5 = 2.
    #expect(abs(breaks[0].ratio - 2) < 1e-12)
    #expect(breaks[1].ratio == 0)
  }

  @Test func shrinkingLetsMoreFit() {
    // "aaaa bbbb c": natural 110, shrink 2×3 = 6 → 104 > 100, does not fit.
    // "aaa bbb ccc": 110 − 6 = 104 no; "aaa bbbb cc": 10+... use explicit widths.
    let items: [BreakItem] =
      [
        .box(width: 50), .glue(width: 10, stretch: 5, shrink: 6), .box(width: 44),
        .glue(width: 10, stretch: 5, shrink: 6), .box(width: 30),
      ] + BreakItem.paragraphEnd
    let breaks = greedy.breakLines(items, lineWidth: { _ in 100 })
    expectValidBreaks(breaks, items)
    // 50+10+44 = 104 − 6 = 98 fits: line 1 shrinks with ratio (100−104)/6.
    #expect(breaks.map(\.index) == [3, items.count - 1])
    #expect(abs(breaks[0].ratio - (-4.0 / 6.0)) < 1e-12)
  }

  @Test func hyphenatesOnlyWhenLineWouldBeShort() {
    // Line width 200. "aaaaaaaaaaaaaaa" (150) then "hy-phen-ation" (110): the line would be
    // 25 % short, so a hyphen point that fits is taken: "…aaa hy-" = 150+10+20+10 = 190.
    let text = "aaaaaaaaaaaaaaa hy-phen-ation bbb"
    let items = paragraph(text)
    let breaks = greedy.breakLines(items, lineWidth: { _ in 200 })
    expectValidBreaks(breaks, items)
    #expect(lineTexts(text, items, breaks) == ["aaaaaaaaaaaaaaa hy-", "phenation bbb"])
    #expect(breaks[0].hyphenated)
    // Not short (≤ 5 %): 190 of 200 wide line → no hyphen.
    let text2 = "aaaaaaaaaaaaaaaaaa hy-phen-ation"
    let items2 = paragraph(text2)
    let breaks2 = greedy.breakLines(items2, lineWidth: { _ in 190 })
    #expect(lineTexts(text2, items2, breaks2) == ["aaaaaaaaaaaaaaaaaa", "hyphenation"])
    #expect(!breaks2[0].hyphenated)
    // Hyphenation off.
    let off = GreedyBreaker(hyphenate: false).breakLines(items, lineWidth: { _ in 200 })
    #expect(lineTexts(text, items, off) == ["aaaaaaaaaaaaaaa", "hyphenation bbb"])
  }

  @Test func forcedBreaksEndLines() {
    let text = "one two\nthree\n\nfour"
    let items = paragraph(text)
    let breaks = greedy.breakLines(items, lineWidth: { _ in 1000 })
    expectValidBreaks(breaks, items)
    #expect(lineTexts(text, items, breaks) == ["one two", "three", "", "four"])
    #expect(breaks.allSatisfy { $0.ratio == 0 })
  }

  @Test func overfullBoxGetsItsOwnLine() {
    let items: [BreakItem] =
      [
        .box(width: 30), .glue(width: 10, stretch: 5, shrink: 3), .box(width: 250),
        .glue(width: 10, stretch: 5, shrink: 3), .box(width: 30),
      ] + BreakItem.paragraphEnd
    let breaks = greedy.breakLines(items, lineWidth: { _ in 100 })
    expectValidBreaks(breaks, items)
    #expect(breaks.map(\.index) == [1, 3, items.count - 1])
    #expect(breaks[0].ratio == 0 || breaks[0].ratio > 0)
    // The overfull line has no glue inside: nothing to shrink, ratio 0.
    #expect(breaks[1].ratio == 0)
  }

  @Test func variableLineWidths() {
    let text = "aa bb cc dd ee ff gg"
    let items = paragraph(text)
    let breaks = greedy.breakLines(items, lineWidth: { $0 == 0 ? 50 : 80 })
    #expect(lineTexts(text, items, breaks) == ["aa bb", "cc dd ee", "ff gg"])
  }

  @Test func lineRangesExcludeBreakGlueAndIncludeHyphen() {
    let text = "aaaa bbbb cc-dd"
    let items = paragraph(text)
    let breaks = [
      LineBreak(index: 1, ratio: 0, hyphenated: false),
      LineBreak(index: 5, ratio: 0, hyphenated: true),
      LineBreak(index: items.count - 1, ratio: 0, hyphenated: false),
    ]
    let ranges = LineBreak.lineRanges(breaks, in: items)
    #expect(ranges == [0..<1, 2..<6, 6..<items.count])
    #expect(lineTexts(text, items, breaks) == ["aaaa", "bbbb cc-", "dd"])
  }
}

@Suite struct BreakerChoiceTests {
  @Test func optionsChooseBreakers() {
    var o = LayoutOptions()
    #expect(o.paragraphBreaker is KnuthPlassBreaker)
    #expect((o.paragraphBreaker as? KnuthPlassBreaker)?.emergencyStretch == 24)
    o.align = .start
    #expect((o.paragraphBreaker as? KnuthPlassBreaker)?.mode == .ragged(raggedness: 0.2))
    o.lineBreaking = .greedy
    #expect(o.paragraphBreaker is GreedyBreaker)
    o.hyphenate = .off
    #expect((o.paragraphBreaker as? GreedyBreaker)?.hyphenate == false)
    o.lineBreaking = .optimal
    #expect((o.paragraphBreaker as? KnuthPlassBreaker)?.hyphenate == false)
    // With hyphenation off no line ends at a hyphen point.
    let items = paragraph("aaaaaaaaaaaaa hyp-hen-ation-ex-am-ple bbbbbbbbbbbbbb ccc")
    for breaker in [o.paragraphBreaker, KnuthPlassBreaker(hyphenate: false)] {
      let breaks = breaker.breakLines(items, lineWidth: { _ in 200 })
      #expect(breaks.allSatisfy { !$0.hyphenated })
    }
  }
}

/// Pins the sign convention documented on `BreakItem.penalty` (the typeset stage emits
/// raw costs): +forcedBreak forces, −forcedBreak forbids, for every breaker.
@Suite struct BreakConventionTests {
  @Test func rawCostsMeanWhatTheDocSays() {
    let forced: [BreakItem] = [
      .box(width: 10), .glue(width: 0, stretch: .infinity, shrink: 0),
      .penalty(width: 0, cost: BreakItem.forcedBreak, flagged: false), .box(width: 10),
      .glue(width: 5, stretch: 2, shrink: 1),
      .penalty(width: 0, cost: -BreakItem.forcedBreak, flagged: false),
      .glue(width: 5, stretch: 2, shrink: 1), .box(width: 10),
      .glue(width: 0, stretch: .infinity, shrink: 0),
      .penalty(width: 0, cost: BreakItem.forcedBreak, flagged: false),
    ]
    #expect(BreakItem.forcedLineBreak == .penalty(width: 0, cost: 10_000, flagged: false))
    let breakers: [any ParagraphBreaker] = [
      GreedyBreaker(), KnuthPlassBreaker(), KnuthPlassBreaker.ragged(),
    ]
    for b in breakers {
      // Wide enough for everything: only the forced breaks end lines.
      #expect(b.breakLines(forced, lineWidth: { _ in 1000 }).map(\.index) == [2, 9])
      // Too narrow for the second line: it breaks, but never at the forbidding penalty.
      let narrow = b.breakLines(forced, lineWidth: { _ in 20 }).map(\.index)
      #expect(narrow.first == 2 && !narrow.contains(5) && narrow.count > 2)
    }
  }
}
