// Multi-column containers in the block flow (CSS Multi-column Layout 1).
//
// A block with `column-count` or `column-width` lays its content out once, at the used
// column width (§3.4's pseudo-algorithm: the count and width that fit the container's
// content box, at most `ColumnStyle.maxCount` columns and none narrower than 1 px), as
// ordinary flow entries at the first column's x. Those entries are tagged with their
// `ColumnSet`; the paginator (Pagination/ColumnPlacement.swift) then cuts the set into
// columns and pages: on each page the columns fill to the page's foot, and the last piece
// (or the piece before a spanner) is balanced. Lines, images, tables and floats inside
// measure to the column width because the column width is their containing block.
//
// `column-span: all` children split the container into segments: each run of ordinary
// children is a set of its own, each spanner is laid out across the container between
// them. The container opens and closes on zero-height fence entries outside its sets, so
// its border box (and the manifest's block fragments of what encloses it) spans its
// columns' height, and its margins do not collapse with its children's (it is a block
// formatting context, §2).
//
// Bounds: a multi-column container inside a column is laid out as one column (nesting
// depth 1); vertical writing modes, fixed-layout pages, table cells and inline blocks lay
// their content out in one column. Inside a set a forced page break ends the column, not
// the page, and a chapter whose notes go to the page feet (`--footnotes foot` with notes)
// sets its column sets in one column, at the column width. Rejected: laying each column out as its own flow before
// pagination — where a page ends inside the set is only known to the paginator, and the
// page splitter's rules (widows, orphans, keeps) decide column breaks as well as page ones.

import QuireIngest

/// The used geometry of one run of a multi-column container's content, px.
struct ColumnSet: Sendable {
  /// Used column count (≥ 1) and width (≥ 1 px), and the gap between two columns.
  var count: Int
  var width: Double
  var gap: Double
  /// Left edge of the first column's content box (where the entries were laid out).
  var left: Double
  /// Columns run right to left (`direction: rtl`).
  var rtl: Bool
  var fill: ColumnFill
  /// The rule drawn in each gap between two non-empty columns, or nil.
  var rule: PaintedBorderSide?

  /// §3.4: the used count and width for `style` in a content box `available` px wide, with
  /// the container's font size `em` (for `column-gap: normal`); `px` resolves a length
  /// against a width.
  init(
    _ style: ColumnStyle, available: Double, em: Double, left: Double, rtl: Bool,
    px: (Length, Double) -> Double
  ) {
    let u = max(1, available)
    let gap = style.gap.map { px($0, u) } ?? em
    self.gap = max(0, min(gap, u))
    var n: Int
    if let w = style.width.map({ max(1, px($0, u)) }) {
      let fit = Int(
        max(1, min(Double(ColumnStyle.maxCount), ((u + self.gap) / (w + self.gap)).rounded(.down))))
      n = min(style.count ?? fit, fit)
    } else {
      n = style.count ?? 1
    }
    // No column narrower than 1 px: fewer columns when they do not fit.
    let narrowest = Int(max(1, ((u + self.gap) / (1 + self.gap)).rounded(.down)))
    n = max(1, min(n, narrowest, ColumnStyle.maxCount))
    self.count = n
    self.width = max(1, (u + self.gap) / Double(n) - self.gap)
    self.left = left
    self.rtl = rtl
    self.fill = style.fill
    self.rule = nil
  }

  /// How far column `c` (0 = the first in reading order) sits right of the first column's
  /// position, px.
  func shift(_ c: Int) -> Double {
    Double(rtl ? count - 1 - c : c) * (width + gap)
  }
}

extension ChapterFlow {
  /// Whether `block` becomes a multi-column container here (see the file comment).
  func startsColumns(_ block: Block) -> Bool {
    guard block.box.columns.isMultiColumn, columnSet == nil, !vertical, !positioned.enabled,
      tableNesting == 0, inlineBoxNesting == 0, block.box.float == .none
    else { return false }
    switch block.kind {
    case .table, .tableRow, .tableCell, .image, .rule: return false
    default: return true
    }
  }

  /// Lays out a multi-column container: its box, then its content as column sets split by
  /// its `column-span: all` children.
  mutating func multiColumnBlock(_ block: Block, left: Double, right: Double, depth: Int) {
    let st = block.style
    if block.box.clear != .none, !floatArea.isEmpty { clearFloats(block.box.clear) }
    let first = entries.count
    if st.breakBefore == .page, !entries.isEmpty { pendingBreak = true }
    let frame = openBox(block, left: left, right: right)
    if !floatArea.isEmpty { clearFloats(.both) }
    fence(block.location)
    let em = options.fontSize * st.fontSize
    let rtl = (block.dir ?? st.direction ?? direction) == .rtl
    var set = ColumnSet(
      block.box.columns, available: frame.right - frame.left, em: em, left: frame.left,
      rtl: rtl, px: { px($0, of: $1) })
    set.rule = columnRule(block)
    var run: [Block] = []
    var inlines = !block.inlines.isEmpty
    for child in block.children {
      guard child.box.columns.spanAll else {
        run.append(child)
        continue
      }
      columns(block, run, set, inlines: inlines, depth: depth)
      (run, inlines) = ([], false)
      layout(child, left: frame.left, right: frame.right, depth: depth + 1)
    }
    columns(block, run, set, inlines: inlines, depth: depth)
    fence(lastLocation)
    closeBox(frame, block)
    collapse(px(st.margin.bottom, of: max(1, right - left)))
    if st.breakAfter == .page { pendingBreak = true }
    applyBreaks(block, from: first)
  }

  /// One run of the container's content laid out at the column width, tagged as a set.
  private mutating func columns(
    _ block: Block, _ run: [Block], _ set: ColumnSet, inlines: Bool, depth: Int
  ) {
    guard inlines || !run.isEmpty else { return }
    let first = entries.count
    columnSet = columnSets.count
    columnSets.append(set)
    let right = set.left + set.width
    if inlines { paragraph(block, left: set.left, right: right) }
    layout(blocks: run, left: set.left, right: right, depth: depth + 1)
    if !floatArea.isEmpty { clearFloats(.both) }
    columnSet = nil
    if entries.count == first { columnSets.removeLast() }
  }

  /// A zero-height entry outside any column set (where the container's box opens and
  /// closes; its margins stop here).
  private mutating func fence(_ location: Location) {
    append(FlowEntry(spaceBefore: 0, height: 0, start: location, end: location))
  }

  /// The container's `column-rule` in pixels, or nil when it draws nothing.
  private func columnRule(_ block: Block) -> PaintedBorderSide? {
    let r = block.box.columns.rule
    let side = PaintedBorderSide(
      width: min(1000, max(0, px(r.usedWidth, of: 1))), style: r.style,
      color: r.color ?? block.style.color)
    return side.isDrawn ? side : nil
  }
}
