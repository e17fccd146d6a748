// Compose, the line-end half: which lines end at a forced break (the paragraph's end or a
// `<br>`, where `text-align-last` applies and `each-line` indents the next line), and the
// adjustment ratio of a last line that `text-align-last: justify` stretches (the breaker
// gives last lines their fil glue's ratio, 0).

import QuireIngest

extension LineComposer {
  /// Whether a line broken at item `index` ends at a forced break.
  func isForced(_ index: Int) -> Bool {
    guard index >= 0, index < items.count, case .penalty(_, let cost, _) = items[index] else {
      return false
    }
    return cost >= BreakItem.forcedBreak
  }

  /// The ratio that fills a last line to its measure from its finite glue (0 when it has
  /// none or is already full). Not capped at 4 like other lines: CSS fills the line whatever
  /// it costs (bounded only against absurd values).
  func lastLineRatio(
    from first: Int, firstBox s: Int, to end: Int, first isFirst: Bool, index: Int
  ) -> Double {
    var order: [Int] = []
    let natural = kept(from: first, firstBox: s, to: end, 0, into: &order)
    var stretch = 0.0
    for k in order {
      if case .glue(_, let st, _) = items[k], st.isFinite { stretch += st }
    }
    let free = geometry.lineWidth(first: isFirst, index: index) - natural
    guard stretch > 0, free > 0 else { return 0 }
    return min(1_000, free / stretch)
  }
}
