// Column widths (CSS 2.1 §17.5.2). Everything here is pure arithmetic on numbers the layout
// measured, so it is tested alone (Tests/QuireTypesetTests/TableTests.swift).
//
// Automatic layout (§17.5.2.2), as browsers do it: each column's min-content and
// max-content width is the largest of its single-column cells'; then spanning cells, the
// narrower spans first, raise their columns when they need more — the excess shared in
// proportion to the columns' max-content widths (equally when those are all zero). A cell
// or `col` width in px makes its column "fixed" (its max becomes max(min, width)); a
// percentage makes it a percent column. The table's width: its CSS width if any (never less
// than the columns' minimum), else the sum of max-content widths capped at the available
// width, never less than the sum of minimums. Distribution: below the sum of max widths,
// every column gets its min plus a share of (used − Σmin) in proportion to (max − min) —
// fixed and percent columns first up to their target, auto columns after; above it, the
// extra goes to auto columns in proportion to their max (then to fixed ones, then to all).
// When even the minimums do not fit, every column is scaled down in proportion to its min
// and the cells break words at emergency points (the inline stage guarantees no line
// passes its measure).
//
// Fixed layout (§17.5.2.1): the first row's cells and the `col` widths set the columns;
// the remaining width is shared equally among the columns without one.
//
// An empty column (min = max = 0) gets nothing unless the table is wider than its content
// and there is no other column to take the space.

/// What the layout knows about one cell for the column widths, in px (border box).
package struct ColumnRequest: Sendable, Hashable {
  package var column: Int
  package var span: Int
  package var minWidth: Double
  package var maxWidth: Double
  /// A CSS width: fixed px or a percentage of the table.
  package var fixed: Double?
  package var percent: Double?
  package init(
    column: Int, span: Int, minWidth: Double, maxWidth: Double, fixed: Double? = nil,
    percent: Double? = nil
  ) {
    self.column = column
    self.span = span
    self.minWidth = minWidth
    self.maxWidth = maxWidth
    self.fixed = fixed
    self.percent = percent
  }
}

package struct TableColumns: Sendable, Hashable {
  package var minWidths: [Double]
  package var maxWidths: [Double]
  package var fixed: [Double?]
  package var percent: [Double?]

  /// Column minimums and maximums from the cells (single columns first, then spans).
  package init(columnCount n: Int, requests: [ColumnRequest], declared: [Double?] = []) {
    minWidths = [Double](repeating: 0, count: n)
    maxWidths = [Double](repeating: 0, count: n)
    fixed = [Double?](repeating: nil, count: n)
    percent = [Double?](repeating: nil, count: n)
    for (c, w) in declared.prefix(n).enumerated() {
      if let w { fixed[c] = max(0, w) }
    }
    for r in requests where r.span == 1 && r.column < n {
      let c = r.column
      minWidths[c] = max(minWidths[c], r.minWidth)
      maxWidths[c] = max(maxWidths[c], r.maxWidth)
      if let f = r.fixed { fixed[c] = max(fixed[c] ?? 0, f) }
      if let p = r.percent { percent[c] = max(percent[c] ?? 0, p) }
    }
    for c in 0..<n {
      if let f = fixed[c] { maxWidths[c] = max(minWidths[c], f) }
      maxWidths[c] = max(maxWidths[c], minWidths[c])
    }
    let spans = requests.filter { $0.span > 1 && $0.column < n }.sorted { $0.span < $1.span }
    for r in spans { spread(r) }
  }

  /// Raises the columns a spanning cell covers to its min and max.
  private mutating func spread(_ r: ColumnRequest) {
    let range = r.column..<min(minWidths.count, r.column + r.span)
    func share(_ need: Double, into widths: inout [Double], by weights: [Double]) {
      guard need > 0 else { return }
      let total = range.reduce(0) { $0 + weights[$1] }
      for c in range {
        widths[c] += total > 0 ? need * weights[c] / total : need / Double(range.count)
      }
    }
    let weights = maxWidths
    share(r.minWidth - range.reduce(0) { $0 + minWidths[$1] }, into: &minWidths, by: weights)
    share(r.maxWidth - range.reduce(0) { $0 + maxWidths[$1] }, into: &maxWidths, by: weights)
    for c in range { maxWidths[c] = max(maxWidths[c], minWidths[c]) }
  }

  package var minTotal: Double { minWidths.reduce(0, +) }
  package var maxTotal: Double { maxWidths.reduce(0, +) }

  /// The table's used width for its columns: `specified` (CSS width less the spacing and
  /// borders) if any, else shrink-to-fit in `available`; never less than the minimum but
  /// when even that does not fit `available`.
  package func usedWidth(available: Double, specified: Double?) -> Double {
    let want = specified ?? min(maxTotal, available)
    return min(max(want, minTotal), max(available, 0) < minTotal ? available : .infinity)
  }

  /// The columns' widths for a used width (see the file comment).
  package func widths(for used: Double) -> [Double] {
    let n = minWidths.count
    guard n > 0 else { return [] }
    let minSum = minTotal
    if used <= minSum {
      guard minSum > 0 else { return [Double](repeating: max(0, used) / Double(n), count: n) }
      return minWidths.map { $0 * max(0, used) / minSum }
    }
    // Targets: fixed and percent columns their width, auto columns their max.
    var target = maxWidths
    for c in 0..<n {
      if let p = percent[c] {
        target[c] = max(minWidths[c], p / 100 * used)
      } else if let f = fixed[c] {
        target[c] = max(minWidths[c], f)
      }
    }
    let targetSum = target.reduce(0, +)
    if used <= targetSum {
      // Constrained columns toward their targets first, then auto ones.
      var w = minWidths
      var left = used - minSum
      for pass in 0..<2 {
        let cols = (0..<n).filter { (percent[$0] != nil || fixed[$0] != nil) == (pass == 0) }
        let room = cols.reduce(0) { $0 + target[$1] - minWidths[$1] }
        guard room > 0 else { continue }
        let take = min(left, room)
        for c in cols { w[c] += take * (target[c] - minWidths[c]) / room }
        left -= take
      }
      return w
    }
    var w = target
    let extra = used - targetSum
    let auto = (0..<n).filter { percent[$0] == nil && fixed[$0] == nil && maxWidths[$0] > 0 }
    let fixedCols = (0..<n).filter { percent[$0] == nil && fixed[$0] != nil }
    let receivers = !auto.isEmpty ? auto : (!fixedCols.isEmpty ? fixedCols : Array(0..<n))
    let weight = receivers.reduce(0) { $0 + target[$1] }
    for c in receivers {
      w[c] += weight > 0 ? extra * target[c] / weight : extra / Double(receivers.count)
    }
    return w
  }

  /// Fixed table layout (§17.5.2.1): `firstRow` widths (nil: auto) over `used` px.
  package static func fixedLayout(
    columnCount n: Int, declared: [Double?], firstRow: [ColumnRequest], used: Double
  ) -> [Double] {
    guard n > 0 else { return [] }
    var w = [Double?](repeating: nil, count: n)
    for (c, d) in declared.prefix(n).enumerated() { w[c] = d }
    for r in firstRow where r.column < n {
      let width = r.fixed ?? r.percent.map { $0 / 100 * used }
      guard let width else { continue }
      let cols = r.column..<min(n, r.column + r.span)
      for c in cols where w[c] == nil { w[c] = max(0, width) / Double(cols.count) }
    }
    let set = w.compactMap { $0 }.reduce(0, +)
    let autoCount = w.filter { $0 == nil }.count
    let rest = max(0, used - set)
    var out = w.map { $0 ?? (autoCount > 0 ? rest / Double(autoCount) : 0) }
    let total = out.reduce(0, +)
    if total > 0 && autoCount == 0 && total < used { out = out.map { $0 * used / total } }
    return out
  }
}
