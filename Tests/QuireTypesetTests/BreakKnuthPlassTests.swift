import QuireCore
import Testing

@testable import QuireTypeset

@Suite struct BreakKnuthPlassTests {
  let kp = KnuthPlassBreaker()

  @Test func fixesTheLooseLineGreedyLeaves() {
    // Width 150 px, 10 px per character, spaces 10 (+5 −3).
    let text = "hello a dogs I a jumping brown fox"
    let items = paragraph(text)
    let greedy = GreedyBreaker().breakLines(items, lineWidth: { _ in 150 })
    #expect(lineTexts(text, items, greedy) == ["hello a dogs I a", "jumping brown", "fox"])
    #expect(greedy[1].ratio == 4)  // 20 px short with one space of stretch 5
    let best = kp.breakLines(items, lineWidth: { _ in 150 })
    expectValidBreaks(best, items)
    #expect(lineTexts(text, items, best) == ["hello a dogs I", "a jumping brown", "fox"])
    #expect(best.map(\.ratio) == [10.0 / 15.0, 0, 0])
  }

  @Test func emptyAndSingleLine() {
    #expect(kp.breakLines([], lineWidth: { _ in 100 }).isEmpty)
    let items = paragraph("one line")
    let b = kp.breakLines(items, lineWidth: { _ in 500 })
    #expect(b == [LineBreak(index: items.count - 1, ratio: 0, hyphenated: false)])
  }

  @Test func forcedBreaks() {
    let text = "one two\nthree four five six seven eight\n\nnine"
    let items = paragraph(text)
    let b = kp.breakLines(items, lineWidth: { _ in 120 })
    expectValidBreaks(b, items)
    let lines = lineTexts(text, items, b)
    #expect(lines.first == "one two")
    #expect(lines.last == "nine")
    #expect(lines.contains(""))
  }

  @Test func overfullBoxStillBreaks() {
    let items: [BreakItem] =
      [
        .box(width: 30), .glue(width: 10, stretch: 5, shrink: 3), .box(width: 250),
        .glue(width: 10, stretch: 5, shrink: 3), .box(width: 30),
      ] + BreakItem.paragraphEnd
    let b = kp.breakLines(items, lineWidth: { _ in 100 })
    expectValidBreaks(b, items)
    #expect(b.map(\.index) == [1, 3, items.count - 1])
  }

  @Test func usesHyphensOnlyWhenNeeded() {
    // Fits without hyphens in pass 1: no hyphen taken.
    let text = "aaaa bb-bb cccc dd-dd eeee"
    let items = paragraph(text)
    let b = kp.breakLines(items, lineWidth: { _ in 140 })
    expectValidBreaks(b, items)
    #expect(b.allSatisfy { !$0.hyphenated })
    // A narrow measure with long words needs them.
    let text2 = "aaaaaaaaaaaaa hyp-hen-ation-ex-am-ple bbbbbbbbbbbbbb ccc"
    let items2 = paragraph(text2)
    let b2 = kp.breakLines(items2, lineWidth: { _ in 200 })
    expectValidBreaks(b2, items2)
    #expect(b2.contains { $0.hyphenated })
  }

  @Test func atMostTwoConsecutiveHyphenatedLines() {
    // Every word is 12 characters with hyphen points every 3; the measure is such that
    // hyphenating is always attractive.
    let word = "abc-def-ghi-jkl"
    let text = Array(repeating: word, count: 30).joined(separator: " ")
    let items = paragraph(text)
    for width in stride(from: 170.0, through: 260, by: 15) {
      let b = kp.breakLines(items, lineWidth: { _ in width })
      expectValidBreaks(b, items)
      var run = 0
      var longest = 0
      for x in b {
        run = x.hyphenated ? run + 1 : 0
        longest = max(longest, run)
      }
      #expect(longest <= 2, "width \(width)")
      let one = KnuthPlassBreaker(maxConsecutiveHyphens: 1).breakLines(
        items, lineWidth: { _ in width })
      run = 0
      longest = 0
      for x in one {
        run = x.hyphenated ? run + 1 : 0
        longest = max(longest, run)
      }
      #expect(longest <= 1, "width \(width)")
    }
  }

  @Test func hyphenLimitYieldsWhenNothingElseWorks() {
    // Three long words that only fit hyphenated, in a measure with no stretch to spare.
    let items: [BreakItem] =
      [
        .box(width: 50), .hyphen(width: 5), .box(width: 50), .hyphen(width: 5), .box(width: 50),
        .hyphen(width: 5), .box(width: 50),
      ] + BreakItem.paragraphEnd
    let b = KnuthPlassBreaker(maxConsecutiveHyphens: 1).breakLines(items, lineWidth: { _ in 55 })
    expectValidBreaks(b, items)
    #expect(b.filter(\.hyphenated).count == 3)
  }

  @Test func firstLineIndentWidths() {
    let text = "aa bb cc dd ee ff gg hh ii jj kk ll"
    let items = paragraph(text)
    let b = kp.breakLines(items, lineWidth: { $0 == 0 ? 60 : 110 })
    expectValidBreaks(b, items)
    let ranges = LineBreak.lineRanges(b, in: items)
    for (k, (r, x)) in zip(ranges, b).enumerated().dropLast() {
      let w = ParagraphMeasure.setWidth(r, in: items, ratio: x.ratio)
      #expect(abs(w - (k == 0 ? 60 : 110)) < 1e-6)
    }
  }

  @Test func loosenessAddsALine() {
    let text = "the quick brown fox jumps over the lazy dog and keeps on running far away"
    let items = paragraph(text, space: (10, 10, 3))
    let normal = kp.breakLines(items, lineWidth: { _ in 250 })
    let loose = KnuthPlassBreaker(tolerance: 5, looseness: 1).breakLines(
      items, lineWidth: { _ in 250 })
    expectValidBreaks(loose, items)
    #expect(loose.count == normal.count + 1)
  }

  @Test func raggedModeDoesNotStretch() {
    let text = "hello a dogs I a jumping brown fox and some more words to fill lines"
    let items = paragraph(text)
    let b = KnuthPlassBreaker.ragged().breakLines(items, lineWidth: { _ in 150 })
    expectValidBreaks(b, items)
    #expect(b.allSatisfy { $0.ratio == 0 })
    let ranges = LineBreak.lineRanges(b, in: items)
    for r in ranges {
      #expect(ParagraphMeasure.measure(r, in: items).width <= 150)
    }
    // Ragged prefers even lines: the greedy "jumping brown" line (130 of 150) is kept
    // away from a very short one.
    let widths = ranges.dropLast().map { ParagraphMeasure.measure($0, in: items).width }
    #expect(widths.allSatisfy { $0 >= 100 })
  }

  @Test func deterministic() {
    let text =
      "Lorem ipsum dolor sit amet, con-sec-te-tur adi-pis-cing elit, sed do eius-mod tem-por in-ci-di-dunt ut la-bo-re et do-lo-re mag-na ali-qua."
    let items = paragraph(text, charWidth: 7.3, space: (4.1, 2.05, 1.37))
    let a = kp.breakLines(items, lineWidth: { _ in 210 })
    for _ in 0..<5 { #expect(kp.breakLines(items, lineWidth: { _ in 210 }) == a) }
  }

  @Test func randomParagraphsProperty() {
    var rng = SplitMix64(seed: 2024)
    let breakers: [(String, any ParagraphBreaker)] = [
      ("kp", KnuthPlassBreaker()), ("greedy", GreedyBreaker()),
      ("ragged", KnuthPlassBreaker.ragged()),
      ("tight", KnuthPlassBreaker(tolerance: 0.5, pretolerance: -1)),
    ]
    for trial in 0..<120 {
      var items: [BreakItem] = []
      let words = Int.random(in: 0...80, using: &rng)
      for w in 0..<words {
        if w > 0 {
          let u = Double.random(in: 3...6, using: &rng)
          items.append(.glue(width: u, stretch: u / 2, shrink: u / 3))
        }
        let parts = Int.random(in: 1...4, using: &rng)
        for p in 0..<parts {
          if p > 0 { items.append(.hyphen(width: 4)) }
          items.append(.box(width: Double.random(in: 5...60, using: &rng)))
        }
        if Int.random(in: 0..<60, using: &rng) == 0 { items += BreakItem.paragraphEnd }
      }
      items += BreakItem.paragraphEnd
      let width = Double.random(in: 80...400, using: &rng)
      let indent = Double.random(in: 0...30, using: &rng)
      let lineWidth: (Int) -> Double = { $0 == 0 ? width - indent : width }
      for (name, breaker) in breakers {
        let b = breaker.breakLines(items, lineWidth: lineWidth)
        expectValidBreaks(b, items)
        let ranges = LineBreak.lineRanges(b, in: items)
        for (k, (r, x)) in zip(ranges, b).enumerated() {
          let m = ParagraphMeasure.measure(r, in: items)
          let natural = x.index == items.count - 1 || items[x.index].isForcedBreak
          let target = lineWidth(k)
          // Justified, feasible, non-last lines are set exactly to the measure.
          if name != "ragged", !natural, m.width - m.shrink <= target,
            m.stretch > 0 || m.width >= target
          {
            let set = ParagraphMeasure.setWidth(r, in: items, ratio: x.ratio)
            #expect(abs(set - target) < 1e-6, "trial \(trial) \(name) line \(k)")
          }
          if name == "ragged" { #expect(x.ratio <= 0) }
        }
      }
    }
  }

  /// Exhaustive search over every breaking of small paragraphs (no hyphens): when some
  /// breaking has all lines within the first pass's tolerance, Knuth–Plass must find one
  /// with the minimum total demerits.
  @Test func matchesExhaustiveSearchOnSmallParagraphs() {
    var rng = SplitMix64(seed: 5)
    var compared = 0
    for _ in 0..<600 {
      var items: [BreakItem] = []
      for w in 0..<Int.random(in: 3...11, using: &rng) {
        if w > 0 { items.append(.glue(width: 6, stretch: 6, shrink: 2)) }
        items.append(.box(width: Double(Int.random(in: 2...9, using: &rng) * 7)))
      }
      items += BreakItem.paragraphEnd
      let width = Double(Int.random(in: 60...160, using: &rng))
      let sums = ParagraphSums(items)
      func ratio(_ s: Int, _ e: Int) -> Double { sums.line(from: s, to: e).rawRatio(width) }
      func fitness(_ r: Double) -> Int { r < -0.5 ? 0 : r <= 0.5 ? 1 : r <= 1 ? 2 : 3 }
      var best = Double.infinity
      func search(_ start: Int, _ prevFit: Int, _ total: Double) {
        for e in start..<items.count where ParagraphMeasure.isLegalBreak(e, in: items) {
          let r = ratio(start, e)
          if r < -1 { break }
          guard r <= 1 else { continue }
          let b = 100 * abs(r * r * r)
          var d = (10 + b) * (10 + b)
          let f = fitness(r)
          if abs(f - prevFit) > 1 { d += 3000 }
          if e == items.count - 1 || items[e].isForcedBreak {
            if e == items.count - 1 { best = min(best, total + d) }
            continue
          }
          search(ParagraphMeasure.lineStart(afterBreak: e, in: items), f, total + d)
        }
      }
      search(0, 1, 0)
      guard best.isFinite else { continue }
      compared += 1
      let breaks = kp.breakLines(items, lineWidth: { _ in width })
      var total = 0.0
      var prevFit = 1
      var start = 0
      for b in breaks {
        let r = ratio(start, b.index)
        let bad = 100 * abs(r * r * r)
        total += (10 + bad) * (10 + bad) + (abs(fitness(r) - prevFit) > 1 ? 3000 : 0)
        prevFit = fitness(r)
        start = ParagraphMeasure.lineStart(afterBreak: b.index, in: items)
      }
      #expect(abs(total - best) <= 1e-6 * max(1, best), "\(items) width \(width)")
    }
    #expect(compared > 100)
  }
}

@Suite struct BreakHostileInputTests {
  /// `ParagraphSums.size` (two comparisons in range) clamps exactly as the plain formula
  /// does, bit for bit: NaN to 0, the ends of ±10⁷ and past them, −0, subnormals.
  @Test func sizeClampsAsThePlainFormula() {
    let values: [Double] = [
      .nan, -.nan, .infinity, -.infinity, 1e7, -1e7, 1e7.nextUp, (-1e7).nextDown, 1e7.nextDown,
      (-1e7).nextUp, 0, -0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 1e300, -1e300,
      12.5, -50, .greatestFiniteMagnitude,
    ]
    for x in values {
      let plain = x.isNaN ? 0 : max(-1e7, min(1e7, x))
      #expect(ParagraphSums.size(x).bitPattern == plain.bitPattern, "size(\(x))")
    }
  }

  /// NaN, infinite and negative sizes and line widths must not crash, hang or produce
  /// invalid breaks; ratios stay finite.
  @Test func absurdNumbersStillBreak() {
    let values: [Double] = [.nan, .infinity, -.infinity, -50, 0, 1e300, 12]
    var rng = SplitMix64(seed: 11)
    let breakers: [any ParagraphBreaker] = [
      KnuthPlassBreaker(), GreedyBreaker(), KnuthPlassBreaker.ragged(),
    ]
    for _ in 0..<60 {
      var items: [BreakItem] = []
      for w in 0..<Int.random(in: 1...30, using: &rng) {
        if w > 0 {
          items.append(
            .glue(
              width: values.randomElement(using: &rng)!,
              stretch: values.randomElement(using: &rng)!,
              shrink: values.randomElement(using: &rng)!))
        }
        items.append(.box(width: values.randomElement(using: &rng)!))
        if Bool.random(using: &rng) {
          items.append(.hyphen(width: values.randomElement(using: &rng)!))
        }
      }
      items += BreakItem.paragraphEnd
      let width = values.randomElement(using: &rng)!
      for b in breakers {
        let breaks = b.breakLines(items, lineWidth: { _ in width })
        expectValidBreaks(breaks, items)
        #expect(breaks.allSatisfy { $0.ratio.isFinite })
      }
    }
  }
}
