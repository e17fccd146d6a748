// Placing a chapter that has column sets (Blocks/MultiColumn.swift): nested fragmentation,
// page → column (CSS Fragmentation 3 §2, CSS Multi-column 1 §8).
//
// The entries are walked as runs: ordinary runs are split into pages as `place(_:)` does,
// starting wherever the previous run ended on its page; a column set's run is cut into
// columns by the page splitter's own rules (forced breaks, widows, orphans, keeps and
// groups, the same costs and the same `pageEnd` choice), N columns per page. While the
// rest of the set does not fit in N columns of what is left of the page, the page's
// columns fill to its foot and the set goes on at the top of the next page; the last piece
// is balanced (`column-fill: balance`): the smallest column height at which the rest still
// fits in N columns, found by bisection to a quarter pixel (CSS Multi-column 1 §7.1 asks
// to minimise the variation in column length; the shortest height that holds the content
// with the splitter's rules is what browsers compute). `column-fill: auto` fills the last
// page's columns in order.
//
// Cost: the splitter's costs once per set, then each fill visits the lines of one page's
// columns; bisection multiplies the last piece's share by at most 12. Chapters without
// column sets never come here.

import QuireCore

/// One page's piece of a column set: where its columns are and how many hold content.
struct ColumnPiece {
  var page: Int
  var set: Int
  /// Top of the columns on the page (text-area y) and their height, px.
  var top: Double
  var height: Double
  var filled: Int
}

/// Entry placements when a chapter has column sets.
struct ColumnPlacement {
  var spots: [(page: Int, y: Double)]
  /// How far each entry moves right (its column's offset), px.
  var shifts: [Double]
  var pieces: [ColumnPiece] = []
}

extension Paginator {
  /// Places entries whose chapter has column sets (see the file comment).
  func place(_ entries: [FlowEntry], sets: [ColumnSet]) -> ColumnPlacement {
    var cursor = ColumnCursor(
      pageHeight: pageHeight, lines: splitLines(entries),
      splitter: PageSplitter(orphans: 2, widows: 2, keepWithNextLines: 2))
    cursor.out = ColumnPlacement(
      spots: Array(repeating: (0, 0), count: entries.count),
      shifts: Array(repeating: 0, count: entries.count))
    cursor.y = lead(entries)
    var a = 0
    while a < entries.count {
      let set = entries[a].columnSet
      var b = a + 1
      while b < entries.count && entries[b].columnSet == set { b += 1 }
      if a > 0 && entries[a].forcedBreakBefore && cursor.used { cursor.newPage() }
      if let set, sets.indices.contains(set) {
        cursor.placeSet(
          a..<b, sets[set], id: set,
          trailing: b < entries.count ? max(0, entries[b].spaceBefore) : 0)
      } else {
        cursor.placeFlow(a..<b) { entries[$0].repeatHeader?.height ?? 0 }
      }
      a = b
    }
    return cursor.out
  }
}

/// Where the next entry goes while a chapter with column sets is placed.
struct ColumnCursor {
  let pageHeight: Double
  let lines: [SplitLine]
  let splitter: PageSplitter
  var out = ColumnPlacement(spots: [], shifts: [])
  var page = 0
  /// Top of the next entry on the page, text-area px.
  var y = 0.0
  /// Whether anything is on the current page.
  var used = false

  mutating func newPage() {
    page += 1
    y = 0
    used = false
  }

  /// An ordinary run, split into pages from the cursor on.
  mutating func placeFlow(_ run: Range<Int>, header: (Int) -> Double) {
    let sub = Array(lines[run])
    if used && sub[0].height > pageHeight - y + 1e-9 { newPage() }
    let startY = y
    let startUsed = used
    let ranges = splitter.split(sub) { k, first in
      (k == 0 ? pageHeight - startY : pageHeight)
        - (k == 0 && startUsed ? 0 : header(run.lowerBound + first))
    }
    for (k, range) in ranges.enumerated() {
      if k > 0 { newPage() }
      if !used { y += header(run.lowerBound + range.lowerBound) }
      for i in range {
        out.spots[run.lowerBound + i] = (page, y)
        y += sub[i].advance
      }
      used = true
    }
  }

  /// The set cannot start on this page: a keep-with-next entry just before it (a heading;
  /// zero-height fences skipped) goes to the next page with it, unless it starts the page.
  mutating func carryKept(before start: Int) {
    var k = start - 1
    while k >= 0 && lines[k].height <= 0 { k -= 1 }
    guard k >= 0, lines[k].keepWithNext, out.spots[k].page == page, out.spots[k].y > 0 else {
      return
    }
    newPage()
    for i in k..<start {
      out.spots[i] = (page, y)
      y += lines[i].advance
    }
    used = true
  }

  /// A column set's run: N columns per page, the last piece balanced. `trailing` is the
  /// space after the run's last entry (its bottom margin): it counts below the last column
  /// only, so it lengthens the set only when that column is nearly the tallest.
  mutating func placeSet(_ run: Range<Int>, _ set: ColumnSet, id: Int, trailing: Double) {
    let fill = ColumnRun(lines: Array(lines[run]), splitter: splitter)
    var s = 0
    if used && fill.height(0) > pageHeight - y + 1e-9 { carryKept(before: run.lowerBound) }
    while s < fill.count {
      if used && fill.height(s) > pageHeight - y + 1e-9 { newPage() }
      let avail = max(0, pageHeight - y)
      var columns = fill.columns(from: s, height: avail, count: set.count)
      let done = columns.last.map { $0.upperBound == fill.count } ?? true
      if done && set.fill == .balance && set.count > 1 {
        columns = fill.balanced(from: s, limit: avail, count: set.count)
      }
      var tallest = 0.0
      for (c, range) in columns.enumerated() {
        for i in range {
          out.spots[run.lowerBound + i] = (page, y + fill.top[i] - fill.top[range.lowerBound])
          out.shifts[run.lowerBound + i] = set.shift(c)
        }
        tallest = max(tallest, fill.extent(range))
      }
      let height = done ? tallest : max(tallest, avail)
      out.pieces.append(
        ColumnPiece(page: page, set: id, top: y, height: height, filled: columns.count))
      used = true
      s = columns.last?.upperBound ?? fill.count
      if done {
        y += max(tallest, fill.extent(columns.last ?? s..<s) + trailing)
      } else {
        newPage()
      }
    }
  }
}

/// The lines of one column set and the splitter's break costs between them.
struct ColumnRun {
  let lines: [SplitLine]
  let splitter: PageSplitter
  let costs: [Int]
  /// Each line's top in the set's flow (the running sum of advances).
  let top: [Double]

  init(lines: [SplitLine], splitter: PageSplitter) {
    self.lines = lines
    self.splitter = splitter
    costs = splitter.costs(lines)
    var t = [Double](repeating: 0, count: lines.count + 1)
    for i in lines.indices { t[i + 1] = t[i] + max(0, lines[i].advance) }
    top = t
  }

  var count: Int { lines.count }
  func height(_ i: Int) -> Double { max(0, lines[i].height) }
  /// From the first line's top to the last line's bottom.
  func extent(_ r: Range<Int>) -> Double {
    r.isEmpty ? 0 : top[r.upperBound - 1] + height(r.upperBound - 1) - top[r.lowerBound]
  }

  /// Up to `count` columns of at most `height` px from line `s`, each ended where the page
  /// splitter would end a page (every column takes at least one line).
  func columns(from s: Int, height h: Double, count: Int) -> [Range<Int>] {
    var out: [Range<Int>] = []
    var i = s
    let n = lines.count
    while i < n && out.count < count {
      var e = i + 1
      while e < n && costs[e] != PageSplitter.Cost.always
        && top[e] + height(e) - top[i] <= h + 1e-9
      {
        e += 1
      }
      let end =
        e < n && costs[e] != PageSplitter.Cost.always ? splitter.pageEnd(i, e, lines, costs) : e
      out.append(i..<end)
      i = end
    }
    return out
  }

  /// The columns at the smallest height ≤ `limit` at which lines `s…` fit in `count`.
  func balanced(from s: Int, limit: Double, count: Int) -> [Range<Int>] {
    let fits = { (h: Double) in
      self.columns(from: s, height: h, count: count).last?.upperBound == self.lines.count
    }
    var tallestLine = 0.0
    for i in s..<lines.count { tallestLine = max(tallestLine, height(i)) }
    var lo = tallestLine - 0.25
    var hi = limit
    if !fits(hi) { return columns(from: s, height: limit, count: count) }
    while hi - lo > 0.25 {
      let mid = (lo + hi) / 2
      if fits(mid) { hi = mid } else { lo = mid }
    }
    return columns(from: s, height: hi, count: count)
  }
}

extension Paginator {
  /// Draws each piece's column rules: one in the middle of every gap between two columns
  /// that hold content, as tall as the piece's columns (CSS Multi-column 1 §5), painted by
  /// the border painter as the left border of a box as wide as the rule.
  func drawRules(_ pieces: [ColumnPiece], sets: [ColumnSet], on pages: inout [Page]) {
    let top = options.margins.top
    for piece in pieces where pages.indices.contains(piece.page) && piece.filled > 1 {
      guard sets.indices.contains(piece.set), let rule = sets[piece.set].rule else { continue }
      let set = sets[piece.set]
      for c in 0..<(piece.filled - 1) {
        let x = set.left + min(set.shift(c), set.shift(c + 1)) + set.width + set.gap / 2
        let rect = Rect(
          x: x - rule.width / 2, y: top + piece.top, width: rule.width, height: piece.height)
        pages[piece.page].items.append(.box(BoxPaint(rect: rect, left: rule)))
      }
    }
  }
}
