// Where a laid-out table's columns, rows and cells go (CSS 2.1 §17.5.3 row heights and cell
// vertical alignment), and the flow entries it becomes: one per band of rows that no
// rowspan crosses, each carrying its slice of the table's box, the row backgrounds, the
// cell boxes (or collapsed edge segments) and the cells' content. See TableLayout.swift.
//
// Coordinates: x in page pixels; y from the table's border-box top while placing, from
// each band's top in the entries.

import QuireCore
import QuireIngest

struct TablePlacement {
  let frame: TableFrame
  let structure: TableStructure
  var colLeft: [Double] = []
  var colRight: [Double] = []
  var rowTop: [Double] = []
  var rowBottom: [Double] = []
  var left: Double
  var width: Double
  var height = 0.0
  /// Per cell: the content's offset from its row's top.
  var contentY: [Double] = []

  init(frame: TableFrame, structure: TableStructure, left: Double, widths: [Double]) {
    self.frame = frame
    self.structure = structure
    self.left = left
    var x = left + frame.table.left + frame.spacingX
    for w in widths {
      colLeft.append(x)
      colRight.append(x + w)
      x += w + frame.spacingX
    }
    width = x - left + frame.table.right
  }

  /// The content box's left and right of cell `k`.
  func contentEdges(_ k: Int) -> (Double, Double) {
    let c = structure.grid.cells[k]
    let inset = frame.insets[k]
    let l = colLeft[c.column] + inset.left
    let r = colRight[c.column + c.columnSpan - 1] - inset.right
    return (l, max(l + 1, r))
  }

  /// Row heights from the laid-out cells, then each cell's content offset.
  mutating func placeRows(_ laid: [LaidCell], fontSize: Double) {
    let grid = structure.grid
    var h = structure.rows.map { row -> Double in
      if case .rem(let v)? = row.box.height { return max(0, min(v * fontSize, 100_000)) }
      return 0
    }
    var base = [Double](repeating: 0, count: grid.rowCount)
    for (k, c) in grid.cells.enumerated() where c.rowSpan == 1 {
      let need = frame.insets[k].top + laid[k].height + frame.insets[k].bottom
      if align(k) == .baseline {
        base[c.row] = max(base[c.row], frame.insets[k].top + laid[k].baseline)
      } else {
        h[c.row] = max(h[c.row], need)
      }
    }
    for (k, c) in grid.cells.enumerated() where c.rowSpan == 1 && align(k) == .baseline {
      let top = frame.insets[k].top + laid[k].baseline
      h[c.row] = max(
        h[c.row], base[c.row] - top + frame.insets[k].top + laid[k].height + frame.insets[k].bottom)
    }
    for (k, c) in grid.cells.enumerated() where c.rowSpan > 1 {
      let need = frame.insets[k].top + laid[k].height + frame.insets[k].bottom
      let rows = c.row..<(c.row + c.rowSpan)
      let total = rows.reduce(0) { $0 + h[$1] } + frame.spacingY * Double(c.rowSpan - 1)
      if need > total { h[rows.upperBound - 1] += need - total }
    }
    var y = frame.table.top + frame.spacingY
    for r in 0..<grid.rowCount {
      rowTop.append(y)
      rowBottom.append(y + h[r])
      y += h[r] + frame.spacingY
    }
    height = y + frame.table.bottom
    for (k, c) in grid.cells.enumerated() {
      let inset = frame.insets[k]
      let cellHeight = rowBottom[c.row + c.rowSpan - 1] - rowTop[c.row]
      let room = cellHeight - inset.top - inset.bottom - laid[k].height
      var dy = inset.top
      switch align(k) {
      case .top: break
      case .middle: dy += max(0, room / 2)
      case .bottom: dy += max(0, room)
      case .baseline:
        if c.rowSpan == 1 { dy = max(inset.top, base[c.row] - laid[k].baseline) }
      }
      contentY.append(dy)
    }
  }

  func align(_ k: Int) -> CellAlign { structure.cells[k].table.style.cellAlign }

  /// The border box of cell `k`, y from the table's top.
  func cellRect(_ k: Int) -> Rect {
    let c = structure.grid.cells[k]
    let x0 = colLeft[c.column]
    let x1 = colRight[c.column + c.columnSpan - 1]
    let y0 = rowTop[c.row]
    let y1 = rowBottom[c.row + c.rowSpan - 1]
    return Rect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
  }

  /// Row ranges that no rowspan crosses, in order.
  func bands() -> [Range<Int>] {
    var reach = [Int](repeating: 0, count: structure.grid.rowCount)
    for c in structure.grid.cells { reach[c.row] = max(reach[c.row], c.row + c.rowSpan) }
    var out: [Range<Int>] = []
    var a = 0
    while a < reach.count {
      var e = a + 1
      var far = max(e, reach[a])
      while e < far {
        far = max(far, reach[e])
        e += 1
      }
      out.append(a..<e)
      a = e
    }
    return out
  }

  /// The band's top and bottom, y from the table's top (bands tile the table).
  func bandExtent(_ rows: Range<Int>) -> (Double, Double) {
    let top = rows.lowerBound == 0 ? 0 : rowBottom[rows.lowerBound - 1]
    let bottom = rows.upperBound == rowTop.count ? height : rowBottom[rows.upperBound - 1]
    return (top, bottom)
  }
}
