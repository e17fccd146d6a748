// The table grid (HTML "table processing model", CSS 2.1 §17.5): rows of cells become slots;
// a cell covers `rowSpan × columnSpan` slots from the first free slot of its row, rows may
// be of different lengths (missing slots stay empty), and a rowspan is cut at the end of
// the table's rows (rowspan 0 runs to the end, as HTML's "to the end of the row group";
// this grid has one group, its rows in document order: header, body, footer).
//
// Cost: one `coveredUntil` entry per column, so placing a row costs its cells' spans plus
// the slots skipped — linear in the grid's slots, and the grid is bounded: more than
// `maxColumns` columns or `maxSlots` slots, and `TableGrid.build` returns nil (the caller
// lays the cells out one after another instead). No slot matrix is stored.

/// One cell placed in the grid.
package struct GridCell: Sendable, Hashable {
  /// Index of the row (in the grid's rows) and column of its top-left slot.
  package var row: Int
  package var column: Int
  package var rowSpan: Int
  package var columnSpan: Int
  /// Index of the cell among its row's cells (its source order within the row).
  package var index: Int
}

package struct TableGrid: Sendable, Hashable {
  package var rowCount: Int
  package var columnCount: Int
  /// In row order, then column order.
  package var cells: [GridCell]

  /// Most columns a grid may have.
  package static let maxColumns = 1000
  /// Most slots (rows × columns) a grid may have.
  package static let maxSlots = 1_000_000

  /// The grid of rows given as the (columnSpan, rowSpan) of their cells; nil when it would
  /// pass the bounds.
  package static func build(_ rows: [[(columnSpan: Int, rowSpan: Int)]]) -> TableGrid? {
    let rowCount = rows.count
    var coveredUntil: [Int] = []  // per column: first row not covered by a rowspan above
    var cells: [GridCell] = []
    var columns = 0
    for (y, row) in rows.enumerated() {
      var x = 0
      for (i, spec) in row.enumerated() {
        while x < coveredUntil.count && coveredUntil[x] > y { x += 1 }
        let cs = max(1, spec.columnSpan)
        let rs = spec.rowSpan <= 0 ? rowCount - y : min(spec.rowSpan, rowCount - y)
        guard x + cs <= maxColumns else { return nil }
        if coveredUntil.count < x + cs {
          coveredUntil += [Int](repeating: 0, count: x + cs - coveredUntil.count)
        }
        for c in x..<(x + cs) { coveredUntil[c] = y + rs }
        cells.append(GridCell(row: y, column: x, rowSpan: rs, columnSpan: cs, index: i))
        x += cs
      }
      columns = max(columns, coveredUntil.count)
      guard columns * rowCount <= maxSlots else { return nil }
    }
    return TableGrid(rowCount: rowCount, columnCount: columns, cells: cells)
  }

  /// A text dump for tests: one line per row, each slot the index of the cell covering it
  /// in `cells` ("." when empty).
  package var dump: String {
    var slots = [[String]](
      repeating: [String](repeating: ".", count: columnCount), count: rowCount)
    for (k, c) in cells.enumerated() {
      for y in c.row..<(c.row + c.rowSpan) {
        for x in c.column..<(c.column + c.columnSpan) { slots[y][x] = String(k) }
      }
    }
    return slots.map { $0.joined(separator: " ") }.joined(separator: "\n")
  }
}
