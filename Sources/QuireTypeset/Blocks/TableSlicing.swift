// A table band taller than a page, cut into entries that each fit one (CSS Fragmentation 3:
// a row taller than the page is broken inside). Cuts fall between lines: the lines of
// every cell of the band are merged into the intervals they cover, and a cut that would fall
// inside one moves up to its top; only when a single interval is taller than the page is
// it cut where the page ends. Each item goes to the slice holding its anchor (a glyph run's
// first baseline, a rectangle's top); boxes are clipped to each slice and lose the sides a
// cut passes through (`box-decoration-break: slice`). Cost: O(n log n) in the band's lines
// and items (a binary search over the cuts per item), plus one piece per slice a box crosses.

import QuireIngest

enum TableSlicing {
  static func slices(_ e: FlowEntry, limit: Double) -> [FlowEntry] {
    guard limit > 1, e.height > limit else { return [e] }
    let cuts = cutPositions(e, limit: limit)
    let count = cuts.count - 1
    /// The slice holding y (binary search over the cuts).
    func slice(_ y: Double) -> Int {
      var lo = 0
      var hi = count - 1
      while lo < hi {
        let mid = (lo + hi + 1) / 2
        if cuts[mid] <= y { lo = mid } else { hi = mid - 1 }
      }
      return lo
    }
    var out: [FlowEntry] = (0..<count).map { i in
      var s = FlowEntry(spaceBefore: 0, height: cuts[i + 1] - cuts[i], start: e.start, end: e.end)
      s.repeatHeader = e.repeatHeader
      s.forcedBreakBefore = i == 0 && e.forcedBreakBefore
      return s
    }
    for item in e.items {
      switch item {
      case .box(let box):
        // A box goes to every slice it overlaps, clipped, without the sides cut off.
        for i in slice(box.rect.y)...slice(max(box.rect.y, box.rect.maxY - 0.001)) {
          let (a, b) = (cuts[i], cuts[i + 1])
          var part = box
          if box.rect.y < a { part.top = .none }
          if box.rect.maxY > b { part.bottom = .none }
          let top = max(box.rect.y, a)
          part.rect.y = top - a
          part.rect.height = max(0, min(box.rect.maxY, b) - top)
          out[i].items.append(.box(part))
        }
      case .glyphs(let run):
        let i = slice(Double(run.y.first ?? 0) - 1)
        out[i].items.append(item.offset(dy: -cuts[i]))
      case .image(let pl):
        let i = slice(pl.rect.y)
        out[i].items.append(item.offset(dy: -cuts[i]))
      case .fill(let r, _):
        let i = slice(r.y)
        out[i].items.append(item.offset(dy: -cuts[i]))
      case .path(let p):
        let i = slice(p.bounds.y)
        out[i].items.append(item.offset(dy: -cuts[i]))
      case .transformed(let g):
        let i = slice(g.matrix.bounds(of: g.bounds).y)
        out[i].items.append(item.offset(dy: -cuts[i]))
      }
    }
    var seen = [Bool](repeating: false, count: count)
    for var l in e.lines {
      let i = slice(l.rect.y)
      l.rect.y -= cuts[i]
      out[i].start = seen[i] ? min(out[i].start, l.start) : l.start
      out[i].end = seen[i] ? max(out[i].end, l.end) : l.end
      seen[i] = true
      out[i].lines.append(l)
    }
    for var p in e.images {
      let i = slice(p.rect.y)
      p.rect.y -= cuts[i]
      out[i].images.append(p)
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
