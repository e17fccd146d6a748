// Prefix sums over a paragraph's items so that any candidate line's natural width, stretch,
// shrink and fil count come out in O(1). Both breakers use this; it is internal.

struct ParagraphSums {
  let items: [BreakItem]
  private var width: [Double]
  private var stretch: [Double]
  private var shrink: [Double]
  private var fils: [Int]
  /// Per item: bit 0 legal break, bit 1 flagged, bit 2 forced or the last item.
  private var kind: [UInt8]
  /// Per item: where a line ending here stops summing (exclusive) and the extra width a
  /// break here adds (a penalty's), and the start of the next line after a break here.
  private var upper: [Int]
  private var extra: [Double]
  private(set) var nextStart: [Int]
  private(set) var costs: [Double]

  init(_ items: [BreakItem]) {
    self.items = items
    let n = items.count
    width = [Double](repeating: 0, count: n + 1)
    stretch = [Double](repeating: 0, count: n + 1)
    shrink = [Double](repeating: 0, count: n + 1)
    fils = [Int](repeating: 0, count: n + 1)
    kind = [UInt8](repeating: 0, count: n)
    upper = Array(0..<n)
    extra = [Double](repeating: 0, count: n)
    nextStart = [Int](repeating: n, count: n)
    costs = [Double](repeating: 0, count: n)
    var following = n
    for i in stride(from: n - 1, through: 0, by: -1) {
      nextStart[i] = following
      switch items[i] {
      case .box: following = i
      case .penalty(_, let c, _) where c >= BreakItem.forcedBreak: following = i
      default: break
      }
    }
    for i in 0..<n {
      var k: UInt8 = ParagraphMeasure.isLegalBreak(i, in: items) ? 1 : 0
      switch items[i] {
      case .box: upper[i] = i + 1
      case .glue: break
      case .penalty(let pw, let c, let flagged):
        extra[i] = ParagraphSums.size(pw)
        costs[i] = c.isNaN ? 0 : max(-BreakItem.forcedBreak, min(BreakItem.forcedBreak, c))
        if flagged { k |= 2 }
        if c >= BreakItem.forcedBreak { k |= 4 }
      }
      if i == n - 1 { k |= 4 }
      kind[i] = k
    }
    for i in 0..<n {
      var w = 0.0
      var y = 0.0
      var z = 0.0
      var f = 0
      switch items[i] {
      case .box(let bw): w = ParagraphSums.size(bw)
      case .glue(let gw, let gy, let gz):
        w = ParagraphSums.size(gw)
        z = max(0, ParagraphSums.size(gz))
        if gy >= BreakItem.fil { f = 1 } else { y = max(0, ParagraphSums.size(gy)) }
      case .penalty: break
      }
      width[i + 1] = width[i] + w
      stretch[i + 1] = stretch[i] + y
      shrink[i + 1] = shrink[i] + z
      fils[i + 1] = fils[i] + f
    }
  }

  var count: Int { items.count }

  /// Sizes from untrusted layout: NaN counts as 0, infinities and huge values are clamped
  /// to ±10⁷ px so sums stay finite (negative widths, e.g. kerns, are kept).
  @inline(__always)
  static func size(_ x: Double) -> Double {
    x.isNaN ? 0 : max(-1e7, min(1e7, x))
  }

  /// The line that starts at item `start` and ends with a break at `end`.
  @inline(__always)
  func line(from start: Int, to end: Int) -> LineMeasure {
    let u = upper[end]
    let s = min(start, u)
    return LineMeasure(
      width: width[u] - width[s] + extra[end], stretch: stretch[u] - stretch[s],
      shrink: shrink[u] - shrink[s], fils: fils[u] - fils[s])
  }

  @inline(__always) func isLegalBreak(_ i: Int) -> Bool { kind[i] & 1 != 0 }

  @inline(__always) func isFlagged(_ i: Int) -> Bool { kind[i] & 2 != 0 }

  @inline(__always) func cost(_ i: Int) -> Double { costs[i] }

  /// Breaks here end the line unconditionally (forced penalty or the paragraph's end).
  @inline(__always) func endsParagraphOrForced(_ i: Int) -> Bool { kind[i] & 4 != 0 }
}

struct LineMeasure {
  var width: Double
  var stretch: Double
  var shrink: Double
  var fils: Int

  /// The raw adjustment ratio against `target`: (L − w)/stretch when short, (L − w)/shrink
  /// when long; +∞ short with nothing to stretch, −∞ long with nothing to shrink; 0 when
  /// fil glue absorbs the shortfall.
  @inline(__always)
  func rawRatio(_ target: Double) -> Double {
    let d = target - width
    if abs(d) <= 1e-9 { return 0 }
    if d > 0 {
      if fils > 0 { return 0 }
      return stretch > 0 ? d / stretch : .infinity
    }
    return shrink > 0 ? d / shrink : -.infinity
  }

  /// The ratio reported in `LineBreak.ratio`: never below −1 (an overfull line is set at
  /// full shrink), 0 when there is nothing to adjust, and for the last line of a paragraph
  /// or a line ending at a forced break never positive (such lines are set at natural
  /// width, only shrinking if they must).
  @inline(__always)
  func reportedRatio(_ target: Double, natural: Bool) -> Double {
    let r = rawRatio(target)
    if r.isNaN { return 0 }
    if r.isInfinite { return r < 0 ? (shrink > 0 ? -1 : 0) : 0 }
    if natural && r > 0 { return 0 }
    return max(r, -1)
  }
}
