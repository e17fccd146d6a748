// A table band taller than a page, cut into entries that each fit one (CSS Fragmentation 3:
// a row taller than the page is broken inside). Cuts fall between lines: the lines of
// every cell of the band are merged into the intervals they cover, and a cut that would fall
// inside one moves up to its top; only when a single interval is taller than the page is
// it cut where the page ends. Each item goes to the slice holding its anchor (a glyph run's
// first baseline, a rectangle's top); boxes are clipped to each slice and lose the sides a
// cut passes through (`box-decoration-break: slice`). Cost: O(n log n) in the band's lines
// and items.

import QuireIngest

enum TableSlicing {
  static func slices(_ e: FlowEntry, limit: Double) -> [FlowEntry] {
    guard limit > 1, e.height > limit else { return [e] }
    let cuts = cutPositions(e, limit: limit)
    var out: [FlowEntry] = []
    for i in 0..<(cuts.count - 1) {
      let (a, b) = (cuts[i], cuts[i + 1])
      var s = FlowEntry(spaceBefore: 0, height: b - a, start: e.start, end: e.end)
      s.repeatHeader = e.repeatHeader
      s.forcedBreakBefore = i == 0 && e.forcedBreakBefore
      func inside(_ y: Double) -> Bool { (y >= a || i == 0) && (y < b || i == cuts.count - 2) }
      for item in e.items {
        switch item {
        case .box(var box):
          let top = max(box.rect.y, a)
          let bottom = min(box.rect.maxY, b)
          guard bottom > top else { continue }
          if box.rect.y < a { box.top = .none }
          if box.rect.maxY > b { box.bottom = .none }
          box.rect.y = top - a
          box.rect.height = bottom - top
          s.items.append(.box(box))
        case .glyphs(let run):
          if inside(Double(run.y.first ?? 0) - 1) { s.items.append(item.offset(dy: -a)) }
        case .image(let pl):
          if inside(pl.rect.y) { s.items.append(item.offset(dy: -a)) }
        case .fill(let r, _):
          if inside(r.y) { s.items.append(item.offset(dy: -a)) }
        }
      }
      s.lines = e.lines.filter { inside($0.rect.y) }.map {
        var l = $0
        l.rect.y -= a
        return l
      }
      s.images = e.images.filter { inside($0.rect.y) }.map {
        var p = $0
        p.rect.y -= a
        return p
      }
      if let f = s.lines.first { s.start = f.start }
      if let l = s.lines.last { s.end = l.end }
      out.append(s)
    }
    return out
  }

  /// Cut positions from 0 to the entry's height, each slice at most `limit` tall.
  static func cutPositions(_ e: FlowEntry, limit: Double) -> [Double] {
    // Merged line intervals, sorted.
    var spans = e.lines.map { ($0.rect.y, $0.rect.maxY) }.sorted { $0.0 < $1.0 }
    var merged: [(Double, Double)] = []
    for s in spans {
      if let last = merged.last, s.0 < last.1 - 0.01 {
        merged[merged.count - 1].1 = max(last.1, s.1)
      } else {
        merged.append(s)
      }
    }
    spans = []
    var cuts: [Double] = [0]
    var top = 0.0
    while e.height - top > limit {
      var cut = top + limit
      // The merged interval holding `cut`, if any (binary search on tops).
      var lo = 0
      var hi = merged.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if merged[mid].0 < cut { lo = mid + 1 } else { hi = mid }
      }
      if lo > 0, merged[lo - 1].1 > cut + 0.01, merged[lo - 1].0 > top + 1 {
        cut = merged[lo - 1].0
      }
      cuts.append(cut)
      top = cut
    }
    cuts.append(e.height)
    return cuts
  }
}
