// The paragraph model shared by every line breaker (Knuth & Plass 1981): a paragraph is a
// sequence of boxes (unbreakable material), glue (stretchable space, a break point when it
// follows a box) and penalties (optional break points with a cost; "flagged" ones are
// hyphens, whose consecutive use costs extra). Widths in pixels.

package enum BreakItem: Sendable, Hashable {
  case box(width: Double)
  case glue(width: Double, stretch: Double, shrink: Double)
  /// `cost` ≥ `BreakItem.forcedBreak` forces a break; ≤ −forcedBreak forbids one.
  /// (Note: TeX's signs are the other way round; this model's are as written here.)
  case penalty(width: Double, cost: Double, flagged: Bool)

  package static let forcedBreak: Double = 10_000
}

/// A chosen break: the line ends at item `index` (a glue or a penalty, or the last item).
package struct LineBreak: Sendable, Hashable {
  package var index: Int
  /// Adjustment ratio of the line that ends here: 0 natural, + stretched, − shrunk.
  package var ratio: Double
  /// The line ends at a flagged penalty (a hyphen is shown).
  package var hyphenated: Bool
  package init(index: Int, ratio: Double, hyphenated: Bool) {
    self.index = index
    self.ratio = ratio
    self.hyphenated = hyphenated
  }
}

/// Chooses line breaks for a paragraph. `lineWidth(k)` gives the width available to line k
/// (0-based), so first-line indents and shaped paragraphs are allowed.
package protocol ParagraphBreaker: Sendable {
  func breakLines(_ items: [BreakItem], lineWidth: (Int) -> Double) -> [LineBreak]
  /// The same breaks as `breakLines(_:lineWidth:)` when line 0 is `firstWidth` wide and
  /// every other line `width` (the usual paragraph): a breaker may skip asking a closure.
  func breakLines(_ items: [BreakItem], firstWidth: Double, width: Double) -> [LineBreak]
}

extension ParagraphBreaker {
  package func breakLines(_ items: [BreakItem], firstWidth: Double, width: Double)
    -> [LineBreak]
  {
    breakLines(items) { k in k == 0 ? firstWidth : width }
  }
}

// MARK: - Conventions and helpers (added by the typography stage)
//
// Penalty costs follow the convention documented on `BreakItem.penalty`: a cost
// ≥ `forcedBreak` forces a break, ≤ −`forcedBreak` forbids one (the reverse of TeX's
// signs). Between those, a positive cost discourages a break and a negative one encourages
// it, as in TeX (the cost enters the demerits squared). Use the named constructors below
// rather than raw numbers.
//
// Legal break points: a glue immediately preceded by a box; a penalty whose cost is above
// −forcedBreak; and the last item of the paragraph. After a break, the glue and penalties
// that follow are discarded up to the next box or forced penalty (they start no line).
// Glue whose stretch is infinite (or ≥ `BreakItem.fil`, 10 000 px) is "fil" glue: it absorbs any
// shortfall (the paragraph's final fill), so a line containing it has ratio 0 when short.

extension BreakItem {
  /// Stretch at or above this counts as infinite ("fil") glue.
  package static let fil: Double = 10_000

  /// A forced line break (`<br>`, end of paragraph).
  package static let forcedLineBreak = BreakItem.penalty(
    width: 0, cost: forcedBreak, flagged: false)
  /// A point where no break may occur even though glue follows (a no-break space is better
  /// modelled as a box; this is for glue that must not break).
  package static let prohibitedBreak = BreakItem.penalty(
    width: 0, cost: -forcedBreak, flagged: false)
  /// The usual paragraph ending: fil glue then a forced break.
  package static let paragraphEnd: [BreakItem] = [
    .glue(width: 0, stretch: .infinity, shrink: 0), forcedLineBreak,
  ]

  /// A discretionary hyphen point: `width` is the hyphen's width, shown only if the line
  /// breaks here. `KnuthPlassBreaker.hyphenPenalty` (50) is added to `cost`, so items
  /// normally carry 0.
  package static func hyphen(width: Double, cost: Double = 0) -> BreakItem {
    .penalty(width: width, cost: cost, flagged: true)
  }

  /// Natural width contributed when the item sits inside a line (penalties: 0).
  @inlinable package var naturalWidth: Double {
    switch self {
    case .box(let w): return w
    case .glue(let w, _, _): return w
    case .penalty: return 0
    }
  }

  @inlinable package var isBox: Bool {
    if case .box = self { return true }
    return false
  }

  /// A penalty that forces a break.
  @inlinable package var isForcedBreak: Bool {
    if case .penalty(_, let cost, _) = self { return cost >= BreakItem.forcedBreak }
    return false
  }
}

extension LineBreak {
  /// The items visible on each line, in order: line k starts after the previous break
  /// (skipping discarded glue/penalties) and ends before the break glue, or includes the
  /// break penalty (its width — e.g. a hyphen — is shown) or the final item. Lines that
  /// contain only discarded material come out empty.
  package static func lineRanges(_ breaks: [LineBreak], in items: [BreakItem]) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    ranges.reserveCapacity(breaks.count)
    var start = 0
    for b in breaks {
      let end: Int
      switch items[b.index] {
      case .glue: end = b.index
      default: end = b.index + 1
      }
      ranges.append(min(start, end)..<end)
      start = ParagraphMeasure.lineStart(afterBreak: b.index, in: items)
    }
    return ranges
  }
}

/// Width arithmetic shared by the breakers and by callers that set lines (pure functions).
package enum ParagraphMeasure {
  /// The first item of the line that follows a break at `index`: the next box or forced
  /// penalty (discardable glue and penalties in between are dropped), or `items.count`.
  package static func lineStart(afterBreak index: Int, in items: [BreakItem]) -> Int {
    var j = index + 1
    while j < items.count {
      switch items[j] {
      case .box: return j
      case .penalty(_, let cost, _) where cost >= BreakItem.forcedBreak: return j
      default: j += 1
      }
    }
    return items.count
  }

  /// Whether a line may end at item `index` (see the conventions above).
  package static func isLegalBreak(_ index: Int, in items: [BreakItem]) -> Bool {
    if index == items.count - 1 { return true }
    switch items[index] {
    case .box: return false
    case .glue: return index > 0 && items[index - 1].isBox
    case .penalty(_, let cost, _): return cost > -BreakItem.forcedBreak
    }
  }

  /// Natural width, finite stretch, shrink and number of fil glues of the line made of
  /// `range` (as returned by `LineBreak.lineRanges`); the penalty that ends the range
  /// contributes its width, penalties inside contribute nothing.
  package static func measure(_ range: Range<Int>, in items: [BreakItem]) -> (
    width: Double, stretch: Double, shrink: Double, fils: Int
  ) {
    var w = 0.0
    var y = 0.0
    var z = 0.0
    var f = 0
    for i in range {
      switch items[i] {
      case .box(let bw): w += bw
      case .glue(let gw, let gy, let gz):
        w += gw
        z += gz
        if gy >= BreakItem.fil { f += 1 } else { y += gy }
      case .penalty(let pw, _, _): if i == range.upperBound - 1 { w += pw }
      }
    }
    return (w, y, z, f)
  }

  /// The width a line occupies when its glue is set with `ratio`: each glue gets
  /// `width + ratio·stretch` (ratio > 0) or `width + ratio·shrink` (ratio < 0); fil glue
  /// takes up whatever remains and is not counted here.
  package static func setWidth(_ range: Range<Int>, in items: [BreakItem], ratio: Double) -> Double
  {
    let m = measure(range, in: items)
    return m.width + (ratio >= 0 ? ratio * m.stretch : ratio * m.shrink)
  }
}
