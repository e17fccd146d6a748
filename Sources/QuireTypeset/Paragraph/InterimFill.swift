// A first-fit line filler behind `ParagraphBreaker`, used until the typography engineer's
// breakers land; also the breaker for `white-space: pre`/`nowrap` text, where only the
// right edge and forced breaks matter.

/// Fills each line with as much as fits, breaking at the last legal break point.
struct InterimFill: ParagraphBreaker {
  func breakLines(_ items: [BreakItem], lineWidth: (Int) -> Double) -> [LineBreak] {
    var breaks: [LineBreak] = []
    var start = 0
    while start < items.count {
      // Discard glue and penalties at the start of a line (not forced ones).
      while start < items.count {
        if case .box = items[start] { break }
        if case .penalty(_, let c, _) = items[start], c <= -BreakItem.forcedBreak { break }
        start += 1
      }
      if start >= items.count { break }
      let width = lineWidth(breaks.count)
      var w = 0.0
      var lastLegal: Int? = nil
      var i = start
      var chosen: Int? = nil
      while i < items.count {
        switch items[i] {
        case .box(let bw):
          w += bw
          if w > width, let legal = lastLegal { chosen = legal }
        case .glue(let gw, _, _):
          if i > start, case .box = items[i - 1] {
            if w > width, let legal = lastLegal { chosen = legal } else { lastLegal = i }
          }
          w += gw
        case .penalty(let pw, let cost, _):
          if cost <= -BreakItem.forcedBreak {
            chosen = i
          } else if cost < BreakItem.forcedBreak {
            if w + pw > width, let legal = lastLegal {
              chosen = legal
            } else if w + pw <= width {
              lastLegal = i
            }
          }
        }
        if chosen != nil { break }
        i += 1
      }
      let end = chosen ?? (items.count - 1)
      breaks.append(InterimFill.measure(items, from: start, to: end, width: width))
      start = end + 1
    }
    return breaks
  }

  /// The break at `end` for a line starting at `start`, with its adjustment ratio.
  static func measure(_ items: [BreakItem], from start: Int, to end: Int, width: Double)
    -> LineBreak
  {
    var w = 0.0
    var stretch = 0.0
    var shrink = 0.0
    var hyphen = false
    for k in start...end {
      switch items[k] {
      case .box(let bw): w += bw
      case .glue(let gw, let st, let sh):
        if k < end {
          w += gw
          stretch += st
          shrink += sh
        }
      case .penalty(let pw, _, let flagged):
        if k == end {
          w += pw
          hyphen = flagged
        }
      }
    }
    var ratio = 0.0
    if w < width, stretch > 0 {
      ratio = (width - w) / stretch
    } else if w > width, shrink > 0 {
      ratio = max(-1, (width - w) / shrink)
    }
    return LineBreak(index: end, ratio: ratio, hyphenated: hyphen)
  }
}
