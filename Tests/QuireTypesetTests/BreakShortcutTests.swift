import QuireCore
import Testing

@testable import QuireTypeset

/// The line breaking's shortcuts (session 17) give the general path's answers: the two-width
/// breaking against the closure, the sums' forward `nextStart` and legal-break walk against
/// `ParagraphMeasure`, and the wide-run check against the walk `splitWideRuns` makes.
@Suite struct BreakShortcutTests {
  /// Random paragraphs: words, glue, hyphen points, forced and forbidding penalties, and
  /// (when `hostile`) NaN, infinite, zero and negative sizes and costs.
  static func items(_ rng: inout SplitMix64, hostile: Bool) -> [BreakItem] {
    let odd: [Double] = [.nan, .infinity, -.infinity, 0, -7, 1e300]
    func size(_ plain: Double) -> Double {
      hostile && Int.random(in: 0..<8, using: &rng) == 0
        ? odd[Int.random(in: 0..<odd.count, using: &rng)] : plain
    }
    var items: [BreakItem] = []
    for _ in 0..<Int.random(in: 1...160, using: &rng) {
      switch Int.random(in: 0..<10, using: &rng) {
      case 0..<4: items.append(.box(width: size(Double(Int.random(in: 5...60, using: &rng)))))
      case 4..<7: items.append(.glue(width: size(8), stretch: size(4), shrink: size(2)))
      case 7: items.append(.hyphen(width: size(6)))
      case 8:
        let costs: [Double] = [50, -30, BreakItem.forcedBreak, -BreakItem.forcedBreak, .nan]
        let cost = costs[Int.random(in: 0..<(hostile ? 5 : 4), using: &rng)]
        items.append(.penalty(width: size(0), cost: cost, flagged: false))
      default: items.append(.glue(width: 0, stretch: .infinity, shrink: 0))
      }
    }
    if Bool.random(using: &rng) { items += BreakItem.paragraphEnd }
    return items
  }

  @Test func twoWidthsBreakAsTheClosure() {
    var rng = SplitMix64(seed: 17)
    let breakers: [any ParagraphBreaker] = [
      KnuthPlassBreaker(), KnuthPlassBreaker.ragged(), KnuthPlassBreaker(looseness: 1),
      KnuthPlassBreaker(looseness: -1), KnuthPlassBreaker(pretolerance: -1, hyphenate: false),
      KnuthPlassBreaker(emergencyStretch: 20), GreedyBreaker(),
    ]
    let widths: [Double] = [300, 120, 45, 8, 0, -20, .nan, .infinity]
    for round in 0..<400 {
      let items = Self.items(&rng, hostile: round % 3 == 0)
      let first = widths[Int.random(in: 0..<widths.count, using: &rng)]
      // Equal widths half the time (no first-line indent), and lines past the 65 probed.
      let rest = Bool.random(using: &rng) ? first : widths[round % 4]
      for breaker in breakers {
        let general = breaker.breakLines(items) { k in k == 0 ? first : rest }
        let shortcut = breaker.breakLines(items, firstWidth: first, width: rest)
        #expect(shortcut == general, "\(breaker) \(first)/\(rest) \(items)")
      }
    }
    // Hundreds of lines: widths beyond the cached ones.
    let word: [BreakItem] = [.box(width: 30), .glue(width: 8, stretch: 4, shrink: 2)]
    let long = Array(repeating: word, count: 400).flatMap { $0 } + BreakItem.paragraphEnd
    let pairs: [(Double, Double)] = [(60, 80), (80, 80), (.nan, 70)]
    for (first, rest) in pairs {
      let general = KnuthPlassBreaker().breakLines(long) { k in k == 0 ? first : rest }
      #expect(general.count > 100)
      #expect(KnuthPlassBreaker().breakLines(long, firstWidth: first, width: rest) == general)
    }
  }

  @Test func sumsWalkAsTheMeasure() {
    var rng = SplitMix64(seed: 23)
    for round in 0..<500 {
      let items = Self.items(&rng, hostile: round % 2 == 0)
      let sums = ParagraphSums(items)
      for i in items.indices {
        #expect(sums.isLegalBreak(i) == ParagraphMeasure.isLegalBreak(i, in: items))
        #expect(sums.nextStart(i) == ParagraphMeasure.lineStart(afterBreak: i, in: items))
        let next = (i..<items.count).first { ParagraphMeasure.isLegalBreak($0, in: items) }
        #expect(sums.legalBreak(from: i) == next)
      }
      #expect(sums.endsParagraphOrForced(items.count - 1))
    }
  }

  /// The walk `splitWideRuns` makes before it inserts anything, written plainly.
  static func plainWideRun(_ items: [BreakItem], measure: Double, flaggedBreaks: Bool) -> Bool {
    var width = 0.0
    for i in items.indices {
      var legal = ParagraphMeasure.isLegalBreak(i, in: items)
      if legal, !flaggedBreaks, case .penalty(_, _, true) = items[i] { legal = false }
      if legal {
        var total = width
        if case .penalty(let w, _, _) = items[i] { total += w }
        if total > measure + 1e-6 { return true }
        width = 0
      } else {
        width += items[i].naturalWidth
      }
    }
    return false
  }

  @Test func wideRunCheckAsTheWalk() {
    var rng = SplitMix64(seed: 29)
    var wide = 0
    var narrow = 0
    for round in 0..<1500 {
      let items = Self.items(&rng, hostile: round % 3 == 0)
      let measures: [Double] = [40, 60, 75, 120, 1000, 0, -5, .nan, .infinity]
      let measure = measures[Int.random(in: 0..<measures.count, using: &rng)]
      for flagged in [true, false] {
        let plain = Self.plainWideRun(items, measure: measure, flaggedBreaks: flagged)
        let fast = EmergencyBreaks.hasWideRun(items, measure: measure, flaggedBreaks: flagged)
        #expect(fast == plain, "\(measure) \(flagged) \(items)")
        if plain { wide += 1 } else { narrow += 1 }
      }
    }
    // Edge cases: the last item (a box, a flagged penalty with and without flagged breaks).
    let box: [BreakItem] = [.box(width: 50), .box(width: 50)]
    let hyphenEnd: [BreakItem] = [.box(width: 50), .hyphen(width: 30)]
    let cases: [([BreakItem], Double)] = [
      (box, 40), (box, 60), (hyphenEnd, 60), (hyphenEnd, 90), ([], 1),
    ]
    for (items, measure) in cases {
      for flagged in [true, false] {
        #expect(
          EmergencyBreaks.hasWideRun(items, measure: measure, flaggedBreaks: flagged)
            == Self.plainWideRun(items, measure: measure, flaggedBreaks: flagged))
      }
    }
    #expect(wide > 100 && narrow > 100)
  }
}
