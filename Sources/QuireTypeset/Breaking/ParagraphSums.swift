// Prefix sums over a paragraph's items so that any candidate line's natural width, stretch,
// shrink and fil count come out in O(1). Both breakers use this; it is internal.

struct ParagraphSums {
  let items: [BreakItem]
  /// Running totals before item i (n + 1 entries): width, finite stretch, shrink, fils.
  private var prefix: [Prefix]
  /// Per item: what a break there means (`Break`).
  private var breaks: [Break]
  /// No box or glue is narrower than 0, so the running width never decreases: a line that
  /// starts later (and ends at the same break) is never wider. The Knuth–Plass pass prunes
  /// on it (`KnuthPlassBreaker.pass`).
  private(set) var widthNeverDecreases = true

  struct Prefix {
    var width: Double
    var stretch: Double
    var shrink: Double
    var fils: Int
  }

  private struct Break {
    /// Bit 0 legal break, bit 1 flagged, bit 2 forced or the last item, bit 3 a line may
    /// start here (a box or a forced penalty: `nextStart`).
    var kind: UInt8
    /// Where a line ending here stops summing (exclusive).
    var upper: Int
    /// The width a break here adds (a penalty's) and its cost, clamped.
    var extra: Double
    var cost: Double
    /// The start of the next line after a break here.
    var nextStart: Int
  }

  // Two arrays of structs, not nine arrays of numbers: the breakers read a line's sums from
  // two `Prefix` entries and a break's facts from one `Break`, so each probe touches two or
  // three cache lines, and a paragraph costs two allocations instead of nine (this runs for
  // every paragraph of a book; measured in Benchmarks/paginate-cost.md).
  init(_ items: [BreakItem]) {
    self.items = items
    let n = items.count
    // Both arrays are written in place through their buffers: appending and then patching
    // `nextStart` by subscript cost a uniqueness and capacity check per item and per patch
    // (~30 instructions an item; Benchmarks/paginate-cost.md, session 15).
    var breaks: [Break] = []
    var monotone = true
    let prefix = [Prefix](unsafeUninitializedCapacity: n + 1) { prefix, count in
      breaks = [Break](unsafeUninitializedCapacity: n) { breaks, made in
        items.withUnsafeBufferPointer { items in
          monotone = ParagraphSums.sum(
            items, prefix: prefix.baseAddress!, breaks: breaks.baseAddress)
        }
        made = n
      }
      count = n + 1
    }
    self.prefix = prefix
    self.breaks = breaks
    widthNeverDecreases = monotone
  }

  /// Fills `prefix` (n + 1 entries) and `breaks` (n) for `items`; returns whether no box or
  /// glue has a negative width.
  private static func sum(
    _ items: UnsafeBufferPointer<BreakItem>, prefix: UnsafeMutablePointer<Prefix>,
    breaks: UnsafeMutablePointer<Break>?
  ) -> Bool {
    let n = items.count
    var sum = Prefix(width: 0, stretch: 0, shrink: 0, fils: 0)
    prefix.initialize(to: sum)
    guard let breaks, n > 0 else { return true }
    var previousIsBox = false
    // The smallest box or glue width seen (NaN counts as 0, see `size`).
    var narrowest = 0.0
    for i in 0..<n {
      var b = Break(kind: 0, upper: i, extra: 0, cost: 0, nextStart: n)
      switch items[i] {
      case .box(let bw):
        b.kind = 8
        b.upper = i + 1
        let w = ParagraphSums.size(bw)
        narrowest = min(narrowest, w)
        sum.width += w
        previousIsBox = true
      case .glue(let gw, let gy, let gz):
        if previousIsBox { b.kind = 1 }
        let w = ParagraphSums.size(gw)
        narrowest = min(narrowest, w)
        sum.width += w
        sum.shrink += max(0, ParagraphSums.size(gz))
        if gy >= BreakItem.fil {
          sum.fils += 1
        } else {
          sum.stretch += max(0, ParagraphSums.size(gy))
        }
        previousIsBox = false
      case .penalty(let pw, let c, let flagged):
        if c > -BreakItem.forcedBreak { b.kind = 1 }
        b.extra = ParagraphSums.size(pw)
        b.cost = c.isNaN ? 0 : max(-BreakItem.forcedBreak, min(BreakItem.forcedBreak, c))
        if flagged { b.kind |= 2 }
        if c >= BreakItem.forcedBreak { b.kind |= 12 }
        previousIsBox = false
      }
      (breaks + i).initialize(to: b)
      (prefix + i + 1).initialize(to: sum)
    }
    // The last item is a legal break that ends the paragraph.
    breaks[n - 1].kind |= 5
    // Each item's `nextStart`: the next box or forced penalty after it. Read from the kind
    // bit, not by matching the items again (that walk cost ~14 instructions an item; filling
    // the gap at each box in the loop above compiled to ~30 a box; session 17).
    var following = n
    for i in stride(from: n - 1, through: 0, by: -1) {
      breaks[i].nextStart = following
      if breaks[i].kind & 8 != 0 { following = i }
    }
    return narrowest >= 0
  }

  var count: Int { items.count }

  /// Sizes from untrusted layout: NaN counts as 0, infinities and huge values are clamped
  /// to ±10⁷ px so sums stay finite (negative widths, e.g. kerns, are kept).
  /// In range (every size of a real book) this costs two floating-point comparisons: NaN
  /// fails the first one and only then is told from −∞ (`isNaN` first compiled to ten
  /// integer instructions per call, three calls an item).
  @inline(__always)
  static func size(_ x: Double) -> Double {
    if x > -1e7 { return x < 1e7 ? x : 1e7 }
    return x.isNaN ? 0 : -1e7
  }

  /// The line that starts at item `start` and ends with a break at `end`.
  @inline(__always)
  func line(from start: Int, to end: Int) -> LineMeasure {
    let b = breaks[end]
    let s = min(start, b.upper)
    let hi = prefix[b.upper]
    let lo = prefix[s]
    return LineMeasure(
      width: hi.width - lo.width + b.extra, stretch: hi.stretch - lo.stretch,
      shrink: hi.shrink - lo.shrink, fils: hi.fils - lo.fils)
  }

  /// What every line ending with a break at `end` shares: where its sums stop and the
  /// width the break adds. The Knuth–Plass pass reads it once per break, not once per
  /// active node.
  struct LineEnd {
    fileprivate let upper: Int
    fileprivate let extra: Double
    fileprivate let hi: Prefix
  }

  @inline(__always)
  func lineEnd(_ end: Int) -> LineEnd {
    let b = breaks[end]
    return LineEnd(upper: b.upper, extra: b.extra, hi: prefix[b.upper])
  }

  /// The running totals before item `start` (0 ≤ start ≤ count).
  @inline(__always) func prefix(_ start: Int) -> Prefix { prefix[start] }

  /// `line(from:to:)` for a break read by `lineEnd` (the same sums, in the same order), of
  /// a line whose first item is at or before the break (so `min(start, upper)` is `start`)
  /// and whose `prefix(start)` is `lo`.
  @inline(__always)
  func line(from lo: Prefix, to e: LineEnd) -> LineMeasure {
    LineMeasure(
      width: e.hi.width - lo.width + e.extra, stretch: e.hi.stretch - lo.stretch,
      shrink: e.hi.shrink - lo.shrink, fils: e.hi.fils - lo.fils)
  }

  @inline(__always) func isLegalBreak(_ i: Int) -> Bool { breaks[i].kind & 1 != 0 }

  /// The first legal break at or after `i` (0 ≤ i < count). The last item is always one
  /// (`sum`), so the walk stops there and reads no entry past it: one load and test an item
  /// (the pass's walk over every item checked the index three times, ~13 instructions).
  @inline(__always) func legalBreak(from i: Int) -> Int {
    breaks.withUnsafeBufferPointer { b in
      assert(i >= 0 && i < b.count && b[b.count - 1].kind & 1 != 0)
      var j = i
      while b[j].kind & 1 == 0 { j &+= 1 }
      return j
    }
  }

  @inline(__always) func isFlagged(_ i: Int) -> Bool { breaks[i].kind & 2 != 0 }

  @inline(__always) func cost(_ i: Int) -> Double { breaks[i].cost }

  /// Breaks here end the line unconditionally (forced penalty or the paragraph's end).
  @inline(__always) func endsParagraphOrForced(_ i: Int) -> Bool { breaks[i].kind & 4 != 0 }

  /// The first item of the line after a break at `i` (discardable items skipped).
  @inline(__always) func nextStart(_ i: Int) -> Int { breaks[i].nextStart }
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
